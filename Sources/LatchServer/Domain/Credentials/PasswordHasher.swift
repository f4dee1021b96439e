import LatchCrypto

/// Hashes and verifies passwords. The domain holds one of these, never a concrete algorithm, so
/// parameters (and, later, the algorithm) change in one place. Production uses Argon2id
/// (RFC 9106, OWASP's minimum m=19 MiB, t=2, p=1).
public protocol PasswordHasher: Sendable {
    /// A self-describing hash string (PHC format) of `password`.
    func hash(_ password: String) throws -> String
    /// Whether `password` matches `hash`, in time independent of where they differ.
    func verify(_ password: String, against hash: String) -> Bool
    /// Whether `hash` was made with other parameters than new hashes get (rehash on next sign-in).
    func needsRehash(_ hash: String) -> Bool
    /// A key naming the parameters, so a decoy hash of equal cost can be cached per configuration.
    var configurationKey: String { get }
}

extension Argon2idHasher: PasswordHasher {
    public var configurationKey: String {
        "argon2id m=\(parameters.memoryKiB) t=\(parameters.iterations) p=\(parameters.parallelism)"
    }
}
