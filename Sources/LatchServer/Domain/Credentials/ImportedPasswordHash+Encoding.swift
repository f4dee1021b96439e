import LatchCrypto
import LatchWire

extension ImportedPasswordHash {
    /// The tagged text stored in ``User/passwordHash`` (the forms are listed on
    /// ``ImportedPasswordHash``); ``decode(_:)`` reads it back.
    public var encoded: String {
        switch scheme {
        case .firebaseScrypt(let memoryCost, let rounds, let signerKey, let saltSeparator):
            return "$firebase-scrypt$v=1$\(memoryCost)$\(rounds)$" + Self.fields(signerKey, saltSeparator, salt, hash)
        case .bcrypt(let text):
            return text
        case .pbkdf2SHA256(let rounds):
            return "$pbkdf2-sha256$\(rounds)$" + Self.fields(salt, hash)
        case .hmacSHA256(let key, let saltFirst):
            return "$hmac-sha256$\(saltFirst ? "sp" : "ps")$" + Self.fields(key, salt, hash)
        }
    }

    /// The imported hash a stored ``encoded`` text stands for; `nil` for anything else (an Argon2id
    /// PHC string, a corrupt or truncated text, parameters out of the import bounds), so a damaged
    /// row fails like a wrong password instead of running unbounded work.
    public static func decode(_ text: String) -> ImportedPasswordHash? {
        if text.hasPrefix("$2") {
            return try? ImportedPasswordHash(parameters: .init(algorithm: "BCRYPT"), hash: Array(text.utf8), salt: [])
        }
        let parts = text.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].isEmpty else { return nil }
        switch (parts[1], parts.count) {
        case ("firebase-scrypt", 9):
            guard parts[2] == "v=1", let memoryCost = number(parts[3]), let rounds = number(parts[4]),
                let key = bytes(parts[5]), let separator = bytes(parts[6]), let salt = bytes(parts[7]),
                let hash = bytes(parts[8])
            else { return nil }
            return try? ImportedPasswordHash(
                parameters: .init(
                    algorithm: "SCRYPT", signerKey: key, saltSeparator: separator, rounds: rounds, memoryCost: memoryCost),
                hash: hash, salt: salt)
        case ("pbkdf2-sha256", 5):
            guard let rounds = number(parts[2]), let salt = bytes(parts[3]), let hash = bytes(parts[4]) else { return nil }
            return try? ImportedPasswordHash(
                parameters: .init(algorithm: "PBKDF2_SHA256", rounds: rounds), hash: hash, salt: salt)
        case ("hmac-sha256", 6):
            let order: String
            switch parts[2] {
            case "sp": order = "SALT_AND_PASSWORD"
            case "ps": order = "PASSWORD_AND_SALT"
            default: return nil
            }
            guard let key = bytes(parts[3]), let salt = bytes(parts[4]), let hash = bytes(parts[5]) else { return nil }
            return try? ImportedPasswordHash(
                parameters: .init(algorithm: "HMAC_SHA256", signerKey: key, passwordHashOrder: order), hash: hash,
                salt: salt)
        default:
            return nil
        }
    }

    /// Base64url fields joined with `$`.
    private static func fields(_ values: [UInt8]...) -> String {
        values.map { Base64URL.encode($0) }.joined(separator: "$")
    }

    /// A base64url field (canonical, no padding); `nil` if malformed.
    private static func bytes(_ field: Substring) -> [UInt8]? {
        guard !field.contains("=") else { return nil }
        return Base64URL.decode(field)
    }

    /// A decimal field of at most six digits without sign or leading zeros.
    private static func number(_ field: Substring) -> Int? {
        guard (1...6).contains(field.count), field.allSatisfy({ $0.isASCII && $0.isNumber }),
            field == "0" || !field.hasPrefix("0")
        else { return nil }
        return Int(field)
    }
}
