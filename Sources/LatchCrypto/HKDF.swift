internal import CCrypto

/// HMAC-based key derivation with SHA-256 (HKDF, RFC 5869): one input key, such as the data
/// directory's master key, yields a separate key per purpose, so no two purposes share a key and
/// a key derived for one purpose tells nothing about another.
///
/// ```swift
/// let key = try HKDF.sha256(inputKey: masterKey, info: Array("latch outbox body v1".utf8), outputLength: 32)
/// ```
public enum HKDF {
    /// The SHA-256 output length (RFC 5869 `HashLen`).
    static let hashLength = 32

    /// Derives `outputLength` bytes from `inputKey`: extract, then expand (RFC 5869 § 2.2, § 2.3).
    /// - Parameters:
    ///   - inputKey: the input keying material (`IKM`), e.g. a 32-byte master key.
    ///   - salt: an optional salt; empty means `HashLen` zero bytes (§ 2.2).
    ///   - info: what the key is for (§ 3.2); different `info` gives independent keys.
    ///   - outputLength: the length of the key (`L`), 1 to 255 × 32 bytes.
    /// - Throws: ``CryptoError`` when `outputLength` is out of range or libcrypto fails.
    public static func sha256(inputKey: [UInt8], salt: [UInt8] = [], info: [UInt8], outputLength: Int) throws(CryptoError)
        -> [UInt8]
    {
        guard (1...(255 * hashLength)).contains(outputLength) else {
            throw CryptoError("HKDF output length must be 1 to \(255 * hashLength) bytes")
        }
        var pseudorandomKey = try hmacSHA256(
            key: salt.isEmpty ? [UInt8](repeating: 0, count: hashLength) : salt, message: inputKey)
        var output: [UInt8] = []
        var block: [UInt8] = []
        defer {
            wipe(&pseudorandomKey)
            wipe(&block)
            wipe(&output)
        }
        var counter: UInt8 = 1
        while output.count < outputLength {
            block = try hmacSHA256(key: pseudorandomKey, message: block + info + [counter])
            output += block
            counter &+= 1
        }
        return Array(output.prefix(outputLength))
    }

    /// HMAC-SHA256 of `message` under `key` (RFC 2104).
    /// - Throws: ``CryptoError`` for an empty or oversized key, or when libcrypto fails.
    static func hmacSHA256(key: [UInt8], message: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard !key.isEmpty, key.count <= Int(Int32.max) else { throw CryptoError("HMAC key must be 1 to 2^31-1 bytes") }
        var mac = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let result = key.withUnsafeBytes { keyBytes in
            message.withUnsafeBytes { messageBytes in
                mac.withUnsafeMutableBufferPointer { out in
                    HMAC(
                        EVP_sha256(), keyBytes.baseAddress, Int32(key.count),
                        messageBytes.baseAddress?.assumingMemoryBound(to: UInt8.self), message.count, out.baseAddress,
                        &length)
                }
            }
        }
        defer { wipe(&mac) }
        guard result != nil, Int(length) == hashLength else { throw LibCrypto.failure("HMAC-SHA256 failed") }
        return Array(mac.prefix(hashLength))
    }

    /// Overwrites `bytes` with zeros (intermediate key material).
    private static func wipe(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { buffer in
            if let base = buffer.baseAddress { ConstantTime.cleanse(base, count: buffer.count) }
        }
    }
}
