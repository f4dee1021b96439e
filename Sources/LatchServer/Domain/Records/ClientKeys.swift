import Foundation

/// The public keys a confidential client signs its `private_key_jwt` assertions with (OpenID
/// Connect Core § 9, RFC 7523 § 2.2): a JWKS document (RFC 7517 § 5) of RS256 and ES256 keys,
/// checked by ``ClientKeySet`` before it is stored. Kept beside the ``Client`` record, one per client.
public struct ClientKeys: Sendable, Equatable {
    /// The tenant of the client.
    public var tenantID: String
    /// The `client_id`.
    public var clientID: String
    /// The JWKS document as registered (JSON text); it holds public keys only.
    public var jwks: String
    /// When the keys were registered or last replaced.
    public var updatedAt: Date

    /// Creates a record.
    public init(tenantID: String, clientID: String, jwks: String, updatedAt: Date) {
        self.tenantID = tenantID
        self.clientID = clientID
        self.jwks = jwks
        self.updatedAt = updatedAt
    }
}
