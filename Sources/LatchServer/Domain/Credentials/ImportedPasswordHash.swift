import LatchCrypto
import LatchWire

/// A password hash imported from another system (Identity Toolkit `accounts:batchCreate` with
/// `hashAlgorithm` `SCRYPT`, `BCRYPT`, `PBKDF2_SHA256` or `HMAC_SHA256`;
/// reference/firebase-auth-protocol.md § 6, `import_users`), kept until its first successful
/// sign-in rehashes the password to Argon2id (``PasswordVerifier``).
///
/// It is stored in ``User/passwordHash`` as tagged text (``encoded``), base64url without padding
/// in each field:
/// - `$firebase-scrypt$v=1$<memoryCost>$<rounds>$<signerKey>$<saltSeparator>$<salt>$<hash>`
/// - bcrypt's own `$2a$…`, `$2b$…` or `$2y$…` string
/// - `$pbkdf2-sha256$<rounds>$<salt>$<hash>`
/// - `$hmac-sha256$<sp|ps>$<key>$<salt>$<hash>` (`sp`: salt ‖ password is MACed, `ps`: password ‖ salt)
///
/// Signer and HMAC keys are secrets: the tagged text holds them per account, as Firebase's own
/// export does, so it is as sensitive as the hash itself. No error or description includes them.
public struct ImportedPasswordHash: Sendable, Equatable {
    /// How the hash was made, with the parameters that are not per-account bytes.
    enum Scheme: Sendable, Equatable {
        /// Firebase's modified scrypt (``FirebaseScrypt``).
        case firebaseScrypt(memoryCost: Int, rounds: Int, signerKey: [UInt8], saltSeparator: [UInt8])
        /// A bcrypt string, salt and cost included (``Bcrypt``).
        case bcrypt(String)
        /// PBKDF2-HMAC-SHA256 with `rounds` iterations, dkLen the hash's length (RFC 8018 § 5.2).
        case pbkdf2SHA256(rounds: Int)
        /// HMAC-SHA256 under `key` of the salt and password, salt first when `saltFirst` (RFC 2104).
        case hmacSHA256(key: [UInt8], saltFirst: Bool)
    }

    /// An import refused: the reason names the parameter, never its value or any hash byte.
    public struct Rejection: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong, e.g. `rounds must be 1 to 8 for SCRYPT`.
        public let reason: String

        /// A refusal for `reason` (secret-free), e.g. to compare with a thrown one.
        public init(_ reason: String) {
            self.reason = reason
        }

