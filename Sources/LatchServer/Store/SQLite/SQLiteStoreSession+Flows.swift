import Foundation
import LatchSQLite

// MARK: - Flows

extension SQLiteStoreSession {
    func flow(tokenHash: String) throws -> Flow? {
        try queryOne("SELECT * FROM flows WHERE token_hash = ?", [.text(tokenHash)]).map(decodeFlow)
    }

    func insert(_ flow: Flow) throws {
        try run(
            """
            INSERT INTO flows (id, tenant_id, client_id, kind, step, token_hash, username, user_id, password_hash,
                               attributes, challenge_types, capabilities, code_hash, code_expires_at, code_attempts,
                               email_verified, amr, expires_at, code_sends, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [.text(flow.id), .text(flow.tenantID), .text(flow.clientID)] + mutableColumns(of: flow)
                + [SQLiteValue(flow.createdAt)])
    }

    func update(_ flow: Flow) throws {
        try run(
            """
            UPDATE flows SET kind = ?, step = ?, token_hash = ?, username = ?, user_id = ?, password_hash = ?,
                             attributes = ?, challenge_types = ?, capabilities = ?, code_hash = ?,
                             code_expires_at = ?, code_attempts = ?, email_verified = ?, amr = ?, expires_at = ?,
                             code_sends = ?
            WHERE id = ?
            """,
            mutableColumns(of: flow) + [.text(flow.id)])
    }

    func deleteFlow(id: String) throws {
        try run("DELETE FROM flows WHERE id = ?", [.text(id)])
    }

    func deleteFlows(expiredBefore date: Date) throws {
        try run("DELETE FROM flows WHERE expires_at < ?", [SQLiteValue(date)])
    }

    private func mutableColumns(of flow: Flow) -> [SQLiteValue] {
        [
            .text(flow.kind.rawValue), .text(flow.step.rawValue), .text(flow.tokenHash), .text(flow.username),
            flow.userID.map { .text($0) } ?? .null, flow.passwordHash.map { .text($0) } ?? .null,
            SQLiteValue(json: flow.attributes), SQLiteValue(words: flow.challengeTypes),
            SQLiteValue(words: flow.capabilities), flow.codeHash.map { .text($0) } ?? .null,
            SQLiteValue(flow.codeExpiresAt), .integer(Int64(flow.codeAttempts)),
            .integer(flow.emailVerified ? 1 : 0), SQLiteValue(words: flow.amr), SQLiteValue(flow.expiresAt),
            .integer(Int64(flow.codeSends)),
        ]
    }

    private func decodeFlow(_ row: SQLiteRow) throws -> Flow {
        guard let kind = Flow.Kind(rawValue: try row.requiredString("kind")),
            let step = Flow.Step(rawValue: try row.requiredString("step"))
        else { throw StoreError.corrupt("flows.kind/step") }
        return Flow(
            id: try row.requiredString("id"), tenantID: try row.requiredString("tenant_id"),
            clientID: try row.requiredString("client_id"), kind: kind, step: step,
            tokenHash: try row.requiredString("token_hash"), username: try row.requiredString("username"),
            userID: row.string("user_id"), passwordHash: row.string("password_hash"),
            attributes: row.stringDictionary("attributes"), challengeTypes: row.words("challenge_types"),
            capabilities: row.words("capabilities"), codeHash: row.string("code_hash"),
            codeExpiresAt: row.date("code_expires_at"), codeAttempts: Int(row.int("code_attempts") ?? 0),
            codeSends: Int(row.int("code_sends") ?? 0), emailVerified: row.flag("email_verified"), amr: row.words("amr"),
            expiresAt: try row.requiredDate("expires_at"), createdAt: try row.requiredDate("created_at"))
    }
}
