#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A pthread mutex with one condition variable, for state that threads must wait on.
///
/// `Synchronization.Mutex` has no condition variable, and the callers are plain OS
/// threads (HTTP workers) for which blocking is the intended behaviour.
// @unchecked Sendable: the pthread objects are heap-allocated, never move, and are only used through pthread calls, which are thread-safe.
package final class ConditionLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>

    /// A new, unlocked mutex and its condition.
    package init() {
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

    /// Acquires the mutex.
    package func lock() { pthread_mutex_lock(mutex) }

    /// Releases the mutex.
    package func unlock() { pthread_mutex_unlock(mutex) }

    /// Releases the mutex, sleeps until a broadcast, and re-acquires it; callers must re-check their predicate.
    package func wait() { pthread_cond_wait(condition, mutex) }

    /// Like ``wait()``, but gives up after `seconds`; returns `false` when the time ran out
    /// (`pthread_cond_timedwait` against `CLOCK_REALTIME`). Callers re-check their predicate either way.
    package func wait(seconds: Double) -> Bool {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let total = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9 + max(0, seconds)
        var deadline = timespec()
        deadline.tv_sec = Int(total)
        deadline.tv_nsec = Int((total - Double(Int(total))) * 1e9)
        return pthread_cond_timedwait(condition, mutex, &deadline) == 0
    }

    /// Wakes every waiter.
    package func broadcast() { pthread_cond_broadcast(condition) }

    /// Runs `body` with the mutex held.
    package func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}
