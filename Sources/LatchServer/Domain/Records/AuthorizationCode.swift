import Foundation

/// An authorization code (RFC 6749 § 4.1.2): kept as the SHA-256 of the code, bound to the client,
/// the redirect URI and the PKCE challenge (RFC 7636 § 4.4), valid 60 seconds and exchanged once.
/// After the exchange the row stays, marked used and naming the session it started, until it
/// expires, so a second exchange revokes that session (RFC 6749 § 4.1.2, RFC 9700 § 4.2.4).
public struct AuthorizationCode: Sendable, Equatable {
    /// Hex SHA-256 of the code.
    public var hash: String
    /// The tenant.
    public var tenantID: String
    /// The client it was issued to.
    public var clientID: String
    /// The `redirect_uri` of the authorization request, as sent.
    public var redirectURI: String
    /// The PKCE `code_challenge` (S256), or `nil` for a confidential client that sent none.
    public var codeChallenge: String?
    /// The request's `nonce`, put in the ID token (OpenID Connect Core § 3.1.2.1).
    public var nonce: String?
    /// The granted scopes.
    public var scopes: [String]
    /// The signed-in account.
    public var userID: String
    /// The browser session it came from.
    public var sessionID: String
    /// The methods the sign-in proved.
    public var amr: [String]
    /// When the user authenticated.
    public var authTime: Date
    /// When it was issued.
    public var createdAt: Date
    /// When it stops being accepted.
    public var expiresAt: Date
    /// When it was exchanged, if it was.
    public var usedAt: Date?
    /// The token family the exchange started, revoked on a replay.
    public var familyID: String?

    /// Creates a code record.
    public init(
        hash: String, tenantID: String, clientID: String, redirectURI: String, codeChallenge: String?, nonce: String?,
        scopes: [String], userID: String, sessionID: String, amr: [String], authTime: Date, createdAt: Date,
        expiresAt: Date
    ) {
        self.hash = hash
        self.tenantID = tenantID
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.codeChallenge = codeChallenge
        self.nonce = nonce
        self.scopes = scopes
        self.userID = userID
        self.sessionID = sessionID
        self.amr = amr
        self.authTime = authTime
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}
