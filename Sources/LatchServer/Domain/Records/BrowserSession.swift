import Foundation

/// A browser signed in through the hosted pages (single sign-on, OpenID Connect Core § 3.1.2.3):
/// later authorization requests from the same browser need no new sign-in while it lasts and
/// `max_age` allows. The browser holds a random cookie; the store keeps only its SHA-256, and one
/// browser may hold sessions of several accounts (the account chooser lists them).
public struct BrowserSession: Sendable, Equatable {
    /// Stable random id (the `sid` of ID tokens issued through it).
    public var id: String
    /// The tenant.
    public var tenantID: String
    /// Hex SHA-256 of the browser's cookie value.
    public var browserHash: String
    /// The signed-in account.
    public var userID: String
    /// The methods the sign-in proved (RFC 8176), `mfa` among them after a second factor.
    public var amr: [String]
    /// When the user last authenticated (OpenID Connect `auth_time`).
    public var authTime: Date
    /// When the session started.
    public var createdAt: Date
    /// When it ends.
    public var expiresAt: Date

    /// Creates a session record.
    public init(
        id: String, tenantID: String, browserHash: String, userID: String, amr: [String], authTime: Date, createdAt: Date,
        expiresAt: Date
    ) {
        self.id = id
        self.tenantID = tenantID
        self.browserHash = browserHash
        self.userID = userID
        self.amr = amr
        self.authTime = authTime
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}
