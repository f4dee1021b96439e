import Foundation

// MARK: - Tenants and clients

extension SQLStoreSession {
    func tenant(named name: String) throws -> Tenant? {
        try queryOne("SELECT * FROM tenants WHERE name = ?", [.text(name)]).map(decodeTenant)
    }

    func tenant(id: String) throws -> Tenant? {
        try queryOne("SELECT * FROM tenants WHERE id = ?", [.text(id)]).map(decodeTenant)
    }

    func tenants() throws -> [Tenant] {
        try query("SELECT * FROM tenants ORDER BY name", []).map(decodeTenant)
    }

    func insert(_ tenant: Tenant) throws {
        let settings = try JSONEncoder().encode(tenant.settings)
        try run(
            "INSERT INTO tenants (id, name, settings, created_at) VALUES (?, ?, ?, ?)",
            [
                .text(tenant.id), .text(tenant.name), .text(String(decoding: settings, as: UTF8.self)),
                SQLValue(tenant.createdAt),
            ])
    }

    func updateSettings(_ settings: TenantSettings, tenantID: String) throws -> Bool {
        let text = String(decoding: try JSONEncoder().encode(settings), as: UTF8.self)
        return try queryOne("UPDATE tenants SET settings = ? WHERE id = ? RETURNING id", [.text(text), .text(tenantID)]) != nil
    }

    private func decodeTenant(_ row: SQLRow) throws -> Tenant {
        let settingsText = try row.requiredString("settings")
        let settings: TenantSettings
        do {
            settings = try JSONDecoder().decode(TenantSettings.self, from: Data(settingsText.utf8))
        } catch {
            throw StoreError.corrupt("tenants.settings")
        }
        return Tenant(
            id: try row.requiredString("id"), name: try row.requiredString("name"), settings: settings,
            createdAt: try row.requiredDate("created_at"))
    }

    func client(id: String, tenantID: String) throws -> Client? {
        try queryOne("SELECT * FROM clients WHERE tenant_id = ? AND id = ?", [.text(tenantID), .text(id)])
            .map(decodeClient)
    }

    func client(apiKey: String) throws -> Client? {
        try queryOne("SELECT * FROM clients WHERE api_key = ?", [.text(apiKey)]).map(decodeClient)
    }

    func clients(tenantID: String) throws -> [Client] {
        try query("SELECT * FROM clients WHERE tenant_id = ? ORDER BY id", [.text(tenantID)]).map(decodeClient)
    }

    func insert(_ client: Client) throws {
        try run(
            """
            INSERT INTO clients (tenant_id, id, name, is_public, allowed_scopes, created_at, attestation_key_ids, api_key,
                client_secret_hash, redirect_uris, grant_types, third_party, post_logout_redirect_uris,
                any_loopback_redirect)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(client.tenantID), .text(client.id), .text(client.name), .integer(client.isPublic ? 1 : 0),
                SQLValue(words: client.allowedScopes), SQLValue(client.createdAt),
                SQLValue(words: client.attestationKeyIDs), .text(client.apiKey),
                client.secretHash.map { .text($0) } ?? .null, SQLValue(words: client.redirectURIs),
                SQLValue(words: client.grantTypes), .integer(client.thirdParty ? 1 : 0),
                SQLValue(words: client.postLogoutRedirectURIs), .integer(client.acceptsAnyLoopbackRedirect ? 1 : 0),
            ])
    }

    func setAcceptsAnyLoopbackRedirect(clientID: String, tenantID: String) throws {
        try run(
            "UPDATE clients SET any_loopback_redirect = 1 WHERE tenant_id = ? AND id = ?", [.text(tenantID), .text(clientID)])
    }

    func updateSecretHash(_ hash: String, clientID: String, tenantID: String) throws -> Bool {
        try queryOne(
            "UPDATE clients SET client_secret_hash = ? WHERE tenant_id = ? AND id = ? AND is_public = 0 RETURNING id",
            [.text(hash), .text(tenantID), .text(clientID)]) != nil
    }

    private func decodeClient(_ row: SQLRow) throws -> Client {
        var client = Client(
            id: try row.requiredString("id"), tenantID: try row.requiredString("tenant_id"),
            name: try row.requiredString("name"), isPublic: row.flag("is_public"),
            allowedScopes: row.words("allowed_scopes"), createdAt: try row.requiredDate("created_at"))
        client.attestationKeyIDs = row.words("attestation_key_ids")
        client.apiKey = try row.requiredString("api_key")
        client.secretHash = row.string("client_secret_hash")
        client.redirectURIs = row.words("redirect_uris")
        client.grantTypes = row.words("grant_types")
        client.thirdParty = row.flag("third_party")
        client.postLogoutRedirectURIs = row.words("post_logout_redirect_uris")
        client.acceptsAnyLoopbackRedirect = row.flag("any_loopback_redirect")
        return client
    }
}
