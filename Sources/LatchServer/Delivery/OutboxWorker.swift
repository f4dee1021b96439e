import Foundation
internal import LatchLocking

/// The server's background thread: delivers committed outbox messages (woken after each commit that
/// queued one, and every second in case a wake-up was missed or a delivery failed: at-least-once),
/// opening each one's seal to hand it to the transport and abandoning, with a warning, any whose
/// seal does not open; erases delivered bodies outside development; and once a minute deletes what has outlived its use
/// (flows expired an hour ago, day-old outbox messages, sessions ended a day ago, audit events past
/// their tenant's retention) and writes the aggregated audit rows of failures without an account.
public final class OutboxWorker: Sendable {
    private let store: any Store
    private let sealer: MessageSealer
    private let clock: any ServerClock
    private let transport: (any MessageTransport)?
    private let redactDelivered: Bool
    private let log: ServerLog
    private let auditAggregator: AuditAggregator?
    private let lastMaintenance = Locked<Int64>(0)
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
    ///   - auditAggregator: its summary rows are written with every maintenance pass and at stop.
    public init(
        store: any Store, sealer: MessageSealer, clock: any ServerClock, transport: (any MessageTransport)?,
        redactDelivered: Bool, log: ServerLog, auditAggregator: AuditAggregator? = nil
    ) {
        self.auditAggregator = auditAggregator
        self.store = store
        self.sealer = sealer
        self.clock = clock
        self.transport = transport
        self.redactDelivered = redactDelivered
        self.log = log
    }

    /// Starts the delivery thread (once).
    public func start() {
        guard !started.exchange(true) else { return }
        let thread = Thread { [self] in
            while !stopping.load() {
                drain()
                maintain()
                _ = wakeUp.wait(timeout: .now() + 1)
            }
            drain()
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

    private func drain() {
        guard let transport else { return }
        do {
            let pending = try store.read { try $0.pendingOutboxMessages(limit: 100) }
            guard !pending.isEmpty else { return }
            var delivered: [Int64] = []
            var abandoned: [Int64] = []
            for stored in pending {
                guard let message = open(stored) else {
                    abandoned.append(stored.id)
                    continue
                }
                do {
                    try transport.deliver(message)
                    delivered.append(message.id)
                } catch {
                    log.warning("outbox delivery failed", [("message_id", String(message.id)), ("error", "\(error)")])
                }
            }
            let now = clock.now()
            try store.write { tx in
                try tx.markDelivered(ids: delivered, at: now, redact: redactDelivered)
                try tx.markAbandoned(ids: abandoned, at: now)
            }
        } catch {
            log.error("outbox worker failed", [("error", "\(error)")])
        }
    }

    /// `stored` opened for delivery, or `nil` (logged) when it cannot be delivered: it has no body
    /// (queued before bodies were sealed) or its seal does not open. Never delivers what the seal
    /// did not authenticate.
    private func open(_ stored: StoredOutboxMessage) -> OutboxMessage? {
        guard stored.sealedBody != nil else {
            log.warning(
                "outbox message abandoned: it has no body (queued before message bodies were sealed); "
                    + "a resend sends a new code", [("message_id", String(stored.id))])
            return nil
        }
        do {
            return try sealer.open(stored)
        } catch {
            log.warning("outbox message abandoned", [("message_id", String(stored.id)), ("error", "\(error)")])
            return nil
        }
    }
}
