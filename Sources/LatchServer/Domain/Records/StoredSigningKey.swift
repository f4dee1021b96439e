import Foundation

/// A tenant's signing key as stored: the PKCS#8 private key sealed with the data directory's
/// master key (AES-256-GCM), never in the clear.
public struct StoredSigningKey: Sendable, Equatable {
    /// The `kid`.
    public var id: String
    /// The tenant.
    public var tenantID: String
    /// `ES256` or `RS256` (RFC 7518 § 3.1).
    public var algorithm: String
    /// Sealed PKCS#8 PEM.
    public var sealedPrivateKey: [UInt8]
    /// When the key was created and first published in the JWKS.
    public var createdAt: Date
    /// When it starts signing: after a rotation, later than `createdAt` by the JWKS cache lifetime,
    /// so verifiers holding a cached JWKS already know the key when its first token arrives.
    public var activatesAt: Date
    /// When a newer key took over signing; it stays published until tokens it signed expire.
    public var retiredAt: Date?
    /// When the key was revoked (compromised): from then on it is neither published nor accepted.
    public var revokedAt: Date?

    /// Creates a record.
    public init(
        id: String, tenantID: String, algorithm: String, sealedPrivateKey: [UInt8], createdAt: Date,
        activatesAt: Date, retiredAt: Date? = nil, revokedAt: Date? = nil
    ) {
        self.id = id
        self.tenantID = tenantID
        self.algorithm = algorithm
        self.sealedPrivateKey = sealedPrivateKey
        self.createdAt = createdAt
        self.activatesAt = activatesAt
        self.retiredAt = retiredAt
        self.revokedAt = revokedAt
    }
}
