import Foundation

/// Clients that authenticate with `private_key_jwt` (OpenID Connect Core § 9, RFC 7523 § 2.2).
extension AdminService {
    /// Creates a confidential client (RFC 6749 § 2.1) that authenticates with JWTs signed by the
    /// keys of `jwks` (a JWKS document, checked by ``ClientKeySet``); it has no secret. The client
    /// and its keys are stored in one write.
    /// - Throws: ``AuthFailure/invalidParameter(_:)`` (`.jwks`) for an unusable JWKS, as
    ///   ``createClient(tenant:id:name:isPublic:allowedScopes:attestationKeyIDs:apiKey:secretHash:)``
    ///   for the other values, ``StoreError/conflict`` when the id is taken.
    public func createKeyClient(
        tenant: Tenant, id: String, name: String, jwks: String, allowedScopes: [String] = [], apiKey: String? = nil,
        registration: ClientRegistration = ClientRegistration()
    ) throws -> Client {
        _ = try ClientKeySet(jwks)
        guard Client.isValidID(id) else { throw AuthFailure.invalidParameter(.clientID) }
        try registration.validate(isPublic: false)
        let now = clock.now()
        var client = Client(
            id: id, tenantID: tenant.id, name: name, isPublic: false, allowedScopes: allowedScopes, createdAt: now)
        if let apiKey {
            guard Client.isValidAPIKey(apiKey) else { throw AuthFailure.invalidParameter(.apiKey) }
            client.apiKey = apiKey
        }
        registration.apply(to: &client)
        try store.write { tx in
            try tx.insert(client)
            try tx.upsert(ClientKeys(tenantID: tenant.id, clientID: id, jwks: jwks, updatedAt: now))
        }
        return client
    }

    /// Replaces the keys of confidential client `id` of `tenant` with those of `jwks`; assertions
    /// signed by keys no longer in it stop working at once (servers read the keys on every
    /// assertion). A client with a secret keeps it, and may then use either method.
    /// - Throws: ``AuthFailure/invalidParameter(_:)`` (`.jwks`) for an unusable JWKS,
    ///   ``AuthFailure/unknownClient`` when `tenant` has no confidential client `id`.
    public func setClientKeys(tenant: Tenant, id: String, jwks: String) throws {
        _ = try ClientKeySet(jwks)
        try store.write { tx in
            guard let client = try tx.client(id: id, tenantID: tenant.id), !client.isPublic else {
                throw AuthFailure.unknownClient
            }
            try tx.upsert(ClientKeys(tenantID: tenant.id, clientID: id, jwks: jwks, updatedAt: clock.now()))
        }
    }

    /// The registered keys of client `id` of `tenant`, or `nil` when it has none.
    public func clientKeys(tenant: Tenant, id: String) throws -> ClientKeys? {
        try store.read { try $0.clientKeys(clientID: id, tenantID: tenant.id) }
    }
}
