#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// A pthread mutex with one condition variable, for state that threads must wait on.
///
/// `Synchronization.Mutex` has no condition variable, and the callers are plain OS
/// threads (HTTP workers) for which blocking is the intended behaviour.
// @unchecked Sendable: the pthread objects are heap-allocated, never move, and are only used through pthread calls, which are thread-safe.
final class ConditionLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        precondition(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init failed")
        precondition(pthread_cond_init(condition, nil) == 0, "pthread_cond_init failed")
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deinitialize(count: 1)
        condition.deallocate()
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }

    func unlock() { pthread_mutex_unlock(mutex) }

    /// Releases the mutex, sleeps until a broadcast, and re-acquires it; callers must re-check their predicate.
    func wait() { pthread_cond_wait(condition, mutex) }

    func broadcast() { pthread_cond_broadcast(condition) }

    func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}

/// Identifies the calling OS thread, to reject re-entrant writes that would otherwise deadlock.
struct ThreadID: Equatable {
    private let raw: pthread_t

    static var current: ThreadID { ThreadID(raw: pthread_self()) }

    static func == (a: ThreadID, b: ThreadID) -> Bool { pthread_equal(a.raw, b.raw) != 0 }
}
