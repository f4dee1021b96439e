import Foundation

// MARK: - Outbox and audit

extension SQLStoreSession {
    func outboxMessages(tenantID: String?, recipient: String?, abandonedOnly: Bool, limit: Int) throws
        -> [StoredOutboxMessage]
    {
        var sql = "SELECT * FROM outbox WHERE 1 = 1"
        var bindings: [SQLValue] = []
        if abandonedOnly { sql += " AND abandoned_at IS NOT NULL" }
        if let tenantID {
            sql += " AND tenant_id = ?"
            bindings.append(.text(tenantID))
        }
        if let recipient {
            sql += " AND recipient = ?"
            bindings.append(.text(recipient))
        }
        sql += " ORDER BY id DESC LIMIT ?"
        bindings.append(.integer(Int64(limit)))
        return try query(sql, bindings).map(decodeMessage)
    }

    func pendingOutboxMessages(dueAt now: Date, limit: Int) throws -> [StoredOutboxMessage] {
        try query(
            """
            SELECT * FROM outbox WHERE delivered_at IS NULL AND abandoned_at IS NULL
                AND (next_attempt_at IS NULL OR next_attempt_at <= ?)
            ORDER BY id LIMIT ?
            """,
            [SQLValue(now), .integer(Int64(limit))]
        ).map(decodeMessage)
    }

    func claimOutboxMessages(dueAt now: Date, limit: Int, leaseUntil: Date) throws -> [StoredOutboxMessage] {
        try query(
            """
            UPDATE outbox SET next_attempt_at = ?
            WHERE id IN (
                SELECT id FROM outbox WHERE delivered_at IS NULL AND abandoned_at IS NULL
                    AND (next_attempt_at IS NULL OR next_attempt_at <= ?)
                ORDER BY id LIMIT ?\(dialect == .postgres ? " FOR UPDATE SKIP LOCKED" : "")
            )
            RETURNING *
            """,
            [SQLValue(leaseUntil), SQLValue(now), .integer(Int64(limit))]
        ).map(decodeMessage).sorted { $0.id < $1.id }
    }

