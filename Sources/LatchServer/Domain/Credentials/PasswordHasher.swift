import LatchCrypto

/// Hashes and verifies passwords. The domain holds one of these, never a concrete algorithm, so
/// parameters (and, later, the algorithm) change in one place. Production uses Argon2id
/// (RFC 9106, OWASP's minimum m=19 MiB, t=2, p=1).
///
/// Each call names its ``HashingSource`` so that the hasher can share its cores fairly: sources
/// take turns, and a source holding more than its share of the places waiting for a core while
/// others wait has its newest calls refused with ``AuthFailure/tooManyAttempts(retryAfter:)``.
public protocol PasswordHasher: Sendable {
    /// A self-describing hash string (PHC format) of `password`, computed for `source`.
    /// - Throws: ``AuthFailure/tooManyAttempts(retryAfter:)`` when the hasher refuses `source`'s
    ///   call in favour of other sources'.
    func hash(_ password: String, for source: HashingSource) throws -> String
    /// Whether `password` matches `hash`, in time independent of where they differ, checked for
    /// `source`.
    /// - Throws: ``AuthFailure/tooManyAttempts(retryAfter:)`` when the hasher refuses `source`'s
    ///   call in favour of other sources'.
    func verify(_ password: String, against hash: String, for source: HashingSource) throws -> Bool
    /// Whether `password` matches an imported hash (``ImportedPasswordHash``), computed where and
    /// when this hasher computes its own, in `source`'s turn: imported hashes (scrypt at memory
    /// cost 14, bcrypt) cost as much as Argon2id and share its cores.
    /// - Throws: ``AuthFailure/tooManyAttempts(retryAfter:)`` when the hasher refuses `source`'s
    ///   call in favour of other sources'.
    func verifyImported(_ password: String, against imported: ImportedPasswordHash, for source: HashingSource) throws
        -> Bool
    /// Whether `hash` was made with other parameters than new hashes get (rehash on next sign-in).
    func needsRehash(_ hash: String) -> Bool
    /// A key naming the parameters, so a decoy hash of equal cost can be cached per configuration.
    var configurationKey: String { get }
}

extension PasswordHasher {
    /// Verifies through the process's shared ``Argon2Gate`` in `source`'s turn, for hashers that
    /// have no gate of their own.
    /// - Throws: ``AuthFailure/tooManyAttempts(retryAfter:)`` (retry after one second) when the
    ///   gate refuses the call.
    public func verifyImported(_ password: String, against imported: ImportedPasswordHash, for source: HashingSource)
        throws -> Bool
    {
        try Argon2Gate.shared.verify(password, against: imported, for: source)
    }
}

extension Argon2Gate {
    /// Runs `imported`'s verification through this gate in `source`'s turn.
    /// - Throws: ``AuthFailure/tooManyAttempts(retryAfter:)`` (retry after one second) when the
    ///   gate refuses the call.
    func verify(_ password: String, against imported: ImportedPasswordHash, for source: HashingSource) throws -> Bool {
        do {
            return try run(source: source.key) { imported.verify(password) }
        } catch {
            throw AuthFailure.tooManyAttempts(retryAfter: 1)
        }
    }
}

extension Argon2idHasher: PasswordHasher {
    /// Hashes through the ``Argon2idHasher/gate`` in `source`'s turn.
    /// - Throws: ``AuthFailure/tooManyAttempts(retryAfter:)`` (retry after one second) when the
    ///   gate refuses the call, else the hasher's ``CryptoError``.
    public func hash(_ password: String, for source: HashingSource) throws -> String {
        do {
            return try hash(password, source: source.key)
        } catch is Argon2Gate.Refusal {
            throw AuthFailure.tooManyAttempts(retryAfter: 1)
        }
    }

    /// Verifies through the ``Argon2idHasher/gate`` in `source`'s turn.
    /// - Throws: ``AuthFailure/tooManyAttempts(retryAfter:)`` (retry after one second) when the
    ///   gate refuses the call.
    public func verify(_ password: String, against hash: String, for source: HashingSource) throws -> Bool {
        do {
            return try verify(password, against: hash, source: source.key)
        } catch {
            throw AuthFailure.tooManyAttempts(retryAfter: 1)
        }
    }

    /// Verifies an imported hash through the ``Argon2idHasher/gate`` in `source`'s turn, so it
    /// waits for a core like an Argon2id verification.
    /// - Throws: ``AuthFailure/tooManyAttempts(retryAfter:)`` (retry after one second) when the
    ///   gate refuses the call.
    public func verifyImported(_ password: String, against imported: ImportedPasswordHash, for source: HashingSource)
        throws -> Bool
    {
        try gate.verify(password, against: imported, for: source)
    }

    public var configurationKey: String {
        "argon2id m=\(parameters.memoryKiB) t=\(parameters.iterations) p=\(parameters.parallelism)"
    }
}
