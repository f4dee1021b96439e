internal import CCrypto

/// Owns one libcrypto `EVP_PKEY` and frees it exactly once.
///
/// Keeping the pointer in a class means every early `throw` while a key is being built or checked
/// releases it automatically.
final class PKey: @unchecked Sendable {
    // @unchecked: the EVP_PKEY is never mutated after construction, and OpenSSL 3 allows a
    // const provider-side key to be used for signing/verifying from many threads at once.
    let pointer: OpaquePointer

    /// Takes ownership of `pointer` (one reference).
    init(adopting pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        EVP_PKEY_free(pointer)
    }

    /// Whether the key is of the libcrypto key type `name` ("EC", "RSA").
    func isA(_ name: StaticString) -> Bool {
        EVP_PKEY_is_a(pointer, name.cString) == 1
    }

    /// The curve's short name for EC keys (`prime256v1` for P-256), `nil` otherwise.
    var groupName: String? {
        var buffer = [CChar](repeating: 0, count: 80)
        var length = 0
        guard EVP_PKEY_get_group_name(pointer, &buffer, buffer.count, &length) == 1 else {
            LibCrypto.clearErrors()
            return nil
        }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// The key size in bits (modulus size for RSA, field size for EC).
    var bits: Int { Int(EVP_PKEY_get_bits(pointer)) }

    /// The largest signature this key can produce, in bytes.
    var maximumSignatureSize: Int { Int(EVP_PKEY_get_size(pointer)) }

    /// Checks that the key is acceptable for `algorithm`: P-256 for ES256, plain RSA (not
    /// RSA-PSS) of at least 2048 bits for RS256 (RFC 7518 §§ 3.3, 3.4).
    func check(matches algorithm: SigningAlgorithm) throws(CryptoError) {
        switch algorithm {
        case .es256:
            guard isA("EC") else { throw CryptoError("key is not an EC key, but ES256 was requested") }
            guard let group = groupName, ["prime256v1", "P-256", "secp256r1"].contains(group) else {
                throw CryptoError("EC key is not on curve P-256, as ES256 requires")
            }
        case .rs256:
            guard isA("RSA") else { throw CryptoError("key is not an RSA key, but RS256 was requested") }
            guard bits >= 2048 else { throw CryptoError("RSA key is smaller than 2048 bits (RFC 7518 § 3.3)") }
            guard bits <= 16384 else { throw CryptoError("RSA key is larger than 16384 bits") }
        }
    }
}
