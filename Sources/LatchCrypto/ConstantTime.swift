internal import CCrypto

/// Timing-safe byte comparison for MACs, token hashes and other secrets, using libcrypto's
/// `CRYPTO_memcmp` (RFC 7515 § 10.9, timing attacks).
public enum ConstantTime {
    /// Whether `a` and `b` hold the same bytes. Lengths are compared first (a length mismatch
    /// returns `false` and reveals only the length); equal-length contents are compared with
    /// `CRYPTO_memcmp`, whose run time does not depend on where they differ.
    public static func equals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        guard !a.isEmpty else { return true }
        return a.withUnsafeBytes { left in
            b.withUnsafeBytes { right in
                CRYPTO_memcmp(left.baseAddress, right.baseAddress, left.count) == 0
            }
        }
    }

    /// Overwrites memory with zeros in a way the optimizer cannot remove (`OPENSSL_cleanse`).
    static func cleanse(_ pointer: UnsafeMutableRawPointer, count: Int) {
        OPENSSL_cleanse(pointer, count)
    }
}
