import Foundation

/// A ``CredentialStore`` that keeps the snapshot in memory only: for tests and for apps that must
/// not persist tokens.
///
/// ``withExclusiveLock(_:)`` is an in-process async mutex: bodies never overlap, waiters are served
/// in arrival order, and waiting suspends the task rather than blocking a thread.
public actor InMemoryCredentialStore: CredentialStore {
    private var snapshot: CredentialSnapshot
    private var writes: UInt64 = 0
    private let mutex = CredentialStoreMutex()

    /// Creates a store holding `snapshot` (empty by default).
    public init(snapshot: CredentialSnapshot = CredentialSnapshot()) {
        self.snapshot = snapshot
    }

    /// The stored snapshot. Never throws.
    public func read() async throws -> CredentialSnapshot {
        snapshot
    }

    /// Replaces the stored snapshot. Never throws.
    public func write(_ snapshot: CredentialSnapshot) async throws {
        self.snapshot = snapshot
        writes += 1
    }

    /// The number of writes so far. Never throws.
    public func revision() async throws -> CredentialStoreRevision? {
        CredentialStoreRevision(String(writes))
    }

    /// Runs `body` while holding this store's lock (FIFO-fair; released on every path; not
    /// reentrant: calling it again inside `body` deadlocks).
    /// - Throws: `CancellationError` if the task is cancelled while waiting, or what `body` throws.
    public nonisolated func withExclusiveLock<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        try await mutex.withLock(body)
    }
}
