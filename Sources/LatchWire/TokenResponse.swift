/// A successful token response (RFC 6749 § 5.1, OpenID Connect Core § 3.1.3.3).
public struct TokenResponse: Codable, Sendable, Equatable {
    /// Always `Bearer` (RFC 6750).
    public var tokenType: String
    /// Granted scopes, space separated.
    public var scope: String
    /// Access-token lifetime in seconds.
    public var expiresIn: Int
    /// The access token (an RFC 9068 JWT).
    public var accessToken: String
    /// The refresh token, opaque.
    public var refreshToken: String?
    /// The OpenID Connect ID token.
    public var idToken: String?
    /// base64url JSON `{"uid","utid"}` when `client_info=1` was sent (MSAL account identifiers).
    public var clientInfo: String?

    /// Creates a response.
    public init(
        tokenType: String = "Bearer", scope: String, expiresIn: Int, accessToken: String,
        refreshToken: String?, idToken: String?, clientInfo: String? = nil
    ) {
        self.tokenType = tokenType
        self.scope = scope
        self.expiresIn = expiresIn
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.idToken = idToken
        self.clientInfo = clientInfo
    }

    enum CodingKeys: String, CodingKey {
        case scope
        case tokenType = "token_type"
        case expiresIn = "expires_in"
        case accessToken = "access_token"
        case refreshToken = "refresh_token"
        case idToken = "id_token"
        case clientInfo = "client_info"
    }
}