    func insert(_ message: StoredOutboxMessage) throws {
        try run(
            """
            INSERT INTO outbox (message_id, tenant_id, channel, recipient, subject, sealed_body, created_at, delivered_at,
                                abandoned_at, attempts, last_error, next_attempt_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(message.messageID), .text(message.tenantID), .text(message.channel), .text(message.recipient),
                .text(message.subject), message.sealedBody.map { .blob($0) } ?? .null, SQLValue(message.createdAt),
                SQLValue(message.deliveredAt), SQLValue(message.abandonedAt), .integer(Int64(message.attempts)),
                message.lastError.map { .text($0) } ?? .null, SQLValue(message.nextAttemptAt),
            ])
    }

    func recordFailedAttempt(id: Int64, error: String, retryAt: Date) throws {
        try run(
            """
            UPDATE outbox SET attempts = attempts + 1, last_error = ?, next_attempt_at = ?
            WHERE id = ? AND delivered_at IS NULL AND abandoned_at IS NULL
            """,
            [.text(error), SQLValue(retryAt), .integer(id)])
    }

    func codeSendTimes(tenantID: String, recipient: String, purpose: String, source: String?, since: Date, limit: Int)
        throws -> [Date]
    {
        var sql = "SELECT at FROM code_sends WHERE tenant_id = ? AND recipient = ? AND purpose = ? AND at > ?"
        var bindings: [SQLValue] = [.text(tenantID), .text(recipient), .text(purpose), SQLValue(since)]
        if let source {
            sql += " AND source = ?"
            bindings.append(.text(source))
        }
        sql += " ORDER BY at DESC LIMIT ?"
        bindings.append(.integer(Int64(limit)))
        return try query(sql, bindings).map { try $0.requiredDate("at") }
    }

    func recordCodeSend(tenantID: String, recipient: String, purpose: String, source: String, at date: Date) throws {
        try run(
            "INSERT INTO code_sends (tenant_id, recipient, purpose, source, at) VALUES (?, ?, ?, ?, ?)",
            [.text(tenantID), .text(recipient), .text(purpose), .text(source), SQLValue(date)])
    }

    func markDelivered(ids: [Int64], at date: Date, redact: Bool) throws {
        let sql =
            redact
            ? "UPDATE outbox SET delivered_at = ?, sealed_body = NULL WHERE id = ?"
            : "UPDATE outbox SET delivered_at = ? WHERE id = ?"
        for id in ids {
            try run(sql, [SQLValue(date), .integer(id)])
        }
    }

    func markAbandoned(ids: [Int64], at date: Date, reason: String?) throws {
        for id in ids {
            try run(
                """
                UPDATE outbox SET abandoned_at = ?, sealed_body = NULL, last_error = COALESCE(?, last_error)
                WHERE id = ? AND delivered_at IS NULL
                """,
                [SQLValue(date), reason.map { .text($0) } ?? .null, .integer(id)])
        }
    }

    func purge(outboxBefore: Date, sessionsBefore: Date) throws {
        try run("DELETE FROM outbox WHERE created_at < ?", [SQLValue(outboxBefore)])
        try run("DELETE FROM code_sends WHERE at < ?", [SQLValue(outboxBefore)])
        try run("DELETE FROM oob_codes WHERE expires_at < ?", [SQLValue(sessionsBefore)])
        try run("DELETE FROM authorization_codes WHERE expires_at < ?", [SQLValue(sessionsBefore)])
        try run("DELETE FROM browser_sessions WHERE expires_at < ?", [SQLValue(sessionsBefore)])
        try run("DELETE FROM device_authorizations WHERE expires_at < ?", [SQLValue(sessionsBefore)])
        // An unknown address's failures are forgotten a month after its last attempt.
        try run(
            "DELETE FROM address_attempts WHERE updated_at < ?", [SQLValue(outboxBefore.addingTimeInterval(-29 * 86_400))])
        let ended = "SELECT id FROM token_families WHERE expires_at < ? OR revoked_at < ?"
        try run(
            "DELETE FROM refresh_tokens WHERE family_id IN (\(ended))",
            [SQLValue(sessionsBefore), SQLValue(sessionsBefore)])
        try run(
            "DELETE FROM token_families WHERE expires_at < ? OR revoked_at < ?",
            [SQLValue(sessionsBefore), SQLValue(sessionsBefore)])
    }

    private func decodeMessage(_ row: SQLRow) throws -> StoredOutboxMessage {
        StoredOutboxMessage(
            id: row.int("id") ?? 0, messageID: try row.requiredString("message_id"),
            tenantID: try row.requiredString("tenant_id"), channel: try row.requiredString("channel"),
            recipient: try row.requiredString("recipient"), subject: try row.requiredString("subject"),
            sealedBody: row.blob("sealed_body"), createdAt: try row.requiredDate("created_at"),
            deliveredAt: row.date("delivered_at"), abandonedAt: row.date("abandoned_at"),
            attempts: Int(row.int("attempts") ?? 0), lastError: row.string("last_error"),
            nextAttemptAt: row.date("next_attempt_at"))
    }

    func auditEvents(tenantID: String, limit: Int) throws -> [AuditEvent] {
        try query(
            "SELECT * FROM audit_events WHERE tenant_id = ? ORDER BY id DESC LIMIT ?",
            [.text(tenantID), .integer(Int64(limit))]
        ).map { row in
            AuditEvent(
                id: row.int("id") ?? 0, tenantID: try row.requiredString("tenant_id"), at: try row.requiredDate("at"),
                kind: AuditEvent.Kind(rawValue: try row.requiredString("kind")), userID: row.string("user_id"),
                clientID: row.string("client_id"), remoteAddress: row.string("remote_address"),
                detail: row.string("detail"))
        }
    }

    func deleteAuditEvents(tenantID: String, before date: Date) throws {
        try run("DELETE FROM audit_events WHERE tenant_id = ? AND at < ?", [.text(tenantID), SQLValue(date)])
    }

    func insert(_ event: AuditEvent) throws {
        try run(
            """
            INSERT INTO audit_events (tenant_id, at, kind, user_id, client_id, remote_address, detail)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(event.tenantID), SQLValue(event.at), .text(event.kind.rawValue),
                event.userID.map { .text($0) } ?? .null, event.clientID.map { .text($0) } ?? .null,
                event.remoteAddress.map { .text($0) } ?? .null, event.detail.map { .text($0) } ?? .null,
            ])
    }
}

extension SQLStoreSession: StoreWriting {}
