import Foundation

/// An admin bearer token (RFC 6750) scoped to one tenant: it opens that tenant's
/// `/{tenant}/admin/*` endpoints and no other's. The secret is shown once, when the token is made;
/// the store keeps only its SHA-256, so a copy of the database opens nothing.
public struct AdminToken: Sendable, Equatable {
    /// The public id an operator lists and revokes it by (16 hex digits); not a secret.
    public var id: String
    /// The tenant it is scoped to.
    public var tenantID: String
    /// The operator's label, free text shown escaped (``maximumLabelLength`` characters at most).
    public var label: String
    /// SHA-256 of the secret's UTF-8 bytes, 64 lowercase hex digits (FIPS 180-4).
    public var secretHash: String
    /// When it was made.
    public var createdAt: Date
    /// When it last opened an endpoint, to ``lastUseResolution``; `nil` if never.
    public var lastUsedAt: Date?
    /// When it was revoked: from then on it opens nothing.
    public var revokedAt: Date?

    /// Creates a record.
    public init(
        id: String, tenantID: String, label: String, secretHash: String, createdAt: Date, lastUsedAt: Date? = nil,
        revokedAt: Date? = nil
    ) {
        self.id = id
        self.tenantID = tenantID
        self.label = label
        self.secretHash = secretHash
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.revokedAt = revokedAt
    }

    /// What every scoped secret starts with, so a leaked one is recognisable as a Latch admin token
    /// (by people and by secret scanners). The rest is 32 random bytes, base64url (RFC 4648 § 5).
    public static let secretPrefix = "latch_admin_"

    /// The longest label, in characters.
    public static let maximumLabelLength = 100

    /// How stale ``lastUsedAt`` may be: a use is written only when the stored one is older, so busy
    /// tokens cost one write a minute, not one a request.
    public static let lastUseResolution: TimeInterval = 60
}
