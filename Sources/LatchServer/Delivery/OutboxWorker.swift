import Foundation
internal import LatchLocking

/// The server's background thread: delivers committed outbox messages (woken after each commit that
/// queued one, when the earliest retry it scheduled falls due, and every second in case a wake-up
/// was missed: at-least-once), opening each one's seal to hand it to the transport and abandoning,
/// with a warning, any whose seal does not open; erases delivered bodies outside development; and
/// once a minute deletes what has outlived its use (flows expired an hour ago, day-old outbox
/// messages, sessions ended a day ago, audit events past their tenant's retention) and writes the
/// aggregated audit rows of failures without an account.
///
/// A failed delivery counts an attempt, records why (never the body or the code) and is tried again
/// after a backoff (``OutboxRetryPolicy``: 5 s doubling to at most 10 minutes); only due messages are
/// read, so a failing one never holds up the others. After the policy's most attempts, or at once
/// for ``UndeliverableMessage`` (no transport for its channel), the message is abandoned: a dead
/// letter, logged once and listed by `latchd outbox --failed`.
public final class OutboxWorker: Sendable {
    /// Messages read per pass.
    static let batchSize = 100
    /// How long a claimed message is this worker's: if it never reports (the process died), another
    /// instance delivers the message after this (at-least-once; receivers drop duplicates by
    /// Message-ID).
    static let lease: TimeInterval = 120
    /// Longest a body or error description is kept in ``StoredOutboxMessage/lastError``.
    static let errorLength = 200

    private let store: any Store
    private let sealer: MessageSealer
    private let clock: any ServerClock
    private let transport: (any MessageTransport)?
    private let redactDelivered: Bool
    private let retryPolicy: OutboxRetryPolicy
    private let log: ServerLog
    private let auditAggregator: AuditAggregator?
    private let lastMaintenance = Locked<Int64>(0)
    /// The earliest retry this worker scheduled and has not yet reached, in milliseconds since the
    /// epoch on ``clock``; `Int64.max` when none.
    private let nextRetry = Locked<Int64>(.max)
    private let wakeUp = DispatchSemaphore(value: 0)
    private let stopping = Locked<Bool>(false)
    private let started = Locked<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    /// Creates a worker.
    /// - Parameters:
    ///   - sealer: opens the sealed bodies (derived from the master key that sealed them).
    ///   - transport: where messages go; `nil` leaves them pending for `latchd outbox`.
    ///   - redactDelivered: erase the sealed body of delivered messages (everywhere but development,
    ///     where the outbox reader shows recent codes).
    ///   - retryPolicy: when failed deliveries are tried again, and when they are abandoned.
    ///   - auditAggregator: its summary rows are written with every maintenance pass and at stop.
    public init(
        store: any Store, sealer: MessageSealer, clock: any ServerClock, transport: (any MessageTransport)?,
        redactDelivered: Bool, retryPolicy: OutboxRetryPolicy = OutboxRetryPolicy(), log: ServerLog,
        auditAggregator: AuditAggregator? = nil
    ) {
        self.auditAggregator = auditAggregator
        self.store = store
        self.sealer = sealer
        self.clock = clock
        self.transport = transport
        self.redactDelivered = redactDelivered
        self.retryPolicy = retryPolicy
        self.log = log
    }

    /// Starts the delivery thread (once).
    public func start() {
        guard !started.exchange(true) else { return }
        let thread = Thread { [self] in
            while !stopping.load() {
                drainDue()
                maintain()
                _ = wakeUp.wait(timeout: .now() + idleSeconds())
            }
            drainDue()
            flushAudit()
            finished.signal()
        }
        thread.name = "latch-outbox"
        thread.start()
    }

    /// Wakes the thread to deliver new messages.
    public func notify() { wakeUp.signal() }

    /// Delivers what is pending and stops the thread; a worker that never started just stops.
    public func stop() {
        guard !stopping.exchange(true) else { return }
        guard started.load() else { return }
        wakeUp.signal()
        finished.wait()
    }

    /// Once a minute: deletes expired flows, outbox messages older than a day and sessions that ended
    /// over a day ago, rate-limit buckets that are full again, so unauthenticated flow starts cannot grow the database without bound.
    private func maintain() {
        let now = clock.now()
        let seconds = Int64(now.timeIntervalSince1970)
        guard seconds - lastMaintenance.load() >= 60 else { return }
        lastMaintenance.store(seconds)
        let dayAgo = now.addingTimeInterval(-86_400)
        do {
            try store.write { tx in
                // An hour's slack keeps answering "expired" (not "unknown") for recently expired tokens.
                try tx.deleteFlows(expiredBefore: now.addingTimeInterval(-3600))
                try tx.purge(outboxBefore: dayAgo, sessionsBefore: dayAgo)
                // A full bucket and a missing one mean the same, so full ones go.
                try tx.deleteRateBuckets(fullBefore: now)
                for tenant in try tx.tenants() {
                    let days = max(1, tenant.settings.auditRetentionDays)
                    try tx.deleteAuditEvents(tenantID: tenant.id, before: now.addingTimeInterval(-Double(days) * 86_400))
                }
                try auditAggregator?.flush(into: tx, at: now)
            }
        } catch {
            log.error("maintenance failed", [("error", "\(error)")])
        }
    }

    /// Writes the aggregated audit rows now (at stop).
    private func flushAudit() {
        guard let auditAggregator, auditAggregator.pendingCount > 0 else { return }
        do {
            try store.write { tx in try auditAggregator.flush(into: tx, at: clock.now()) }
        } catch {
            log.error("audit flush failed", [("error", "\(error)")])
        }
    }

