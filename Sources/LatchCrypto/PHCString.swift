/// The parameters of an Argon2 hash in PHC string format
/// (`$argon2id$v=19$m=<KiB>,t=<passes>,p=<lanes>$<salt>$<hash>`, as libargon2 encodes it;
/// PHC string format specification, RFC 9106 § 3.1).
struct PHCString: Equatable {
    /// The Argon2 variant: `argon2id`, `argon2i` or `argon2d`.
    var variant: String
    /// The Argon2 version; 19 (0x13) is the RFC 9106 version. Absent means 16 (0x10).
    var version: Int
    /// Memory size m in KiB (RFC 9106 § 3.1).
    var memoryKiB: Int
    /// Number of passes t (RFC 9106 § 3.1).
    var iterations: Int
    /// Degree of parallelism p (RFC 9106 § 3.1).
    var parallelism: Int

    /// Parses the header fields of a PHC string; `nil` if it is not one. Salt and hash are only
    /// checked to be present; libargon2 decodes them.
    init?(_ text: String) {
        let fields = text.split(separator: "$", omittingEmptySubsequences: false)
        guard fields.count == 5 || fields.count == 6, fields[0].isEmpty else { return nil }
        variant = String(fields[1])
        var index = 2
        if fields.count == 6 {
            guard fields[2].hasPrefix("v="), let version = Self.number(fields[2].dropFirst(2)) else { return nil }
            self.version = version
            index = 3
        } else {
            version = 0x10
        }
        var memory: Int?
        var passes: Int?
        var lanes: Int?
        for pair in fields[index].split(separator: ",", omittingEmptySubsequences: false) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, let value = Self.number(parts[1]) else { return nil }
            switch parts[0] {
            case "m" where memory == nil: memory = value
            case "t" where passes == nil: passes = value
            case "p" where lanes == nil: lanes = value
            default: return nil
            }
        }
        guard let memory, let passes, let lanes, !fields[index + 1].isEmpty, !fields[index + 2].isEmpty else {
            return nil
        }
        memoryKiB = memory
        iterations = passes
        parallelism = lanes
    }

    /// A decimal of at most 10 digits, without sign or leading `+`.
    private static func number(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 10, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int(text)
    }
}
