internal import CCrypto

/// The scrypt password-based key derivation function (RFC 7914) through libcrypto's
/// `EVP_PBE_scrypt`, for verifying imported password hashes (Firebase's modified scrypt,
/// ``FirebaseScrypt``).
///
/// ```swift
/// let key = try Scrypt.derive(password: Array("pleaseletmein".utf8), salt: Array("SodiumChloride".utf8),
///                             costExponent: 14, blockSize: 8, parallelization: 1, length: 64)
/// ```
public enum Scrypt {
    /// The largest cost exponent accepted (N = 2^20, with r = 8 about 1 GiB), so a corrupt input
    /// cannot ask for unbounded memory.
    public static let maximumCostExponent = 20

    /// Derives `length` bytes: scrypt(P = `password`, S = `salt`, N = 2^`costExponent`,
    /// r = `blockSize`, p = `parallelization`, dkLen = `length`) (RFC 7914 § 6).
    /// - Parameters:
    ///   - costExponent: log₂ of the CPU/memory cost N (RFC 7914 § 2), 1 to ``maximumCostExponent``.
    ///   - blockSize: the block size r, 1 to 32.
    ///   - parallelization: the parallelization p, 1 to 16.
    ///   - length: the derived key length dkLen, 1 to 1024 bytes.
    /// - Throws: ``CryptoError`` for parameters out of range, or when libcrypto fails.
    public static func derive(
        password: [UInt8], salt: [UInt8], costExponent: Int, blockSize: Int, parallelization: Int, length: Int
    ) throws(CryptoError) -> [UInt8] {
        guard (1...maximumCostExponent).contains(costExponent), (1...32).contains(blockSize),
            (1...16).contains(parallelization), (1...1024).contains(length)
        else { throw CryptoError("scrypt parameters out of range") }
        let n = UInt64(1) << UInt64(costExponent)
        let r = UInt64(blockSize)
        let p = UInt64(parallelization)
        // RFC 7914 § 6: V holds N blocks of 128·r bytes and B holds p of them; room for both and slack.
        let memory = 128 * r * (n + p + 2) + 1024 * 1024
        var key = [UInt8](repeating: 0, count: length)
        let status = password.withUnsafeBytes { passwordBytes in
            salt.withUnsafeBytes { saltBytes in
                key.withUnsafeMutableBufferPointer { out in
                    EVP_PBE_scrypt(
                        passwordBytes.baseAddress?.assumingMemoryBound(to: CChar.self), password.count,
                        saltBytes.baseAddress?.assumingMemoryBound(to: UInt8.self), salt.count, n, r, p, memory,
                        out.baseAddress, length)
                }
            }
        }
        guard status == 1 else {
            key.withUnsafeMutableBytes { ConstantTime.cleanse($0.baseAddress!, count: $0.count) }
            throw LibCrypto.failure("scrypt failed")
        }
        return key
    }
}