        public var description: String { reason }
    }

    let scheme: Scheme
    let salt: [UInt8]
    let hash: [UInt8]

    /// The largest bcrypt cost imported or verified: each step doubles the CPU time of a sign-in.
    public static let maximumBcryptCost = 16
    /// Firebase's `rounds` range for `PBKDF2_SHA256` (Firebase Admin SDK `Pbkdf2Sha256.MaxRounds`).
    public static let pbkdf2RoundsRange = 1...120_000
    /// The longest signer key, separator, salt or hash accepted, in bytes.
    static let maximumFieldLength = 1024

    init(scheme: Scheme, salt: [UInt8], hash: [UInt8]) {
        self.scheme = scheme
        self.salt = salt
        self.hash = hash
    }

    /// Checks an account's `passwordHash` and `salt` (decoded from base64) against the call's
    /// options, using `algorithm` rather than `parameters.algorithm`.
    /// - Throws: ``Rejection`` for an unknown algorithm, a missing signer key (`SCRYPT`,
    ///   `HMAC_SHA256`), `rounds` or `memoryCost` out of Firebase's bounds (`SCRYPT`: rounds 1–8,
    ///   memoryCost 1–14; `PBKDF2_SHA256`: rounds 1–120,000), a bcrypt string that does not parse
    ///   or costs more than ``maximumBcryptCost``, or a hash of the wrong length.
    public init(algorithm: String, parameters: ImportedHashParameters, hash: [UInt8], salt: [UInt8]) throws(Rejection) {
        var parameters = parameters
        parameters.algorithm = algorithm
        try self.init(parameters: parameters, hash: hash, salt: salt)
    }

    /// Checks an account's `passwordHash` and `salt` against the call's options
    /// (`parameters.algorithm` names the algorithm); see ``init(algorithm:parameters:hash:salt:)``.
    public init(parameters: ImportedHashParameters, hash: [UInt8], salt: [UInt8]) throws(Rejection) {
        let limit = Self.maximumFieldLength
        guard !hash.isEmpty else { throw Rejection("passwordHash is empty") }
        guard hash.count <= limit, salt.count <= limit, (parameters.signerKey?.count ?? 0) <= limit,
            (parameters.saltSeparator?.count ?? 0) <= limit
        else { throw Rejection("passwordHash, salt, signerKey or saltSeparator is too long") }
        switch parameters.algorithm {
        case "SCRYPT":
            guard let key = parameters.signerKey, !key.isEmpty else { throw Rejection("signerKey is required for SCRYPT") }
            guard let rounds = parameters.rounds, FirebaseScrypt.roundsRange.contains(rounds) else {
                throw Rejection("rounds must be 1 to 8 for SCRYPT")
            }
            guard let memoryCost = parameters.memoryCost, FirebaseScrypt.memoryCostRange.contains(memoryCost) else {
                throw Rejection("memoryCost must be 1 to 14 for SCRYPT")
            }
            guard hash.count == key.count else { throw Rejection("passwordHash must be as long as signerKey for SCRYPT") }
            scheme = .firebaseScrypt(
                memoryCost: memoryCost, rounds: rounds, signerKey: key, saltSeparator: parameters.saltSeparator ?? [])
            self.salt = salt
        case "BCRYPT":
            let text = String(decoding: hash, as: UTF8.self)
            guard let setting = Bcrypt.Setting(text), setting.hash != nil, Array(text.utf8) == hash else {
                throw Rejection("passwordHash is not a bcrypt hash")
            }
            guard setting.cost <= Self.maximumBcryptCost else {
                throw Rejection("bcrypt cost above \(Self.maximumBcryptCost) is not accepted")
            }
            scheme = .bcrypt(text)
            self.salt = []
        case "PBKDF2_SHA256":
            guard let rounds = parameters.rounds, Self.pbkdf2RoundsRange.contains(rounds) else {
                throw Rejection("rounds must be 1 to 120000 for PBKDF2_SHA256")
            }
            guard (16...64).contains(hash.count) else { throw Rejection("passwordHash must be 16 to 64 bytes for PBKDF2_SHA256") }
            scheme = .pbkdf2SHA256(rounds: rounds)
            self.salt = salt
        case "HMAC_SHA256":
            guard let key = parameters.signerKey, !key.isEmpty else {
                throw Rejection("signerKey is required for HMAC_SHA256")
            }
            guard hash.count == HMACSHA256.length else { throw Rejection("passwordHash must be 32 bytes for HMAC_SHA256") }
            scheme = .hmacSHA256(key: key, saltFirst: try Self.saltFirst(parameters.passwordHashOrder))
            self.salt = salt
        default:
            throw Rejection("hashAlgorithm is not supported")
        }
        self.hash = hash
    }

    /// Whether the HMAC input puts the salt first, from `passwordHashOrder`.
    ///
    /// The Identity Toolkit reference defines `SALT_AND_PASSWORD` (salt first) and
    /// `PASSWORD_AND_SALT` (password first) but does not say what `UNSPECIFIED_ORDER`, or no order,
    /// means for the HMAC algorithms, and firebase-admin sends none. Salt first is assumed then, as
    /// users report of Firebase's import of salted hashes without an order; an import that MACed
    /// password ‖ salt must say `PASSWORD_AND_SALT`.
    private static func saltFirst(_ order: String?) throws(Rejection) -> Bool {
        switch order {
        case nil, "UNSPECIFIED_ORDER", "SALT_AND_PASSWORD": true
        case "PASSWORD_AND_SALT": false
        default: throw Rejection("passwordHashOrder is not supported")
        }
    }

    /// Whether `password` (its UTF-8 bytes) matches, compared in constant time (``ConstantTime``).
    /// Runs the whole hash (scrypt at memoryCost 14 fills 16 MiB): call it where password hashes
    /// are computed (``PasswordHasher/verifyImported(_:against:for:)``).
    public func verify(_ password: String) -> Bool {
        var bytes = Array(password.utf8)
        defer { for index in bytes.indices { bytes[index] = 0 } }
        switch scheme {
        case .firebaseScrypt(let memoryCost, let rounds, let signerKey, let saltSeparator):
            return FirebaseScrypt.verify(
                bytes, hash: hash, salt: salt, saltSeparator: saltSeparator, signerKey: signerKey, rounds: rounds,
                memoryCost: memoryCost)
        case .bcrypt(let text):
            return Bcrypt.verify(bytes, against: text, maximumCost: Self.maximumBcryptCost)
        case .pbkdf2SHA256(let rounds):
            guard let derived = try? PBKDF2SHA256.derive(password: bytes, salt: salt, iterations: rounds, length: hash.count)
            else { return false }
            return ConstantTime.equals(derived, hash)
        case .hmacSHA256(let key, let saltFirst):
            return HMACSHA256.isValid(hash, for: saltFirst ? salt + bytes : bytes + salt, key: key)
        }
    }
}
