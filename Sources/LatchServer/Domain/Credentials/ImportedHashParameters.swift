/// The call-level hash options an account import names (Identity Toolkit `accounts:batchCreate`:
/// `hashAlgorithm`, `signerKey`, `saltSeparator`, `rounds`, `memoryCost`, `passwordHashOrder`;
/// reference/firebase-auth-protocol.md § 6, `import_users`). Byte fields are already decoded from
/// base64. ``ImportedPasswordHash`` checks them per algorithm.
public struct ImportedHashParameters: Sendable, Equatable {
    /// The `hashAlgorithm` name as sent: `SCRYPT`, `BCRYPT`, `PBKDF2_SHA256` or `HMAC_SHA256`
    /// (other Identity Toolkit names are refused).
    public var algorithm: String
    /// `signerKey`: the project's signer key (`SCRYPT`) or the HMAC key (`HMAC_SHA256`). A secret.
    public var signerKey: [UInt8]?
    /// `saltSeparator`: bytes appended to each account's salt (`SCRYPT`).
    public var saltSeparator: [UInt8]?
    /// `rounds`: r for `SCRYPT`, the iteration count for `PBKDF2_SHA256`.
    public var rounds: Int?
    /// `memoryCost`: log₂ N for `SCRYPT`.
    public var memoryCost: Int?
    /// `passwordHashOrder` (`SALT_AND_PASSWORD`, `PASSWORD_AND_SALT`, `UNSPECIFIED_ORDER`), for
    /// `HMAC_SHA256`; `nil` is `UNSPECIFIED_ORDER`.
    public var passwordHashOrder: String?

    /// Creates the options of one import call.
    public init(
        algorithm: String, signerKey: [UInt8]? = nil, saltSeparator: [UInt8]? = nil, rounds: Int? = nil,
        memoryCost: Int? = nil, passwordHashOrder: String? = nil
    ) {
        self.algorithm = algorithm
        self.signerKey = signerKey
        self.saltSeparator = saltSeparator
        self.rounds = rounds
        self.memoryCost = memoryCost
        self.passwordHashOrder = passwordHashOrder
    }
}
