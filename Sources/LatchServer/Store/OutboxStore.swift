import Foundation

/// The transactional outbox and the audit trail. Outbox bodies are stored as the sealed bytes the
/// domain hands over (``StoredOutboxMessage/sealedBody``); the store never sees them in the clear.
public protocol OutboxReading {
    /// Outbox messages, newest first, optionally filtered.
    func outboxMessages(tenantID: String?, recipient: String?, limit: Int) throws -> [StoredOutboxMessage]
    /// Outbox messages neither delivered nor abandoned, oldest first.
    func pendingOutboxMessages(limit: Int) throws -> [StoredOutboxMessage]
    /// When codes of `purpose` were sent to `recipient` after `since` (from `source` only, when
    /// given), newest first, at most `limit`: the send ledger behind the per-source and per-address
    /// caps. Decoy sends (unknown addresses under enumeration protection) are in it too.
    func codeSendTimes(tenantID: String, recipient: String, purpose: String, source: String?, since: Date, limit: Int)
        throws -> [Date]
    /// Audit events of a tenant, newest first.
    func auditEvents(tenantID: String, limit: Int) throws -> [AuditEvent]
}

/// Changes to the outbox and the audit trail.
public protocol OutboxWriting: OutboxReading {
    /// Adds an outbox message.
    /// - Throws: ``StoreError/conflict`` when its ``StoredOutboxMessage/messageID`` is taken.
    func insert(_ message: StoredOutboxMessage) throws
    /// Records one code send in the send ledger (purged with day-old outbox messages).
    func recordCodeSend(tenantID: String, recipient: String, purpose: String, source: String, at date: Date) throws
    /// Marks outbox messages delivered; with `redact`, their sealed body is erased.
    func markDelivered(ids: [Int64], at date: Date, redact: Bool) throws
    /// Marks pending outbox messages abandoned (never to be delivered) and erases their sealed body.
    func markAbandoned(ids: [Int64], at date: Date) throws
    /// Adds an audit event.
    func insert(_ event: AuditEvent) throws
    /// Deletes the audit events of a tenant from before `date` (retention).
    func deleteAuditEvents(tenantID: String, before date: Date) throws
}
