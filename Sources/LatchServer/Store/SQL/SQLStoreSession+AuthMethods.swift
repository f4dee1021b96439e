import Foundation

// MARK: - Strong authentication methods

extension SQLStoreSession {
    func authMethods(userID: String, tenantID: String) throws -> [AuthMethod] {
        try query(
            "SELECT * FROM auth_methods WHERE tenant_id = ? AND user_id = ? ORDER BY created_at, id",
            [.text(tenantID), .text(userID)]
        ).map(decodeAuthMethod)
    }

    func insert(_ method: AuthMethod) throws {
        try run(
            """
            INSERT INTO auth_methods (id, tenant_id, user_id, channel, target, verified, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(method.id), .text(method.tenantID), .text(method.userID), .text(method.channel.rawValue),
                .text(method.target), .integer(method.verified ? 1 : 0), SQLValue(method.createdAt),
            ])
    }

    func deleteAuthMethod(id: String, userID: String, tenantID: String) throws -> Bool {
        try run(
            "DELETE FROM auth_methods WHERE id = ? AND user_id = ? AND tenant_id = ?",
            [.text(id), .text(userID), .text(tenantID)])
        return connection.changes == 1
    }

    private func decodeAuthMethod(_ row: SQLRow) throws -> AuthMethod {
        let channel = try row.requiredString("channel")
        guard let decoded = DeliveryChannel(rawValue: channel) else {
            throw StoreError.corrupt("auth method with unknown channel '\(channel.prefix(16))'")
        }
        return AuthMethod(
            id: try row.requiredString("id"), tenantID: try row.requiredString("tenant_id"),
            userID: try row.requiredString("user_id"), channel: decoded, target: try row.requiredString("target"),
            verified: (row.int("verified") ?? 0) != 0, createdAt: try row.requiredDate("created_at"))
    }
}
