internal import CCrypto

/// PBKDF2 with HMAC-SHA256 as its pseudorandom function (RFC 8018 § 5.2) through libcrypto's
/// `PKCS5_PBKDF2_HMAC`, for verifying imported `PBKDF2_SHA256` password hashes.
///
/// ```swift
/// let key = try PBKDF2SHA256.derive(password: Array("passwd".utf8), salt: Array("salt".utf8), iterations: 1, length: 64)
/// ```
public enum PBKDF2SHA256 {
    /// The largest iteration count accepted, so a corrupt input cannot pin a core.
    public static let maximumIterations = 10_000_000

    /// Derives `length` bytes: PBKDF2(PRF = HMAC-SHA256, P = `password`, S = `salt`,
    /// c = `iterations`, dkLen = `length`) (RFC 8018 § 5.2).
    /// - Parameters:
    ///   - iterations: the iteration count c, 1 to ``maximumIterations``.
    ///   - length: the derived key length dkLen, 1 to 1024 bytes.
    /// - Throws: ``CryptoError`` for parameters out of range, or when libcrypto fails.
    public static func derive(password: [UInt8], salt: [UInt8], iterations: Int, length: Int) throws(CryptoError)
        -> [UInt8]
    {
        guard (1...maximumIterations).contains(iterations), (1...1024).contains(length),
            password.count <= Int(Int32.max), salt.count <= Int(Int32.max)
        else { throw CryptoError("PBKDF2 parameters out of range") }
        var key = [UInt8](repeating: 0, count: length)
        let status = password.withUnsafeBytes { passwordBytes in
            salt.withUnsafeBytes { saltBytes in
                key.withUnsafeMutableBufferPointer { out in
                    PKCS5_PBKDF2_HMAC(
                        passwordBytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(password.count),
                        saltBytes.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(salt.count),
                        Int32(iterations), EVP_sha256(), Int32(length), out.baseAddress)
                }
            }
        }
        guard status == 1 else { throw LibCrypto.failure("PBKDF2-HMAC-SHA256 failed") }
        return key
    }
}
