import Foundation

/// A tenant's service-account key as stored: the RS256 key pair that signs the tenant's custom
/// tokens, its PKCS#8 private key sealed with the data directory's master key (AES-256-GCM), never
/// in the clear. One per tenant, made on first use.
public struct StoredServiceAccountKey: Sendable, Equatable {
    /// The `kid` custom tokens carry.
    public var id: String
    /// The tenant.
    public var tenantID: String
    /// Sealed PKCS#8 PEM.
    public var sealedPrivateKey: [UInt8]
    /// When the key was made.
    public var createdAt: Date

    /// Creates a record.
    public init(id: String, tenantID: String, sealedPrivateKey: [UInt8], createdAt: Date) {
        self.id = id
        self.tenantID = tenantID
        self.sealedPrivateKey = sealedPrivateKey
        self.createdAt = createdAt
    }
}
