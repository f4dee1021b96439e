import Foundation
internal import LatchLocking

/// An async mutual-exclusion lock: at most one holder at a time, waiters served first come,
/// first served, and waiting suspends the task instead of blocking a thread.
///
/// Ownership is handed directly from the releasing holder to the oldest waiter, so a task that
/// arrives later can never overtake one that is already waiting. A waiter whose task is cancelled
/// leaves the queue and ``lock()`` throws `CancellationError`.
final class CredentialStoreMutex: @unchecked Sendable {  // @unchecked: all mutable state is guarded by `state`.
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Void, any Error>
    }

    private let state = NSLock()
    private var isLocked = false
    private var waiters: [Waiter] = []
    private var nextWaiterID: UInt64 = 0

    /// Creates an unlocked mutex.
    init() {}

    /// Waits until the mutex is free, then takes it. Every successful call must be balanced by one
    /// ``unlock()``.
    /// - Throws: `CancellationError` when the task is cancelled while waiting (the mutex is not taken).
    func lock() async throws {
        let id = reserveWaiterID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                state.lock()
                if !isLocked {
                    isLocked = true
                    state.unlock()
                    continuation.resume()
                } else if Task.isCancelled {
                    state.unlock()
                    continuation.resume(throwing: CancellationError())
                } else {
                    waiters.append(Waiter(id: id, continuation: continuation))
                    state.unlock()
                }
            }
        } onCancel: {
            state.lock()
            let cancelled = waiters.firstIndex { $0.id == id }.map { waiters.remove(at: $0) }
            state.unlock()
            cancelled?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Releases the mutex, handing it to the oldest waiter if there is one.
    func unlock() {
        state.lock()
        guard !waiters.isEmpty else {
            isLocked = false
            state.unlock()
            return
        }
        let next = waiters.removeFirst()
        state.unlock()
        next.continuation.resume()
    }

    /// Runs `body` while holding the mutex; releases it on every path.
    func withLock<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await lock()
        defer { unlock() }
        return try await body()
    }

    /// How many tasks are queued (for tests).
    var waiterCount: Int {
        state.lock()
        defer { state.unlock() }
        return waiters.count
    }

    private func reserveWaiterID() -> UInt64 {
        state.lock()
        defer { state.unlock() }
        nextWaiterID &+= 1
        return nextWaiterID
    }
}

extension CredentialStoreMutex {
    private static let registry = Locked<[String: CredentialStoreMutex]>([:])

    /// The process-wide mutex for the store named `name`, so every store instance that reaches the
    /// same underlying item (e.g. two clients on one Keychain item) serialises on one lock.
    static func shared(named name: String) -> CredentialStoreMutex {
        registry.withLock { mutexes in
            if let existing = mutexes[name] { return existing }
            let mutex = CredentialStoreMutex()
            mutexes[name] = mutex
            return mutex
        }
    }
}
