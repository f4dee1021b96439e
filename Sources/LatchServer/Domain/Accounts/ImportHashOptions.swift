/// How the password hashes of an account import were made (`accounts:batchCreate`,
/// `reference/firebase-auth-protocol.md` § 6): the algorithm and its parameters as firebase-admin's
/// `UserImportHash` sends them (`hashAlgorithm`, `signerKey`, `saltSeparator`, `rounds`,
/// `memoryCost`; `cpuMemCost`, `parallelization`, `blockSize`, `dkLen` for standard scrypt).
/// Bytes arrive base64-encoded and are decoded by the adapter.
public struct ImportHashOptions: Sendable, Equatable {
    /// The algorithm name, upper-case (`SCRYPT`, `BCRYPT`, `HMAC_SHA256`, …).
    public var algorithm: String?
    /// The key of an HMAC or of Firebase's scrypt.
    public var signerKey: [UInt8]?
    /// The bytes Firebase's scrypt appends to each salt.
    public var saltSeparator: [UInt8]?
    /// Rounds (Firebase scrypt 1…8, MD5 0…8192, SHA-* 1…8192, PBKDF* 0…120000).
    public var rounds: Int?
    /// Firebase scrypt's memory cost (1…14), or standard scrypt's CPU/memory cost.
    public var memoryCost: Int?
    /// Standard scrypt's parallelization.
    public var parallelization: Int?
    /// Standard scrypt's block size.
    public var blockSize: Int?
    /// Standard scrypt's derived key length.
    public var derivedKeyLength: Int?

    /// The algorithms firebase-admin can name.
    public static let algorithms: Set<String> = [
        "SCRYPT", "STANDARD_SCRYPT", "BCRYPT", "HMAC_SHA512", "HMAC_SHA256", "HMAC_SHA1", "HMAC_MD5", "MD5", "SHA1",
        "SHA256", "SHA512", "PBKDF_SHA1", "PBKDF2_SHA256",
    ]

    /// Options checked against what the algorithm needs, with the ranges firebase-admin enforces.
    /// - Throws: ``AuthFailure/accountAdministration(_:)`` with
    ///   ``AccountAdminFailure/invalidHashOptions(_:)`` naming the option at fault.
    public init(
        algorithm: String?, signerKey: [UInt8]? = nil, saltSeparator: [UInt8]? = nil, rounds: Int? = nil,
        memoryCost: Int? = nil, parallelization: Int? = nil, blockSize: Int? = nil, derivedKeyLength: Int? = nil
    ) throws {
        self.algorithm = algorithm
        self.signerKey = signerKey
        self.saltSeparator = saltSeparator
        self.rounds = rounds
        self.memoryCost = memoryCost
        self.parallelization = parallelization
        self.blockSize = blockSize
        self.derivedKeyLength = derivedKeyLength
        try validate()
    }

    private func validate() throws {
        func refuse(_ why: String) -> AuthFailure { .accountAdministration(.invalidHashOptions(why)) }
        guard let algorithm else { throw refuse("hashAlgorithm is required to import password hashes") }
        guard Self.algorithms.contains(algorithm) else { throw refuse("hashAlgorithm is not a known algorithm") }
        func require(_ value: Int?, _ name: String, _ range: ClosedRange<Int>) throws {
            guard let value else { throw refuse("\(name) is required for \(algorithm)") }
            guard range.contains(value) else {
                throw refuse("\(name) must be between \(range.lowerBound) and \(range.upperBound)")
            }
        }
        switch algorithm {
        case "SCRYPT":
            guard let signerKey, !signerKey.isEmpty else { throw refuse("signerKey is required for SCRYPT") }
            try require(rounds, "rounds", 1...8)
            try require(memoryCost, "memoryCost", 1...14)
        case "STANDARD_SCRYPT":
            try require(memoryCost, "cpuMemCost", 1...Int(Int32.max))
            try require(parallelization, "parallelization", 1...Int(Int32.max))
            try require(blockSize, "blockSize", 1...Int(Int32.max))
            try require(derivedKeyLength, "dkLen", 1...Int(Int32.max))
        case "HMAC_SHA512", "HMAC_SHA256", "HMAC_SHA1", "HMAC_MD5":
            guard let signerKey, !signerKey.isEmpty else { throw refuse("signerKey is required for \(algorithm)") }
        case "MD5": try require(rounds, "rounds", 0...8192)
        case "SHA1", "SHA256", "SHA512": try require(rounds, "rounds", 1...8192)
        case "PBKDF_SHA1", "PBKDF2_SHA256": try require(rounds, "rounds", 0...120_000)
        default: break  // BCRYPT carries its parameters in each hash.
        }
    }
}
