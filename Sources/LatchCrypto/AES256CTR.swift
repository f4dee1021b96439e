internal import CCrypto

/// AES-256 in counter mode (FIPS 197, NIST SP 800-38A § 6.5) through libcrypto's
/// `EVP_aes_256_ctr`. Encryption and decryption are the same keystream XOR; used by
/// ``FirebaseScrypt``, whose stored hash is a signer key encrypted under a scrypt-derived key.
///
/// Counter mode offers no integrity and must never reuse a key with the same counter block for
/// two messages; it is here only to reproduce an existing hash construction.
public enum AES256CTR {
    /// The key length in bytes.
    public static let keyLength = 32
    /// The initial counter block length in bytes.
    public static let counterLength = 16

    /// `data` XORed with the AES-256-CTR keystream of `key` from the initial counter block
    /// `counter` (big-endian 128-bit increment, NIST SP 800-38A Appendix B.1).
    /// - Throws: ``CryptoError`` for a key that is not 32 bytes or a counter that is not 16, or
    ///   when libcrypto fails.
    public static func apply(_ data: [UInt8], key: [UInt8], counter: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard key.count == keyLength, counter.count == counterLength else {
            throw CryptoError("AES-256-CTR needs a 32-byte key and a 16-byte counter")
        }
        guard data.count <= Int(Int32.max) else { throw CryptoError("AES-256-CTR input too long") }
        guard let context = EVP_CIPHER_CTX_new() else { throw LibCrypto.failure("EVP_CIPHER_CTX_new failed") }
        defer { EVP_CIPHER_CTX_free(context) }
        var output = [UInt8](repeating: 0, count: data.count + counterLength)
        var written: Int32 = 0
        var finished: Int32 = 0
        let status = key.withUnsafeBufferPointer { keyBytes in
            counter.withUnsafeBufferPointer { counterBytes in
                data.withUnsafeBufferPointer { input in
                    output.withUnsafeMutableBufferPointer { out -> Int32 in
                        guard
                            EVP_EncryptInit_ex(context, EVP_aes_256_ctr(), nil, keyBytes.baseAddress, counterBytes.baseAddress)
                                == 1,
                            EVP_EncryptUpdate(context, out.baseAddress, &written, input.baseAddress, Int32(data.count)) == 1,
                            EVP_EncryptFinal_ex(context, out.baseAddress.map { $0 + Int(written) }, &finished) == 1
                        else { return 0 }
                        return 1
                    }
                }
            }
        }
        guard status == 1, Int(written + finished) == data.count else { throw LibCrypto.failure("AES-256-CTR failed") }
        return Array(output.prefix(data.count))
    }
}
