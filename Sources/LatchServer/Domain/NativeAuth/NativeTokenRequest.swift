/// A grant presented at the native-auth token endpoint, parsed by the adapter from `grant_type`
/// and its parameters.
public enum TokenGrant: Sendable, Equatable {
    /// The password of the flow's account (`grant_type=password`).
    case password(continuationToken: String?, username: String?, password: String?)
    /// The one-time code sent in the flow (`grant_type=oob`).
    case oneTimeCode(continuationToken: String?, code: String?)
    /// The token of a finished sign-up, password reset or method registration
    /// (`grant_type=continuation_token`).
    case continuationToken(String?, username: String?)
    /// The second-factor code sent in a second-factor flow (`grant_type=mfa_oob`).
    case secondFactorCode(continuationToken: String?, code: String?)
    /// A refresh token (`grant_type=refresh_token`, RFC 6749 § 6).
    case refreshToken(String?)
}

/// A token request: the grant, the requested scopes and the device token the client kept.
public struct TokenRequest: Sendable, Equatable {
    /// What the client presents.
    public var grant: TokenGrant
    /// The requested `scope`, as sent (RFC 6749 § 3.3).
    public var scope: String?
    /// The device token from an earlier sign-in on this device (``DeviceTrust``), if one was sent
    /// and has its shape; a sign-in grant uses it, a refresh ignores it.
    public var device: PresentedDeviceToken?

    /// The `claims` request parameter (OIDC Core § 5.5), as JSON text, if sent.
    public var claims: String?
    /// The capabilities the client declared with this request (`capabilities`): with
    /// `mfa_required`, a refresh that needs a second factor starts a step-up instead of failing.
    public var capabilities: ClientCapabilities

    /// Creates a request.
    public init(
        grant: TokenGrant, scope: String?, device: PresentedDeviceToken? = nil, claims: String? = nil,
        capabilities: ClientCapabilities = []
    ) {
        self.grant = grant
        self.scope = scope
        self.device = device
        self.claims = claims
        self.capabilities = capabilities
    }
}
