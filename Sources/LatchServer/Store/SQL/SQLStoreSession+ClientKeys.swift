import Foundation

// MARK: - Client keys and used client assertions

extension SQLStoreSession {
    func clientKeys(clientID: String, tenantID: String) throws -> ClientKeys? {
        try queryOne(
            "SELECT * FROM client_keys WHERE tenant_id = ? AND client_id = ?", [.text(tenantID), .text(clientID)]
        ).map { row in
            ClientKeys(
                tenantID: try row.requiredString("tenant_id"), clientID: try row.requiredString("client_id"),
                jwks: try row.requiredString("jwks"), updatedAt: try row.requiredDate("updated_at"))
        }
    }

    func upsert(_ keys: ClientKeys) throws {
        try run(
            """
            INSERT INTO client_keys (tenant_id, client_id, jwks, updated_at) VALUES (?, ?, ?, ?)
            ON CONFLICT (tenant_id, client_id) DO UPDATE SET jwks = excluded.jwks, updated_at = excluded.updated_at
            """,
            [.text(keys.tenantID), .text(keys.clientID), .text(keys.jwks), SQLValue(keys.updatedAt)])
    }

    func recordAssertionID(_ hash: String, expiresAt: Date, at now: Date) throws -> Bool {
        try run("DELETE FROM client_assertion_ids WHERE expires_at <= ?", [SQLValue(now)])
        return try queryOne(
            """
            INSERT INTO client_assertion_ids (jti_hash, expires_at) VALUES (?, ?)
            ON CONFLICT (jti_hash) DO NOTHING RETURNING jti_hash
            """,
            [.text(hash), SQLValue(expiresAt)]) != nil
    }
}
