#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A gate that opens once and stays open: threads waiting on it block until some thread opens it.
/// ``ChildProcess`` opens one when its child has been reaped, for `waitUntilExit()`.
final class ExitGate: @unchecked Sendable {  // `isOpen` is only touched while `mutex` is held
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let condition: UnsafeMutablePointer<pthread_cond_t>
    private var isOpen = false

    /// A closed gate.
    init() {
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        condition.deinitialize(count: 1)
        condition.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Opens the gate and wakes every waiter; opening an open gate does nothing.
    func open() {
        pthread_mutex_lock(mutex)
        isOpen = true
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Blocks the calling thread until the gate is open.
    func wait() {
        pthread_mutex_lock(mutex)
        while !isOpen { pthread_cond_wait(condition, mutex) }
        pthread_mutex_unlock(mutex)
    }
}
