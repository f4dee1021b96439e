import Foundation

/// A sign-in session: the chain of refresh tokens that descend from one authentication.
/// Its id is the `sid` claim. Revoking the family ends every token in it (RFC 9700 § 4.14.2).
public struct TokenFamily: Sendable, Equatable {
    /// The session id.
    public var id: String
    /// The tenant.
    public var tenantID: String
    /// The client the tokens were issued to.
    public var clientID: String
    /// The user.
    public var userID: String
    /// Granted scopes.
    public var scopes: [String]
    /// Authentication methods of the original sign-in (RFC 8176).
    public var amr: [String]
    /// When the user authenticated (`auth_time`).
    public var authTime: Date
    /// When the family was created.
    public var createdAt: Date
    /// Absolute expiry of every token in the family.
    public var expiresAt: Date
    /// When the family was revoked, if it was.
    public var revokedAt: Date?

    /// Creates a family record.
    public init(
        id: String, tenantID: String, clientID: String, userID: String, scopes: [String], amr: [String],
        authTime: Date, createdAt: Date, expiresAt: Date, revokedAt: Date? = nil
    ) {
        self.id = id
        self.tenantID = tenantID
        self.clientID = clientID
        self.userID = userID
        self.scopes = scopes
        self.amr = amr
        self.authTime = authTime
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.revokedAt = revokedAt
    }
}
