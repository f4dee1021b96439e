import Foundation

// MARK: - Admin tokens

extension SQLStoreSession {
    func adminToken(secretHash: String) throws -> AdminToken? {
        try queryOne("SELECT * FROM admin_tokens WHERE secret_hash = ?", [.text(secretHash)]).map(decodeAdminToken)
    }

    func adminToken(id: String) throws -> AdminToken? {
        try queryOne("SELECT * FROM admin_tokens WHERE id = ?", [.text(id)]).map(decodeAdminToken)
    }

    func adminTokens(tenantID: String?) throws -> [AdminToken] {
        guard let tenantID else {
            return try query("SELECT * FROM admin_tokens ORDER BY created_at, id", []).map(decodeAdminToken)
        }
        return try query(
            "SELECT * FROM admin_tokens WHERE tenant_id = ? ORDER BY created_at, id", [.text(tenantID)]
        ).map(decodeAdminToken)
    }

    func insert(_ token: AdminToken) throws {
        try run(
            """
            INSERT INTO admin_tokens (id, tenant_id, label, secret_hash, created_at, last_used_at, revoked_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(token.id), .text(token.tenantID), .text(token.label), .text(token.secretHash),
                SQLValue(token.createdAt), SQLValue(token.lastUsedAt), SQLValue(token.revokedAt),
            ])
    }

    func revokeAdminToken(id: String, at date: Date) throws -> Bool {
        try run(
            "UPDATE admin_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL", [SQLValue(date), .text(id)])
        return connection.changes == 1
    }

    func recordAdminTokenUse(id: String, at date: Date, ifLastUseBefore recordedBefore: Date) throws {
        try run(
            """
            UPDATE admin_tokens SET last_used_at = ?
            WHERE id = ? AND revoked_at IS NULL AND (last_used_at IS NULL OR last_used_at < ?)
            """,
            [SQLValue(date), .text(id), SQLValue(recordedBefore)])
    }

    private func decodeAdminToken(_ row: SQLRow) throws -> AdminToken {
        AdminToken(
            id: try row.requiredString("id"), tenantID: try row.requiredString("tenant_id"),
            label: try row.requiredString("label"), secretHash: try row.requiredString("secret_hash"),
            createdAt: try row.requiredDate("created_at"), lastUsedAt: row.date("last_used_at"),
            revokedAt: row.date("revoked_at"))
    }
}
