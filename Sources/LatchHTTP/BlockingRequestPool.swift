import Dispatch
import Foundation
internal import LatchLocking

/// Threads that make the answers a responder says may block for long (``HTTPAnswer/blocking(_:)``),
/// so that libmicrohttpd's workers, each polling many connections, never wait on one of them.
///
/// Jobs carry a key, the client's address: at most ``perKeyLimit`` jobs of one key run at once,
/// and further ones wait, holding no thread, and start in arrival order on the thread that
/// finishes one of theirs. So one address cannot take every thread, and the others' jobs start at
/// once. Threads are started on demand up to ``maximumThreads``, kept for reuse, and end after
/// ``idleSeconds`` without work or once the pool is stopped. A job whose key is under its limit
/// while every thread is busy and none may be added is not taken: ``submit(key:_:beforeStart:)``
/// returns `false` and the caller runs it itself.
final class BlockingRequestPool: Sendable {
    typealias Job = @Sendable () -> Void

    private struct State {
        /// Jobs handed to idle threads and not yet taken, with their keys.
        var handed: [(key: String, job: Job)] = []
        /// Jobs running or handed over, per key.
        var running: [String: Int] = [:]
        /// Jobs waiting for one of their key's to finish, per key, oldest first.
        var waiting: [String: [Job]] = [:]
        var threads = 0
        var idle = 0
        var stopped = false
    }

    /// The most threads at once.
    let maximumThreads: Int
    /// The most jobs of one key running at once.
    let perKeyLimit: Int
    /// Seconds an idle thread waits for work before it ends.
    let idleSeconds: Double
    private let state = Locked(State())
    private let wake = DispatchSemaphore(value: 0)

    init(maximumThreads: Int, perKeyLimit: Int, idleSeconds: Double = 30) {
        self.maximumThreads = max(0, maximumThreads)
        self.perKeyLimit = max(1, perKeyLimit)
        self.idleSeconds = idleSeconds
    }

    /// Threads alive now, busy or idle.
    var threads: Int { state.withLock { $0.threads } }

    /// Runs `job` on a pool thread: an idle one, or a new one while fewer than ``maximumThreads``
    /// run; or, while ``perKeyLimit`` jobs of `key` run, once one of them has finished. Returns
    /// `false`, without running either closure, when `key` is under its limit but no thread is to
    /// be had, or the pool is stopped.
    /// - Parameter beforeStart: runs on the calling thread once the job is accepted and before any
    ///   thread can start it (briefly, under the pool's lock).
    func submit(key: String, _ job: @escaping Job, beforeStart: () -> Void = {}) -> Bool {
        enum Plan { case wake, start, wait, refuse }
        let plan: Plan = state.withLock { state in
            guard !state.stopped else { return .refuse }
            if state.running[key, default: 0] >= perKeyLimit {
                beforeStart()
                state.waiting[key, default: []].append(job)
                return .wait
            }
            if state.idle > state.handed.count {
                beforeStart()
                state.running[key, default: 0] += 1
                state.handed.append((key, job))
                return .wake
            }
            guard state.threads < maximumThreads else { return .refuse }
            beforeStart()
            state.running[key, default: 0] += 1
            state.threads += 1
            return .start
        }
        switch plan {
        case .wake: wake.signal()
        case .start: startThread(key: key, first: job)
        case .wait: break
        case .refuse: return false
        }
        return true
    }

    /// Lets idle threads end now and refuses further jobs; jobs running or waiting for their key
    /// still run.
    func stop() {
        let idle = state.withLock { state in
            state.stopped = true
            return state.idle
        }
        for _ in 0..<idle { wake.signal() }
    }

    private func startThread(key: String, first job: @escaping Job) {
        let thread = Thread { [self] in
            var next: (key: String, job: Job)? = (key, job)
            while let (key, job) = next {
                job()
                next = following(key) ?? nextHanded()
            }
        }
        thread.name = "latch-http-blocking"
        thread.start()
    }

    /// After a job of `key` has run: the oldest one of `key` waiting, which this thread runs next,
    /// or `nil` with the job counted as finished.
    private func following(_ key: String) -> (key: String, job: Job)? {
        state.withLock { state in
            if var waiting = state.waiting[key], !waiting.isEmpty {
                let job = waiting.removeFirst()
                state.waiting[key] = waiting.isEmpty ? nil : waiting
                return (key, job)
            }
            let running = state.running[key, default: 1] - 1
            state.running[key] = running > 0 ? running : nil
            return nil
        }
    }

    private enum Next {
        case run(key: String, job: Job)
        case end
        case wait
    }

    /// Waits for a job handed to an idle thread; `nil` when the thread should end (idle too long,
    /// or stopped).
    private func nextHanded() -> (key: String, job: Job)? {
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
                if !state.handed.isEmpty {
                    state.idle -= 1
                    let (key, job) = state.handed.removeFirst()
                    return .run(key: key, job: job)
                }
                // Without a job, a wake-up was meant for a job another thread has taken.
                guard timedOut || state.stopped else { return .wait }
                state.idle -= 1
                state.threads -= 1
                return .end
            }
            switch next {
            case .run(let key, let job): return (key, job)
            case .end: return nil
            case .wait: continue
            }
        }
    }
}