    /// Seconds to wait for a wake-up: until the earliest scheduled retry, at most one second.
    private func idleSeconds() -> Double {
        let retry = nextRetry.load()
        guard retry != .max else { return 1 }
        return min(1, max(0.01, Double(retry - Self.milliseconds(clock.now())) / 1000))
    }

    /// Delivers every due message, a batch at a time (a bounded number of batches per wake-up, so
    /// maintenance and stop stay timely).
    private func drainDue() {
        guard transport != nil else { return }
        // A retry now due is this pass's to make; later ones stay scheduled.
        let now = Self.milliseconds(clock.now())
        nextRetry.withLock { if $0 <= now { $0 = .max } }
        for _ in 0..<20 {
            guard drain() == Self.batchSize else { return }
        }
    }

    /// Delivers one batch of due messages and records each outcome; returns how many were read.
    private func drain() -> Int {
        guard let transport else { return 0 }
        do {
            // Claimed, not just read: another instance's worker skips these until the lease ends. A
            // claim a crash loses only makes the messages due again, so it need not wait for the disk.
            let claimedAt = clock.now()
            let pending = try store.writeRelaxed { tx in
                try tx.claimOutboxMessages(
                    dueAt: claimedAt, limit: Self.batchSize, leaseUntil: claimedAt.addingTimeInterval(Self.lease))
            }
            guard !pending.isEmpty else { return 0 }
            var outcomes = DeliveryOutcomes()
            for stored in pending {
                let message: OutboxMessage
                switch open(stored) {
                case .success(let opened): message = opened
                case .failure(let unopened):
                    outcomes.abandoned.append((stored.id, unopened.reason))
                    continue
                }
                do {
                    try transport.deliver(message)
                    outcomes.delivered.append(message.id)
                } catch {
                    failed(message, error, into: &outcomes)
                }
            }
            let now = clock.now()
            try store.write { tx in
                try tx.markDelivered(ids: outcomes.delivered, at: now, redact: redactDelivered)
                for failure in outcomes.failed {
                    try tx.recordFailedAttempt(id: failure.id, error: failure.error, retryAt: failure.retryAt)
                }
                for (id, reason) in outcomes.abandoned { try tx.markAbandoned(ids: [id], at: now, reason: reason) }
            }
            return pending.count
        } catch {
            log.error("outbox worker failed", [("error", "\(error)")])
            return 0
        }
    }

    /// Decides what becomes of `message` after its delivery threw `error`: abandoned at once when
    /// it is ``UndeliverableMessage``, after the policy's last attempt (a dead letter), else tried
    /// again after the policy's delay. Each outcome is logged; a dead letter once.
    private func failed(_ message: OutboxMessage, _ error: any Error, into outcomes: inout DeliveryOutcomes) {
        let reason = Self.describe(error, hiding: message)
        let fields = [("message_id", String(message.id)), ("channel", message.channel)]
        if error is UndeliverableMessage {
            log.warning("outbox message abandoned: \(reason)", fields)
            outcomes.abandoned.append((message.id, reason))
            return
        }
        let attempts = message.attempts + 1
        let now = clock.now()
        if retryPolicy.abandons(afterAttempts: attempts) {
            log.warning(
                "outbox message dead-lettered: delivery failed \(attempts) times; see latchd outbox --failed",
                fields + [("error", reason)])
            outcomes.failed.append((message.id, reason, now))
            outcomes.abandoned.append((message.id, nil))
            return
        }
        let delay = retryPolicy.delay(afterAttempt: attempts)
        let retryAt = now.addingTimeInterval(delay)
        log.warning(
            "outbox delivery failed; retrying",
            fields + [("attempt", String(attempts)), ("retry_in_seconds", String(Int(delay.rounded(.up)))), ("error", reason)])
        outcomes.failed.append((message.id, reason, retryAt))
        nextRetry.withLock { $0 = min($0, Self.milliseconds(retryAt)) }
    }

    /// `date` in milliseconds since the epoch.
    private static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

    /// `error` described in one line of at most ``errorLength`` characters, with the message's code
    /// and body blanked should a transport have echoed them.
    static func describe(_ error: any Error, hiding message: OutboxMessage) -> String {
        var text = String(describing: error)
        if !message.body.isEmpty { text = text.replacingOccurrences(of: message.body, with: "<body>") }
        if let code = message.code, !code.isEmpty { text = text.replacingOccurrences(of: code, with: "<code>") }
        text = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return text.count > errorLength ? String(text.prefix(errorLength - 1)) + "…" : text
    }

    /// `stored` opened for delivery, or the reason (logged) it cannot be delivered: it has no body
    /// (queued before bodies were sealed) or its seal does not open. Never delivers what the seal
    /// did not authenticate.
    private func open(_ stored: StoredOutboxMessage) -> Result<OutboxMessage, Unopened> {
        guard stored.sealedBody != nil else {
            log.warning(
                "outbox message abandoned: it has no body (queued before message bodies were sealed); "
                    + "a resend sends a new code", [("message_id", String(stored.id))])
            return .failure(Unopened(reason: "no body (queued before message bodies were sealed)"))
        }
        do {
            return .success(try sealer.open(stored))
        } catch {
            log.warning("outbox message abandoned", [("message_id", String(stored.id)), ("error", "\(error)")])
            return .failure(Unopened(reason: "its sealed body does not open"))
        }
    }

    /// Why a stored message could not be opened.
    private struct Unopened: Error {
        let reason: String
    }
}

/// What one pass decided, written in one transaction at its end.
private struct DeliveryOutcomes {
    /// Handed to the transport.
    var delivered: [Int64] = []
    /// Failed attempts: the row, why, and when the next one is due.
    var failed: [(id: Int64, error: String, retryAt: Date)] = []
    /// Given up on, with the reason to record (`nil` keeps the last error).
    var abandoned: [(id: Int64, reason: String?)] = []
}
