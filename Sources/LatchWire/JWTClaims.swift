/// The claims Latch puts in ID tokens and access tokens (RFC 7519 § 4.1, OpenID Connect Core § 2
/// and § 5.1, RFC 9068 § 2.2). The SDK only parses them; the server also encodes them.
public struct JWTClaims: Codable, Sendable, Equatable {
    /// Issuer (RFC 7519 § 4.1.1).
    public var iss: String
    /// Subject: the user id (RFC 7519 § 4.1.2).
    public var sub: String
    /// Audience: the client id (RFC 7519 § 4.1.3).
    public var aud: String
    /// Expiry, seconds since the epoch (RFC 7519 § 4.1.4).
    public var exp: Int
    /// Issued at (RFC 7519 § 4.1.6).
    public var iat: Int
    /// Not before (RFC 7519 § 4.1.5).
    public var nbf: Int
    /// Token id (RFC 7519 § 4.1.7).
    public var jti: String?
    /// When the user last authenticated (OIDC Core § 2).
    public var authTime: Int?
    /// Authentication methods used (RFC 8176), e.g. `pwd`, `otp`.
    public var amr: [String]?
    /// Authentication context class (OIDC Core § 2): `mfa` once a second factor was proven.
    public var acr: String?
    /// Granted scopes, space separated (access tokens).
    public var scp: String?
    /// The session (token family) id.
    public var sid: String?
    /// The tenant id.
    public var tid: String?
    /// The client the token was issued to (RFC 9068 § 2.2).
    public var clientID: String?
    /// E-mail address (OIDC Core § 5.1).
    public var email: String?
    /// Whether the e-mail address is verified.
    public var emailVerified: Bool?
    /// Display name.
    public var name: String?
    /// The username the user signs in with.
    public var preferredUsername: String?
    /// The authorization request's `nonce`, in ID tokens (OpenID Connect Core § 2).
    public var nonce: String?

    /// Creates a claim set.
    public init(iss: String, sub: String, aud: String, exp: Int, iat: Int, nbf: Int) {
        self.iss = iss
        self.sub = sub
        self.aud = aud
        self.exp = exp
        self.iat = iat
        self.nbf = nbf
    }

    enum CodingKeys: String, CodingKey {
        case iss, sub, aud, exp, iat, nbf, jti, amr, acr, scp, sid, tid, email, name, nonce
        case authTime = "auth_time"
        case clientID = "client_id"
        case emailVerified = "email_verified"
        case preferredUsername = "preferred_username"
    }
}
