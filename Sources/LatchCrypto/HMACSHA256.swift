/// HMAC with SHA-256 (RFC 2104, FIPS 198-1) through libcrypto, for values the server MACs and later
/// checks itself, such as device tokens. Verification compares in constant time (``ConstantTime``).
///
/// ```swift
/// let mac = try HMACSHA256.mac(message, key: key)
/// let valid = HMACSHA256.isValid(mac, for: message, key: key)
/// ```
public enum HMACSHA256 {
    /// The MAC length in bytes.
    public static let length = 32

    /// The 32-byte HMAC-SHA256 of `message` under `key`.
    /// - Throws: ``CryptoError`` for an empty key, or when libcrypto fails.
    public static func mac(_ message: [UInt8], key: [UInt8]) throws(CryptoError) -> [UInt8] {
        try HKDF.hmacSHA256(key: key, message: message)
    }

    /// Whether `mac` is the HMAC-SHA256 of `message` under `key`, compared without early exit
    /// (RFC 2104 § 5 truncation is not accepted: `mac` must be all 32 bytes).
    public static func isValid(_ mac: [UInt8], for message: [UInt8], key: [UInt8]) -> Bool {
        guard let expected = try? HKDF.hmacSHA256(key: key, message: message) else { return false }
        return ConstantTime.equals(expected, mac)
    }
}
