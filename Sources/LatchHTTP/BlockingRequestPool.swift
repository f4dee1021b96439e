import Dispatch
import Foundation
import Synchronization

/// Threads that answer the requests a responder says may block for long
/// (``HTTPResponder/mayBlock(_:)``), so that libmicrohttpd's workers, each polling many
/// connections, never wait on one of them.
///
/// Threads are started on demand up to ``maximumThreads``, kept for reuse, and end after
/// ``idleSeconds`` without work or once the pool is stopped. A job submitted while every thread
/// is busy and none may be added is not queued: ``submit(_:)`` returns `false` and the caller runs
/// it itself.
final class BlockingRequestPool: Sendable {
    private struct State {
        var jobs: [@Sendable () -> Void] = []
        var threads = 0
        var idle = 0
        var stopped = false
    }

    /// The most threads at once.
    let maximumThreads: Int
    /// Seconds an idle thread waits for work before it ends.
    let idleSeconds: Double
    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)

    init(maximumThreads: Int, idleSeconds: Double = 30) {
        self.maximumThreads = max(0, maximumThreads)
        self.idleSeconds = idleSeconds
    }

    /// Threads alive now, busy or idle.
    var threads: Int { state.withLock { $0.threads } }

    /// Runs `job` on a pool thread: an idle one, or a new one while fewer than ``maximumThreads``
    /// run. Returns `false`, without running either closure, when there is neither or the pool is
    /// stopped.
    /// - Parameter beforeStart: runs on the calling thread once the job is accepted and before any
    ///   thread can start it (briefly, under the pool's lock).
    func submit(_ job: @escaping @Sendable () -> Void, beforeStart: () -> Void = {}) -> Bool {
        enum Plan { case wake, start, refuse }
        let plan: Plan = state.withLock { state in
            guard !state.stopped else { return .refuse }
            if state.idle > state.jobs.count {
                beforeStart()
                state.jobs.append(job)
                return .wake
            }
            guard state.threads < maximumThreads else { return .refuse }
            beforeStart()
            state.threads += 1
            return .start
        }
        switch plan {
        case .wake: wake.signal()
        case .start: startThread(first: job)
        case .refuse: return false
        }
        return true
    }

    /// Lets idle threads end now and refuses further jobs; jobs already running finish.
    func stop() {
        let idle = state.withLock { state in
            state.stopped = true
            return state.idle
        }
        for _ in 0..<idle { wake.signal() }
    }

    private func startThread(first job: @escaping @Sendable () -> Void) {
        let thread = Thread { [self] in
            job()
            while let next = nextJob() { next() }
        }
        thread.name = "latch-http-blocking"
        thread.start()
    }

    private enum Next {
        case run(@Sendable () -> Void)
        case end
        case wait
    }

    /// Waits for the next job; `nil` when the thread should end (idle too long, or stopped).
    private func nextJob() -> (@Sendable () -> Void)? {
        let waits = state.withLock { state in
            guard !state.stopped else {
                state.threads -= 1
                return false
            }
            state.idle += 1
            return true
        }
        guard waits else { return nil }
        while true {
            let timedOut = wake.wait(timeout: .now() + idleSeconds) == .timedOut
            let next: Next = state.withLock { state in
                if !state.jobs.isEmpty {
                    state.idle -= 1
                    return .run(state.jobs.removeFirst())
                }
                // Without a job, a wake-up was meant for a job another thread has taken.
                guard timedOut || state.stopped else { return .wait }
                state.idle -= 1
                state.threads -= 1
                return .end
            }
            switch next {
            case .run(let job): return job
            case .end: return nil
            case .wait: continue
            }
        }
    }
}
