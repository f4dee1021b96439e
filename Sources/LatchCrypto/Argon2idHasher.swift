internal import CArgon2

/// Password hashing with Argon2id (RFC 9106) through libargon2, stored as PHC strings
/// (`$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>`, PHC string format).
public struct Argon2idHasher: Sendable {
    /// Argon2id cost parameters (RFC 9106 § 3.1). The defaults are the OWASP Password Storage
    /// Cheat Sheet minimum: m = 19 MiB, t = 2, p = 1.
    public struct Parameters: Sendable, Equatable {
        /// Memory size m in KiB (RFC 9106 § 3.1); at least 8 × ``parallelism``.
        public var memoryKiB: Int = 19456
        /// Number of passes t (RFC 9106 § 3.1); at least 1.
        public var iterations: Int = 2
        /// Degree of parallelism p, the number of lanes (RFC 9106 § 3.1); at least 1.
        public var parallelism: Int = 1

        /// Creates parameters; the defaults are the OWASP minimum (RFC 9106 § 4 discusses tuning).
        public init(memoryKiB: Int = 19456, iterations: Int = 2, parallelism: Int = 1) {
            self.memoryKiB = memoryKiB
            self.iterations = iterations
            self.parallelism = parallelism
        }
    }

    /// The parameters new hashes are made with and ``needsRehash(_:)`` compares against.
    public let parameters: Parameters
    /// Where computations wait for a core, queued by source.
    public let gate: Argon2Gate

    /// Salt length S in bytes (RFC 9106 § 3.1 recommends 16).
    static let saltLength = 16
    /// Tag length T in bytes (RFC 9106 § 3.1 recommends 32 for password hashing).
    static let hashLength = 32
    /// Stored hashes with costs above these are refused by ``verify(_:against:source:)`` rather than run,
    /// so a corrupt row cannot pin a CPU or exhaust memory.
    static let maximumMemoryKiB = 4 * 1024 * 1024
    static let maximumIterations = 64
    static let maximumParallelism = 64

    /// Creates a hasher that hashes with `parameters` (RFC 9106 § 3.1) and runs its computations
    /// through `gate`, by default the process's ``Argon2Gate/shared`` one.
    public init(parameters: Parameters = .init(), gate: Argon2Gate = .shared) {
        self.parameters = parameters
        self.gate = gate
    }

    /// Hashes `password` (its UTF-8 bytes) with a fresh 16-byte random salt into a 32-byte tag
    /// and returns the PHC string libargon2 encodes (standard base64 without padding), e.g.
    /// `$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>` (RFC 9106 § 3, PHC string format).
    /// - Parameter source: who asks (e.g. the client's address), for the ``gate``'s turns.
    /// - Throws: ``CryptoError`` if the parameters are out of range or libargon2 fails,
    ///   ``Argon2Gate/Refusal`` if the gate refuses to queue the computation.
    public func hash(_ password: String, source: String = "") throws -> String {
        guard let m = UInt32(exactly: parameters.memoryKiB), let t = UInt32(exactly: parameters.iterations),
            let p = UInt32(exactly: parameters.parallelism), t >= 1, p >= 1, m >= 8 * p
        else { throw CryptoError("invalid Argon2id parameters") }
        let salt = SecureRandom.bytes(count: Self.saltLength)
        var passwordBytes = Array(password.utf8)
        defer { passwordBytes.withUnsafeMutableBytes { zero($0) } }
        let length = argon2_encodedlen(t, m, p, UInt32(Self.saltLength), UInt32(Self.hashLength), Argon2_id)
        var encoded = [CChar](repeating: 0, count: length)
        let status = try gate.run(source: source) {
            passwordBytes.withUnsafeBytes { pwd in
                salt.withUnsafeBytes { saltBuffer in
                    argon2id_hash_encoded(
                        t, m, p, pwd.baseAddress, pwd.count, saltBuffer.baseAddress, saltBuffer.count,
                        Self.hashLength, &encoded, length)
                }
            }
        }
        guard status == ARGON2_OK.rawValue else {
            throw CryptoError("argon2id_hash_encoded failed: \(String(cString: argon2_error_message(status)))")
        }
        return encoded.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// Whether `password` matches the stored PHC string, compared in constant time by
    /// libargon2's `argon2id_verify` (RFC 9106 § 3). Returns `false`, never traps, for malformed
    /// strings, other Argon2 variants, or absurd stored costs.
    /// - Parameter source: who asks (e.g. the client's address), for the ``gate``'s turns.
    /// - Throws: ``Argon2Gate/Refusal`` if the gate refuses to queue the computation.
    public func verify(_ password: String, against phc: String, source: String = "") throws(Argon2Gate.Refusal) -> Bool {
        guard let stored = PHCString(phc), stored.variant == "argon2id",
            stored.memoryKiB <= Self.maximumMemoryKiB, stored.iterations <= Self.maximumIterations,
            stored.parallelism <= Self.maximumParallelism, !phc.utf8.contains(0)
        else { return false }
        var passwordBytes = Array(password.utf8)
        defer { passwordBytes.withUnsafeMutableBytes { zero($0) } }
        let status = try gate.run(source: source) {
            phc.withCString { encoded in
                passwordBytes.withUnsafeBytes { pwd in
                    argon2id_verify(encoded, pwd.baseAddress, pwd.count)
                }
            }
        }
        return status == ARGON2_OK.rawValue
    }

    /// Whether a stored hash should be replaced after the next successful login: it is not an
    /// Argon2id version 19 PHC string, or its m, t or p is lower than ``parameters``
    /// (RFC 9106 § 4, PHC string format).
    public func needsRehash(_ phc: String) -> Bool {
        guard let stored = PHCString(phc), stored.variant == "argon2id", stored.version == 0x13 else { return true }
        return stored.memoryKiB < parameters.memoryKiB || stored.iterations < parameters.iterations
            || stored.parallelism < parameters.parallelism
    }

    /// Argon2id computations (hashes and verifications) run in this process so far and the CPU
    /// seconds they used, measured per thread around each computation.
    public static var statistics: (count: UInt64, cpuSeconds: Double) { Argon2Gate.statistics }

    /// Overwrites a password copy before it is released.
    private func zero(_ buffer: UnsafeMutableRawBufferPointer) {
        guard let base = buffer.baseAddress else { return }
        ConstantTime.cleanse(base, count: buffer.count)
    }
}
