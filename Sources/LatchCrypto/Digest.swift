internal import CCrypto

/// SHA-256 (FIPS 180-4), the hash behind ES256/RS256 (RFC 7518 § 3) and used for token
/// fingerprints such as `at_hash` and PKCE `S256` (RFC 7636 § 4.2).
public enum Digest {
    /// The 32-byte SHA-256 digest of `bytes`.
    public static func sha256(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        if let digest = bytes.withContiguousStorageIfAvailable({ sha256(buffer: $0) }) {
            return digest
        }
        return Array(bytes).withUnsafeBufferPointer { sha256(buffer: $0) }
    }

    /// The SHA-256 digest of `text`'s UTF-8 bytes as 64 lowercase hex characters.
    public static func sha256Hex(_ text: String) -> String {
        Hex.encode(sha256(text.utf8))
    }

    private static func sha256(buffer: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: Int(SHA256_DIGEST_LENGTH)) { output, initialized in
            _ = SHA256(buffer.baseAddress, buffer.count, output.baseAddress)
            initialized = Int(SHA256_DIGEST_LENGTH)
        }
    }
}
