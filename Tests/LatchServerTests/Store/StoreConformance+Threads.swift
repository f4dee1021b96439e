import Foundation

// MARK: - Real concurrent writers

extension StoreConformance {
    /// Runs `body(i)` for i in 0..<count, each on its own OS thread (as the HTTP workers call the store),
    /// all released together, and waits for every one without blocking a cooperative thread: a
    /// test holding one of Swift concurrency's few threads while the store's writers contend
    /// (seconds, on PostgreSQL) would starve every other test running in parallel.
    /// - Returns: each call's outcome, by index.
    static func onThreads<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) throws -> T) async
        -> [Result<T, any Error>]
    {
        let (finished, outcomes) = launch(count, body)
        await withCheckedContinuation { continuation in finished.notify(queue: .global()) { continuation.resume() } }
        return outcomes.withLock { $0.map { $0! } }
    }

    /// ``onThreads(_:_:)`` for a caller that cannot await (inside a store closure): blocks until done.
    static func onThreadsBlocking<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) throws -> T)
        -> [Result<T, any Error>]
    {
        let (finished, outcomes) = launch(count, body)
        finished.wait()
        return outcomes.withLock { $0.map { $0! } }
    }

    /// Starts the threads of ``onThreads(_:_:)``; the group is left when all have finished.
    private static func launch<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) throws -> T) -> (
        DispatchGroup, Locked<[Result<T, any Error>?]>
    ) {
        let outcomes = Locked([Result<T, any Error>?](repeating: nil, count: count))
        let start = DispatchSemaphore(value: 0)
        let finished = DispatchGroup()
        for index in 0..<count {
            finished.enter()
            let thread = Thread {
                start.wait()
                let outcome = Result { try body(index) }
                outcomes.withLock { $0[index] = outcome }
                finished.leave()
            }
            thread.start()
        }
        for _ in 0..<count { start.signal() }
        return (finished, outcomes)
    }

    /// A value behind an NSLock (rather than `Synchronization.Mutex`, whose futex ThreadSanitizer does not see).
    // @unchecked Sendable: `value` is only accessed with `lock` held.
    final class Locked<Value>: @unchecked Sendable {
        private let lock = NSLock()
        private var value: Value

        init(_ value: Value) { self.value = value }

        func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
            lock.lock()
            defer { lock.unlock() }
            return try body(&value)
        }
    }
}
