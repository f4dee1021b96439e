/// The JWS `alg` values Latch signs and verifies with (RFC 7518 § 3.1).
///
/// The raw value is the exact `alg` header parameter / JWK `alg` member string (RFC 7515 § 4.1.1,
/// RFC 7517 § 4.4).
public enum SigningAlgorithm: String, Sendable, Codable, CaseIterable {
    /// ECDSA using P-256 and SHA-256 (RFC 7518 § 3.4); signatures are the 64-byte `R || S`.
    case es256 = "ES256"
    /// RSASSA-PKCS1-v1_5 using SHA-256 (RFC 7518 § 3.3) with a modulus of at least 2048 bits.
    case rs256 = "RS256"

    /// The JWK `kty` for keys of this algorithm (RFC 7518 § 6.1).
    var keyType: String {
        switch self {
        case .es256: "EC"
        case .rs256: "RSA"
        }
    }
}
