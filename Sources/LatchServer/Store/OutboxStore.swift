import Foundation

/// The transactional outbox and the audit trail. Outbox bodies are stored as the sealed bytes the
/// domain hands over (``StoredOutboxMessage/sealedBody``); the store never sees them in the clear.
public protocol OutboxReading {
    /// Outbox messages, newest first, optionally filtered; with `abandonedOnly`, only the ones the
    /// worker gave up on (dead letters).
    func outboxMessages(tenantID: String?, recipient: String?, abandonedOnly: Bool, limit: Int) throws
        -> [StoredOutboxMessage]
    /// Outbox messages neither delivered nor abandoned whose next attempt is due at `now` (never
    /// attempted, or ``StoredOutboxMessage/nextAttemptAt`` not after `now`), oldest first.
    func pendingOutboxMessages(dueAt now: Date, limit: Int) throws -> [StoredOutboxMessage]
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
    /// Claims up to `limit` due outbox messages (as ``OutboxReading/pendingOutboxMessages(dueAt:limit:)``
    /// selects them) for one deliverer: each one's next attempt moves to `leaseUntil`, so no other
    /// instance picks it up meanwhile, and one that its deliverer never reports on (it crashed) is
    /// due again then. Concurrent claims never return the same message: rows another transaction
    /// is claiming are skipped, not waited for (PostgreSQL `FOR UPDATE SKIP LOCKED`; SQLite has one
    /// writer). Oldest first.
    func claimOutboxMessages(dueAt now: Date, limit: Int, leaseUntil: Date) throws -> [StoredOutboxMessage]
    /// Records one code send in the send ledger (purged with day-old outbox messages).
    func recordCodeSend(tenantID: String, recipient: String, purpose: String, source: String, at date: Date) throws
    /// Marks outbox messages delivered; with `redact`, their sealed body is erased.
    func markDelivered(ids: [Int64], at date: Date, redact: Bool) throws
    /// Records a failed delivery attempt of a pending message: one more
    /// ``StoredOutboxMessage/attempts``, `error` as its ``StoredOutboxMessage/lastError`` and the
    /// next attempt due at `retryAt`. A delivered or abandoned message is left as it is.
    /// - Parameter error: a short description without the body or the code.
    func recordFailedAttempt(id: Int64, error: String, retryAt: Date) throws
    /// Marks pending outbox messages abandoned (never to be delivered: dead letters) and erases
    /// their sealed body; a `reason` becomes their ``StoredOutboxMessage/lastError``, `nil` keeps
    /// the one they have. A delivered message is left as it is.
    func markAbandoned(ids: [Int64], at date: Date, reason: String?) throws
    /// Adds an audit event.
    func insert(_ event: AuditEvent) throws
    /// Deletes the audit events of a tenant from before `date` (retention).
    func deleteAuditEvents(tenantID: String, before date: Date) throws
}

extension OutboxReading {
    /// Outbox messages, newest first, optionally filtered, whatever their state.
    public func outboxMessages(tenantID: String?, recipient: String?, limit: Int) throws -> [StoredOutboxMessage] {
        try outboxMessages(tenantID: tenantID, recipient: recipient, abandonedOnly: false, limit: limit)
    }
}

extension OutboxWriting {
    /// Marks pending outbox messages abandoned, keeping their ``StoredOutboxMessage/lastError``.
    public func markAbandoned(ids: [Int64], at date: Date) throws {
        try markAbandoned(ids: ids, at: date, reason: nil)
    }
}
