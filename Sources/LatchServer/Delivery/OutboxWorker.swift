import Foundation
import Synchronization

/// Delivers committed outbox messages on a background thread: woken after each commit that queued
/// one, and every second in case a wake-up was missed or a delivery failed (at-least-once).
public final class OutboxWorker: Sendable {
    private let store: any Store
    private let clock: any ServerClock
    private let transport: any MessageTransport
    private let log: ServerLog
    private let wakeUp = DispatchSemaphore(value: 0)
    private let stopping = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    /// Creates a worker.
    public init(store: any Store, clock: any ServerClock, transport: any MessageTransport, log: ServerLog) {
        self.store = store
        self.clock = clock
        self.transport = transport
        self.log = log
    }

    /// Starts the delivery thread.
    public func start() {
        let thread = Thread { [self] in
            while !stopping.load(ordering: .acquiring) {
                drain()
                _ = wakeUp.wait(timeout: .now() + 1)
            }
            drain()
            finished.signal()
        }
        thread.name = "latch-outbox"
        thread.start()
    }

    /// Wakes the thread to deliver new messages.
    public func notify() { wakeUp.signal() }

    /// Delivers what is pending and stops the thread.
    public func stop() {
        guard !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        wakeUp.signal()
        finished.wait()
    }

    private func drain() {
        do {
            let pending = try store.read { try $0.pendingOutboxMessages(limit: 100) }
            guard !pending.isEmpty else { return }
            var delivered: [Int64] = []
            for message in pending {
                do {
                    try transport.deliver(message)
                    delivered.append(message.id)
                } catch {
                    log.warning("outbox delivery of message \(message.id) failed: \(error)")
                }
            }
            let now = clock.now()
            try store.write { tx in try tx.markDelivered(ids: delivered, at: now) }
        } catch {
            log.error("outbox worker: \(error)")
        }
    }
}
