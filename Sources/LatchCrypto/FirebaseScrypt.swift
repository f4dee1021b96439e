/// Firebase Authentication's modified scrypt, the hash Firebase exports accounts with
/// (`hashAlgorithm` `SCRYPT` in Identity Toolkit `accounts:batchCreate`; described in the
/// `firebase/scrypt` README and the Firebase CLI `auth:import` documentation).
///
/// The stored hash is the project's signer key encrypted with AES-256-CTR (zero initial counter
/// block) under the first 32 bytes of scrypt(password, salt ‖ salt separator, N = 2^memoryCost,
/// r = rounds, p = 1, dkLen = 64) (RFC 7914 § 6). Its length is the signer key's.
///
/// ```swift
/// let ok = FirebaseScrypt.verify(password, hash: stored, salt: salt, saltSeparator: separator,
///                                signerKey: key, rounds: 8, memoryCost: 14)
/// ```
public enum FirebaseScrypt {
    /// The `rounds` Firebase accepts (r in RFC 7914 terms).
    public static let roundsRange = 1...8
    /// The `memoryCost` Firebase accepts (log₂ N in RFC 7914 terms).
    public static let memoryCostRange = 1...14
    /// The derived key length; only its first ``AES256CTR/keyLength`` bytes are used.
    static let derivedLength = 64

    /// The hash of `password` under the project parameters.
    /// - Throws: ``CryptoError`` for `rounds` or `memoryCost` out of Firebase's range, an empty
    ///   signer key, or when libcrypto fails.
    public static func hash(
        _ password: [UInt8], salt: [UInt8], saltSeparator: [UInt8], signerKey: [UInt8], rounds: Int, memoryCost: Int
    ) throws(CryptoError) -> [UInt8] {
        guard roundsRange.contains(rounds), memoryCostRange.contains(memoryCost) else {
            throw CryptoError("Firebase scrypt parameters out of range")
        }
        guard !signerKey.isEmpty else { throw CryptoError("Firebase scrypt needs a signer key") }
        var derived = try Scrypt.derive(
            password: password, salt: salt + saltSeparator, costExponent: memoryCost, blockSize: rounds,
            parallelization: 1, length: derivedLength)
        defer { derived.withUnsafeMutableBytes { ConstantTime.cleanse($0.baseAddress!, count: $0.count) } }
        return try AES256CTR.apply(
            signerKey, key: Array(derived.prefix(AES256CTR.keyLength)),
            counter: [UInt8](repeating: 0, count: AES256CTR.counterLength))
    }

    /// Whether `password` hashes to `hash` under the parameters, compared in constant time
    /// (``ConstantTime``); `false` for parameters out of range.
    public static func verify(
        _ password: [UInt8], hash: [UInt8], salt: [UInt8], saltSeparator: [UInt8], signerKey: [UInt8], rounds: Int,
        memoryCost: Int
    ) -> Bool {
        guard
            let computed = try? self.hash(
                password, salt: salt, saltSeparator: saltSeparator, signerKey: signerKey, rounds: rounds,
                memoryCost: memoryCost)
        else { return false }
        return ConstantTime.equals(computed, hash)
    }
}
