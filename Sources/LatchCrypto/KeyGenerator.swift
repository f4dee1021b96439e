internal import CCrypto

/// Generates fresh key pairs with the OpenSSL 3 `EVP_PKEY_CTX` keygen API.
enum KeyGenerator {
    /// A new P-256 key for ES256 or a new 2048-bit RSA key (e = 65537) for RS256.
    static func generate(_ algorithm: SigningAlgorithm) throws(CryptoError) -> PKey {
        let type: StaticString = algorithm == .es256 ? "EC" : "RSA"
        guard let context = EVP_PKEY_CTX_new_from_name(nil, type.cString, nil) else {
            throw LibCrypto.failure("EVP_PKEY_CTX_new_from_name failed")
        }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_keygen_init(context) == 1 else { throw LibCrypto.failure("EVP_PKEY_keygen_init failed") }
        switch algorithm {
        case .es256:
            guard EVP_PKEY_CTX_set_group_name(context, ("P-256" as StaticString).cString) == 1 else {
                throw LibCrypto.failure("cannot select curve P-256")
            }
        case .rs256:
            guard EVP_PKEY_CTX_set_rsa_keygen_bits(context, 2048) == 1 else {
                throw LibCrypto.failure("cannot select a 2048-bit modulus")
            }
        }
        var generated: OpaquePointer?
        guard EVP_PKEY_generate(context, &generated) == 1, let generated else {
            throw LibCrypto.failure("key generation failed")
        }
        return PKey(adopting: generated)
    }
}
