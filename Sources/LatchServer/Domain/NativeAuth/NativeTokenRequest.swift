/// The parameters of a native-auth token request (`oauth2/v2.0/token`).
public struct NativeTokenRequest: Sendable {
    /// `password`, `oob`, `continuation_token` or `refresh_token`.
    public var grantType: String?
    /// The flow's continuation token.
    public var continuationToken: String?
    /// The username, optional with a continuation token.
    public var username: String?
    /// The password (`password` grant).
    public var password: String?
    /// The one-time code (`oob` grant).
    public var code: String?
    /// The refresh token (`refresh_token` grant).
    public var refreshToken: String?
    /// Requested scopes.
    public var scope: String?

    /// Creates a request.
    public init(
        grantType: String?, continuationToken: String? = nil, username: String? = nil, password: String? = nil,
        code: String? = nil, refreshToken: String? = nil, scope: String? = nil
    ) {
        self.grantType = grantType
        self.continuationToken = continuationToken
        self.username = username
        self.password = password
        self.code = code
        self.refreshToken = refreshToken
        self.scope = scope
    }
}
