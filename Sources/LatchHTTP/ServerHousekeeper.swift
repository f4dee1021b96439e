import Foundation
internal import LatchLocking

/// The one thread a running ``HTTPServer`` keeps besides libmicrohttpd's: every tick it cuts off
/// the connections whose request is overdue (``ConnectionRegistry``), and every
/// ``HTTPServerConfiguration/abnormalEndingLogIntervalSeconds`` it writes the summary of
/// ``AbnormalEndingLog``; once more when stopped.
final class ServerHousekeeper: Sendable {
    private let registry: ConnectionRegistry
    private let endings: AbnormalEndingLog
    private let summaryInterval: Int64
    private let tick: Int
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let isStopping = Locked<Bool>(false)
    private let isRunning = Locked<Bool>(false)

    /// - Parameters:
    ///   - headerTimeoutSeconds: The request deadline, which sets the tick: a twentieth of it,
    ///     between 50 and 250 milliseconds.
    ///   - summaryIntervalSeconds: The shortest time between two summaries.
    init(registry: ConnectionRegistry, endings: AbnormalEndingLog, headerTimeoutSeconds: Int, summaryIntervalSeconds: Double) {
        self.registry = registry
        self.endings = endings
        self.summaryInterval = Int64(max(0.05, summaryIntervalSeconds) * 1000)
        self.tick = min(250, max(50, headerTimeoutSeconds * 1000 / 20))
    }

    /// Starts the thread; once only.
    func start() {
        guard !isRunning.exchange(true) else { return }
        let thread = Thread { [self] in run() }
        thread.name = "latch-http-housekeeping"
        thread.start()
    }

    /// Stops the thread after a last summary, and waits for it. Safe to call more than once.
    func stop() {
        guard isRunning.load(), !isStopping.exchange(true) else { return }
        wake.signal()
        finished.wait()
    }

    private func run() {
        var nextSummary = MonotonicClock.milliseconds() + summaryInterval
        while !isStopping.load() {
            _ = wake.wait(timeout: .now() + .milliseconds(tick))
            let now = MonotonicClock.milliseconds()
            endings.record(.headerTimeout, count: registry.expireOverdue(now: now))
            if now >= nextSummary {
                endings.flush(now: now)
                nextSummary = now + summaryInterval
            }
        }
        endings.flush(now: MonotonicClock.milliseconds())
        finished.signal()
    }
}
