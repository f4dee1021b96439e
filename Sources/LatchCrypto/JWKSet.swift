/// A JWK Set, the document served at the `jwks_uri` (RFC 7517 § 5).
public struct JWKSet: Codable, Sendable, Equatable {
    /// The keys, in no particular order (RFC 7517 § 5.1).
    public var keys: [JWK]

    /// Creates a set from its keys (RFC 7517 § 5).
    public init(keys: [JWK]) {
        self.keys = keys
    }

    /// The first key whose `kid` equals `id` (RFC 7517 § 4.5).
    public func key(withID id: String) -> JWK? {
        keys.first { $0.kid == id }
    }
}
