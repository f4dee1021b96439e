import Foundation

// MARK: - Flows

extension SQLStoreSession {
    func flow(tokenHash: String) throws -> Flow? {
        try queryOne("SELECT * FROM flows WHERE token_hash = ?", [.text(tokenHash)]).map(decodeFlow)
    }

    func insert(_ flow: Flow) throws {
        try run(
            """
            INSERT INTO flows (kind, step, token_hash, username, user_id, state, expires_at, id, tenant_id, client_id,
                               created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            mutableColumns(of: flow) + [
                .text(flow.id), .text(flow.tenantID), .text(flow.clientID), SQLValue(flow.createdAt),
            ])
    }

    func replace(_ flow: Flow, expectingTokenHash expectedTokenHash: String) throws -> Bool {
        try run(
            """
            UPDATE flows SET kind = ?, step = ?, token_hash = ?, username = ?, user_id = ?, state = ?, expires_at = ?
            WHERE id = ? AND token_hash = ?
            """,
            mutableColumns(of: flow) + [.text(flow.id), .text(expectedTokenHash)])
        return connection.changes == 1
    }

    func consumeFlow(id: String, tokenHash: String) throws -> Bool {
        try run("DELETE FROM flows WHERE id = ? AND token_hash = ?", [.text(id), .text(tokenHash)])
        return connection.changes == 1
    }

    func deleteFlows(expiredBefore date: Date) throws {
        try run("DELETE FROM flows WHERE expires_at < ?", [SQLValue(date)])
    }

    private func mutableColumns(of flow: Flow) -> [SQLValue] {
        [
            .text(flow.kind.rawValue), .text(flow.step.rawValue), .text(flow.tokenHash), .text(flow.username),
            flow.userID.map { .text($0) } ?? .null, .text(FlowStateCodec.encode(flow.state)), SQLValue(flow.expiresAt),
        ]
    }

    private func decodeFlow(_ row: SQLRow) throws -> Flow {
        guard let kind = Flow.Kind(rawValue: try row.requiredString("kind")),
            let step = Flow.Step(rawValue: try row.requiredString("step"))
        else { throw StoreError.corrupt("flows.kind/step") }
        let state: FlowState
        do {
            state = try FlowStateCodec.decode(try row.requiredString("state"))
        } catch {
            throw StoreError.corrupt("flows.state: \(error)")
        }
        return Flow(
            id: try row.requiredString("id"), tenantID: try row.requiredString("tenant_id"),
            clientID: try row.requiredString("client_id"), kind: kind, step: step,
            tokenHash: try row.requiredString("token_hash"), username: try row.requiredString("username"),
            userID: row.string("user_id"), state: state, expiresAt: try row.requiredDate("expires_at"),
            createdAt: try row.requiredDate("created_at"))
    }
}
