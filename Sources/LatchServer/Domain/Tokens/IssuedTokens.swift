/// The tokens of a successful sign-in or refresh, before any wire renders them.
public struct IssuedTokens: Sendable, Equatable {
    /// The signed access token (RFC 9068).
    public var accessToken: String
    /// The signed ID token, when `openid` was granted (OpenID Connect Core § 2).
    public var idToken: String?
    /// The opaque refresh token, when `offline_access` was granted.
    public var refreshToken: String?
    /// The granted scopes.
    public var scopes: [String]
    /// Access-token lifetime in seconds.
    public var expiresIn: Int
    /// The user the tokens are for (`sub`).
    public var subject: String
    /// The tenant id (`tid`).
    public var tenantID: String
    /// The device token of a sign-in (``DeviceTrust``); `nil` for a refresh.
    public var deviceToken: String?
}
