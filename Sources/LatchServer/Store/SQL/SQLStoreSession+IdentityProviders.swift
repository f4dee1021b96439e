import Foundation

// MARK: - Identity providers and federated identities

extension SQLStoreSession {
    func identityProvider(tenantID: String, providerID: String) throws -> IdentityProvider? {
        try queryOne(
            "SELECT * FROM identity_providers WHERE tenant_id = ? AND provider_id = ?", [.text(tenantID), .text(providerID)]
        ).map(identityProvider)
    }

    func identityProviders(tenantID: String) throws -> [IdentityProvider] {
        try query("SELECT * FROM identity_providers WHERE tenant_id = ? ORDER BY provider_id", [.text(tenantID)])
            .map(identityProvider)
    }

    func insert(_ provider: IdentityProvider) throws {
        try run(
            """
            INSERT INTO identity_providers (tenant_id, provider_id, issuer, client_id, jwks_url, jwks_json, enabled, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(provider.tenantID), .text(provider.providerID), .text(provider.issuer), .text(provider.clientID),
                SQLValue(provider.jwksURL), SQLValue(provider.jwksJSON), SQLValue(provider.enabled),
                SQLValue(provider.createdAt),
            ])
    }

    func deleteIdentityProvider(tenantID: String, providerID: String) throws -> Bool {
        try queryOne(
            "DELETE FROM identity_providers WHERE tenant_id = ? AND provider_id = ? RETURNING provider_id",
            [.text(tenantID), .text(providerID)]) != nil
    }

    func federatedIdentity(tenantID: String, providerID: String, rawID: String) throws -> FederatedIdentity? {
        try queryOne(
            "SELECT * FROM federated_identities WHERE tenant_id = ? AND provider_id = ? AND raw_id = ?",
            [.text(tenantID), .text(providerID), .text(rawID)]
        ).map(federatedIdentity)
    }

    func federatedIdentities(userID: String, tenantID: String) throws -> [FederatedIdentity] {
        try query(
            "SELECT * FROM federated_identities WHERE user_id = ? AND tenant_id = ? ORDER BY created_at, provider_id",
            [.text(userID), .text(tenantID)]
        ).map(federatedIdentity)
    }

    func insert(_ identity: FederatedIdentity) throws {
        try run(
            """
            INSERT INTO federated_identities (tenant_id, provider_id, raw_id, user_id, email, display_name, photo_url, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(identity.tenantID), .text(identity.providerID), .text(identity.rawID), .text(identity.userID),
                SQLValue(identity.email), SQLValue(identity.displayName), SQLValue(identity.photoURL),
                SQLValue(identity.createdAt),
            ])
    }

    func deleteFederatedIdentity(tenantID: String, providerID: String, userID: String) throws -> Bool {
        !(try query(
            "DELETE FROM federated_identities WHERE tenant_id = ? AND provider_id = ? AND user_id = ? RETURNING raw_id",
            [.text(tenantID), .text(providerID), .text(userID)]
        ).isEmpty)
    }

    private func identityProvider(_ row: SQLRow) throws -> IdentityProvider {
        IdentityProvider(
            tenantID: try row.requiredString("tenant_id"), providerID: try row.requiredString("provider_id"),
            issuer: try row.requiredString("issuer"), clientID: try row.requiredString("client_id"),
            jwksURL: row.string("jwks_url"), jwksJSON: row.string("jwks_json"), enabled: row.flag("enabled"),
            createdAt: try row.requiredDate("created_at"))
    }

    private func federatedIdentity(_ row: SQLRow) throws -> FederatedIdentity {
        FederatedIdentity(
            tenantID: try row.requiredString("tenant_id"), providerID: try row.requiredString("provider_id"),
            rawID: try row.requiredString("raw_id"), userID: try row.requiredString("user_id"), email: row.string("email"),
            displayName: row.string("display_name"), photoURL: row.string("photo_url"),
            createdAt: try row.requiredDate("created_at"))
    }
}
