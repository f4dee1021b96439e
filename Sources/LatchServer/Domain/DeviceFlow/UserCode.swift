import LatchCrypto

/// The user code of the device authorization grant (RFC 8628 § 6.1): 8 characters from the
/// 20 consonants `BCDFGHJKLMNPQRSTVWXZ` (no vowels, so no words; no look-alike digits), about
/// 34.6 bits. Shown as `XXXX-XXXX`; what the user types is matched case-insensitively, ignoring
/// dashes and white space (§ 6.1 recommends being lenient with input).
public struct UserCode: Sendable, Equatable {
    /// The alphabet (RFC 8628 § 6.1 example).
    public static let alphabet = Array("BCDFGHJKLMNPQRSTVWXZ".utf8)
    /// The number of characters.
    public static let length = 8

    /// The 8 characters, upper case, without separator.
    public let normalized: String

    /// A new random code (rejection sampling: bytes ≥ 240 are discarded so `byte % 20` is uniform).
    public static func random() -> UserCode {
        var output: [UInt8] = []
        while output.count < length {
            for byte in SecureRandom.bytes(count: length - output.count + 4) where byte < 240 {
                output.append(alphabet[Int(byte % 20)])
                if output.count == length { break }
            }
        }
        return UserCode(checked: String(decoding: output, as: UTF8.self))
    }

    /// Reads what a user typed: letters of the alphabet in either case, with any dashes and white
    /// space; `nil` unless exactly 8 letters of the alphabet remain.
    public init?(typed text: String) {
        guard text.utf8.count <= 64 else { return nil }
        var letters: [UInt8] = []
        for byte in text.utf8 {
            if byte == UInt8(ascii: "-") || byte == UInt8(ascii: " ") || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                continue
            }
            let upper = (0x61...0x7A).contains(byte) ? byte - 0x20 : byte
            guard Self.alphabet.contains(upper) else { return nil }
            letters.append(upper)
        }
        guard letters.count == Self.length else { return nil }
        normalized = String(decoding: letters, as: UTF8.self)
    }

    private init(checked: String) { normalized = checked }

    /// The display form, `XXXX-XXXX`.
    public var display: String { "\(normalized.prefix(4))-\(normalized.suffix(4))" }

    /// The hex SHA-256 stored instead of the code.
    public var hash: String { Digest.sha256Hex(normalized) }
}
