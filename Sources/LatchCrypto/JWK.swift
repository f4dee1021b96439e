/// A public JSON Web Key (RFC 7517 § 4) for an ES256 or RS256 verification key.
///
/// Member names follow RFC 7517 § 4 and RFC 7518 § 6: `kty`, `crv`/`x`/`y` for EC keys
/// (RFC 7518 § 6.2.1), `n`/`e` for RSA keys (RFC 7518 § 6.3.1), plus `kid`, `alg` and `use`.
/// Absent optional members are omitted when encoded. Private members such as `d` are never
/// modelled, so a `JWK` can always be published safely.
public struct JWK: Codable, Sendable, Equatable {
    /// Key type: `"EC"` or `"RSA"` (RFC 7517 § 4.1, RFC 7518 § 6.1).
    public var kty: String
    /// Curve for EC keys, `"P-256"` for ES256 (RFC 7518 § 6.2.1.1).
    public var crv: String?
    /// EC x coordinate, base64url of exactly 32 bytes for P-256 (RFC 7518 § 6.2.1.2).
    public var x: String?
    /// EC y coordinate, base64url of exactly 32 bytes for P-256 (RFC 7518 § 6.2.1.3).
    public var y: String?
    /// RSA modulus, base64url of the unsigned big-endian value without leading zeros (RFC 7518 § 6.3.1.1).
    public var n: String?
    /// RSA public exponent, base64url of the unsigned big-endian value, usually `"AQAB"` (RFC 7518 § 6.3.1.2).
    public var e: String?
    /// Key ID matched against the JWS `kid` header parameter (RFC 7517 § 4.5, RFC 7515 § 4.1.4).
    public var kid: String
    /// The algorithm the key is used with, `"ES256"` or `"RS256"` (RFC 7517 § 4.4). A string, not
    /// ``SigningAlgorithm``, so a ``JWKSet`` containing keys for other algorithms still decodes.
    public var alg: String
    /// Public key use, `"sig"` for signature keys (RFC 7517 § 4.2).
    public var use: String

    /// Creates a JWK from its members (RFC 7517 § 4).
    public init(
        kty: String, crv: String? = nil, x: String? = nil, y: String? = nil, n: String? = nil, e: String? = nil,
        kid: String, alg: String, use: String = "sig"
    ) {
        self.kty = kty
        self.crv = crv
        self.x = x
        self.y = y
        self.n = n
        self.e = e
        self.kid = kid
        self.alg = alg
        self.use = use
    }
}
