import Foundation

// MARK: - Out-of-band codes

extension SQLStoreSession {
    func oobCode(hash: String) throws -> OobCode? {
        try queryOne("SELECT * FROM oob_codes WHERE code_hash = ?", [.text(hash)]).map(decodeOobCode)
    }

    func insert(_ code: OobCode) throws {
        try run(
            """
            INSERT INTO oob_codes
                (code_hash, tenant_id, client_id, kind, user_id, email, new_email, continue_url, created_at, expires_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(code.codeHash), .text(code.tenantID), .text(code.clientID), .text(code.kind.rawValue),
                code.userID.map { .text($0) } ?? .null, .text(code.email), code.newEmail.map { .text($0) } ?? .null,
                code.continueURL.map { .text($0) } ?? .null, SQLValue(code.createdAt), SQLValue(code.expiresAt),
            ])
    }

    func consumeOobCode(hash: String) throws -> OobCode? {
        try queryOne("DELETE FROM oob_codes WHERE code_hash = ? RETURNING *", [.text(hash)]).map(decodeOobCode)
    }

    private func decodeOobCode(_ row: SQLRow) throws -> OobCode {
        guard let kind = OobCodeKind(rawValue: try row.requiredString("kind")) else { throw StoreError.corrupt("kind") }
        return OobCode(
            codeHash: try row.requiredString("code_hash"), tenantID: try row.requiredString("tenant_id"),
            clientID: try row.requiredString("client_id"), kind: kind, userID: row.string("user_id"),
            email: try row.requiredString("email"), newEmail: row.string("new_email"),
            continueURL: row.string("continue_url"), createdAt: try row.requiredDate("created_at"),
            expiresAt: try row.requiredDate("expires_at"))
    }
}
