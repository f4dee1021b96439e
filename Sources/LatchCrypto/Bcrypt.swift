/// bcrypt password hashes (`$2a$`, `$2b$`, `$2y$`), computed in Swift from Provos and Mazières'
/// description ("A Future-Adaptable Password Scheme", USENIX 1999, § 5) and the OpenBSD bcrypt(3)
/// format, to verify hashes imported from other systems (`BCRYPT` in Identity Toolkit
/// `accounts:batchCreate`). New passwords are never hashed with it.
///
/// A hash string is `$2b$` + two-digit cost + `$` + 22 characters of salt + 31 characters of hash,
/// in ``BcryptBase64``. The key is the password's bytes up to its first NUL and at most 72 of them,
/// followed by a NUL; later bytes are ignored. `$2a$`, `$2b$` and `$2y$` are computed alike (they
/// differ only in historic implementation bugs with passwords of 255 bytes or more).
///
/// ```swift
/// let ok = Bcrypt.verify(Array("U*U".utf8), against: "$2a$05$CCCCCCCCCCCCCCCCCCCCC.E5YPO9kmyuRGyh0XouQYb4YMJKvyOeW")
/// ```
public enum Bcrypt {
    /// The costs the format allows (log₂ of the key expansion rounds).
    public static let costRange = 4...31
    /// The variants accepted.
    public static let variants = ["2a", "2b", "2y"]
    /// The key length limit in bytes.
    static let maximumKeyLength = 72
    /// The magic text that is encrypted 64 times ("OrpheanBeholderScryDoubt").
    static let magic = Array("OrpheanBeholderScryDoubt".utf8)

    /// A parsed hash string (or setting: the part before the hash).
    public struct Setting: Sendable, Equatable {
        /// `2a`, `2b` or `2y`.
        public let variant: String
        /// log₂ of the expansion rounds, in ``Bcrypt/costRange``.
        public let cost: Int
        /// The 16-byte salt.
        public let salt: [UInt8]
        /// The 23-byte hash, if the string had one.
        public let hash: [UInt8]?

        /// Parses `$2b$10$<22 salt characters>` optionally followed by 31 hash characters; `nil` for
        /// anything else (another variant, a cost out of range, a wrong length or alphabet).
        public init?(_ text: String) {
            let bytes = Array(text.utf8)
            guard bytes.count == 29 || bytes.count == 60, bytes[0] == UInt8(ascii: "$"), bytes[3] == UInt8(ascii: "$"),
                bytes[6] == UInt8(ascii: "$")
            else { return nil }
            let variant = String(decoding: bytes[1..<3], as: UTF8.self)
            guard Bcrypt.variants.contains(variant), let cost = Int(String(decoding: bytes[4..<6], as: UTF8.self)),
                bytes[4..<6].allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
                Bcrypt.costRange.contains(cost), let salt = BcryptBase64.decode(bytes[7..<29], count: 16)
            else { return nil }
            var hash: [UInt8]?
            if bytes.count == 60 {
                guard let decoded = BcryptBase64.decode(bytes[29..<60], count: 23) else { return nil }
                hash = decoded
            }
            self.variant = variant
            self.cost = cost
            self.salt = salt
            self.hash = hash
        }
    }

    /// The full hash string of `password` with `salt` (16 bytes) at `cost`, e.g.
    /// `$2b$10$<salt><hash>`.
    /// - Throws: ``CryptoError`` for a cost out of ``costRange``, an unknown variant or a salt that
    ///   is not 16 bytes.
    public static func hash(_ password: [UInt8], salt: [UInt8], cost: Int, variant: String = "2b") throws(CryptoError)
        -> String
    {
        guard costRange.contains(cost), variants.contains(variant), salt.count == 16 else {
            throw CryptoError("bcrypt parameters out of range")
        }
        let digest = compute(password, salt: salt, cost: cost)
        let costText = cost < 10 ? "0\(cost)" : "\(cost)"
        return "$\(variant)$\(costText)$" + BcryptBase64.encode(salt) + BcryptBase64.encode(digest)
    }

    /// Whether `password` matches the hash string `stored`, the 23 hash bytes compared in constant
    /// time (``ConstantTime``); `false` for a malformed string or one whose cost exceeds
    /// `maximumCost`, which is refused rather than run.
    public static func verify(_ password: [UInt8], against stored: String, maximumCost: Int = 31) -> Bool {
        guard let setting = Setting(stored), let expected = setting.hash, setting.cost <= maximumCost else { return false }
        return ConstantTime.equals(compute(password, salt: setting.salt, cost: setting.cost), expected)
    }

    /// EksBlowfishSetup(cost, salt, key), then "OrpheanBeholderScryDoubt" encrypted 64 times in
    /// ECB mode; the first 23 of its 24 bytes (USENIX 1999, § 5, Figure 5).
    static func compute(_ password: [UInt8], salt: [UInt8], cost: Int) -> [UInt8] {
        var key = Array(password.prefix { $0 != 0 }.prefix(maximumKeyLength))
        key.append(0)
        defer { key.withUnsafeMutableBytes { ConstantTime.cleanse($0.baseAddress!, count: $0.count) } }
        let state = Blowfish()
        state.expand(key: key, salt: salt)
        for _ in 0..<(UInt64(1) << UInt64(cost)) {
            state.expand(key: key, salt: nil)
            state.expand(key: salt, salt: nil)
        }
        var text = (0..<6).map { index in
            magic[(index * 4)..<(index * 4 + 4)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        }
        for _ in 0..<64 {
            for pair in stride(from: 0, to: 6, by: 2) {
                var left = text[pair]
                var right = text[pair + 1]
                state.encrypt(&left, &right)
                text[pair] = left
                text[pair + 1] = right
            }
        }
        let bytes = text.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> UInt32(24 - 8 * $0)) } }
        return Array(bytes.prefix(23))
    }
}
