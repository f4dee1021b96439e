internal import CCrypto

/// Authenticated encryption with AES-256-GCM (NIST SP 800-38D; the same construction as JWA
/// `A256GCM`, RFC 7518 § 5.3), used to keep private signing keys encrypted at rest.
///
/// Sealed layout: 12-byte random nonce ‖ ciphertext ‖ 16-byte tag. With random 96-bit nonces a
/// single key should seal at most 2^32 messages (SP 800-38D § 8.3).
public enum SecretBox {
    /// Key length in bytes (AES-256).
    public static let keyLength = 32
    /// Nonce (IV) length in bytes (RFC 7518 § 5.3: 96 bits).
    public static let nonceLength = 12
    /// Authentication tag length in bytes (RFC 7518 § 5.3: 128 bits).
    public static let tagLength = 16

    /// Encrypts and authenticates `plaintext` under a 32-byte `key` with a fresh random nonce.
    /// - Parameters:
    ///   - plaintext: the secret bytes.
    ///   - key: 32 bytes, e.g. from ``SecureRandom/bytes(count:)``.
    ///   - associatedData: bytes that are authenticated but not encrypted (e.g. a key ID), which
    ///     must be supplied again to ``open(_:key:associatedData:)``.
    /// - Returns: nonce ‖ ciphertext ‖ tag.
    public static func seal(_ plaintext: [UInt8], key: [UInt8], associatedData: [UInt8] = []) throws(CryptoError)
        -> [UInt8]
    {
        guard key.count == keyLength else { throw CryptoError("SecretBox key must be 32 bytes") }
        guard plaintext.count <= Int(Int32.max) - 64, associatedData.count <= Int(Int32.max) else {
            throw CryptoError("SecretBox input too large")
        }
        guard let context = EVP_CIPHER_CTX_new() else { throw LibCrypto.failure("EVP_CIPHER_CTX_new failed") }
        defer { EVP_CIPHER_CTX_free(context) }
        let nonce = SecureRandom.bytes(count: nonceLength)
        var sealed = nonce + [UInt8](repeating: 0, count: plaintext.count + tagLength)
        let ok = sealed.withUnsafeMutableBufferPointer { out -> Bool in
            let body = out.baseAddress! + nonceLength
            var length: Int32 = 0
            guard EVP_EncryptInit_ex(context, EVP_aes_256_gcm(), nil, key, nonce) == 1 else { return false }
            if !associatedData.isEmpty {
                guard EVP_EncryptUpdate(context, nil, &length, associatedData, Int32(associatedData.count)) == 1 else {
                    return false
                }
            }
            var written = 0
            if !plaintext.isEmpty {
                guard EVP_EncryptUpdate(context, body, &length, plaintext, Int32(plaintext.count)) == 1 else {
                    return false
                }
                written = Int(length)
            }
            guard EVP_EncryptFinal_ex(context, body + written, &length) == 1 else { return false }
            written += Int(length)
            guard written == plaintext.count else { return false }
            return EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, Int32(tagLength), body + written) == 1
        }
        guard ok else { throw LibCrypto.failure("AES-256-GCM encryption failed") }
        return sealed
    }

    /// Verifies and decrypts the output of ``seal(_:key:associatedData:)``.
    /// - Throws: ``CryptoError`` if the key length is wrong, the input is too short, or the
    ///   nonce, ciphertext, tag, key or associated data do not match (tampering).
    public static func open(_ sealed: [UInt8], key: [UInt8], associatedData: [UInt8] = []) throws(CryptoError)
        -> [UInt8]
    {
        guard key.count == keyLength else { throw CryptoError("SecretBox key must be 32 bytes") }
        guard sealed.count >= nonceLength + tagLength else { throw CryptoError("sealed box is too short") }
        guard sealed.count <= Int(Int32.max), associatedData.count <= Int(Int32.max) else {
            throw CryptoError("SecretBox input too large")
        }
        guard let context = EVP_CIPHER_CTX_new() else { throw LibCrypto.failure("EVP_CIPHER_CTX_new failed") }
        defer { EVP_CIPHER_CTX_free(context) }
        let bodyLength = sealed.count - nonceLength - tagLength
        // One spare block so the output pointer is never nil, even for an empty plaintext.
        var plaintext = [UInt8](repeating: 0, count: bodyLength + 16)
        var tag = Array(sealed[(nonceLength + bodyLength)...])
        let ok = sealed.withUnsafeBufferPointer { input -> Bool in
            plaintext.withUnsafeMutableBufferPointer { out -> Bool in
                let nonce = input.baseAddress!
                let output = out.baseAddress!
                var length: Int32 = 0
                guard EVP_DecryptInit_ex(context, EVP_aes_256_gcm(), nil, key, nonce) == 1,
                    EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_TAG, Int32(tagLength), &tag) == 1
                else { return false }
                if !associatedData.isEmpty {
                    guard EVP_DecryptUpdate(context, nil, &length, associatedData, Int32(associatedData.count)) == 1
                    else { return false }
                }
                var written = 0
                if bodyLength > 0 {
                    guard EVP_DecryptUpdate(context, output, &length, nonce + nonceLength, Int32(bodyLength)) == 1
                    else { return false }
                    written = Int(length)
                }
                // Fails unless the tag authenticates nonce, associated data and ciphertext.
                guard EVP_DecryptFinal_ex(context, output + written, &length) == 1 else { return false }
                return written + Int(length) == bodyLength
            }
        }
        guard ok else {
            plaintext.withUnsafeMutableBytes {
                if let base = $0.baseAddress { ConstantTime.cleanse(base, count: $0.count) }
            }
            LibCrypto.clearErrors()
            throw CryptoError("SecretBox authentication failed: wrong key or tampered data")
        }
        plaintext.removeLast(16)
        return plaintext
    }
}
