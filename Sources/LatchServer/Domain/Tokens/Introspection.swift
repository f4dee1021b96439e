/// What introspection (RFC 7662 § 2.2) says about a token: ``inactive``, or the members of an
/// active one.
public struct Introspection: Sendable, Equatable {
    /// Whether the token is active.
    public var active: Bool
    /// The granted scopes, space separated (`scope`).
    public var scope: String?
    /// The client the token was issued to (`client_id`).
    public var clientID: String?
    /// The user, or for a `client_credentials` token the client (`sub`).
    public var subject: String?
    /// Expiry, seconds since the epoch (`exp`).
    public var expiresAt: Int?
    /// Issued at, seconds since the epoch (`iat`).
    public var issuedAt: Int?
    /// The issuer (`iss`).
    public var issuer: String?
    /// `Bearer` for access tokens, `refresh_token` for refresh tokens (`token_type`).
    public var tokenType: String?

    /// `{"active":false}`: unknown, malformed, expired, revoked, or not the caller's to see.
    public static let inactive = Introspection(active: false)

    /// Creates a result.
    public init(
        active: Bool, scope: String? = nil, clientID: String? = nil, subject: String? = nil, expiresAt: Int? = nil,
        issuedAt: Int? = nil, issuer: String? = nil, tokenType: String? = nil
    ) {
        self.active = active
        self.scope = scope
        self.clientID = clientID
        self.subject = subject
        self.expiresAt = expiresAt
        self.issuedAt = issuedAt
        self.issuer = issuer
        self.tokenType = tokenType
    }
}
