#if canImport(Darwin)
    import os
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A value behind a lock, on every platform the package declares: `Synchronization.Mutex` and
/// `Atomic` need macOS 15 and iOS 18, and the package declares macOS 14 and iOS 17. The lock is
/// an `os_unfair_lock` on Apple platforms and a `pthread_mutex_t` elsewhere, allocated once and
/// never moved; both cost a few nanoseconds when uncontended.
///
/// Every module of the package uses this one box, the SDK and the server alike, so that none of
/// them needs a newer platform than the package declares.
package final class Locked<Value>: @unchecked Sendable {  // `value` is only touched while `lock` is held
    @usableFromInline var value: Value
    @usableFromInline let lock: UnsafeMutablePointer<PlatformLock>

    /// A box holding `value`.
    package init(_ value: Value) {
        self.value = value
        lock = UnsafeMutablePointer<PlatformLock>.allocate(capacity: 1)
        #if canImport(Darwin)
            lock.initialize(to: os_unfair_lock())
        #else
            lock.initialize(to: pthread_mutex_t())
            pthread_mutex_init(lock, nil)
        #endif
    }

    deinit {
        #if !canImport(Darwin)
            pthread_mutex_destroy(lock)
        #endif
        lock.deinitialize(count: 1)
        lock.deallocate()
    }

    /// Runs `body` with the value while holding the lock; `body` must not call back into this box.
    @inlinable
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        acquire()
        defer { release() }
        return try body(&value)
    }

    @inlinable
    func acquire() {
        #if canImport(Darwin)
            os_unfair_lock_lock(lock)
        #else
            pthread_mutex_lock(lock)
        #endif
    }

    @inlinable
    func release() {
        #if canImport(Darwin)
            os_unfair_lock_unlock(lock)
        #else
            pthread_mutex_unlock(lock)
        #endif
    }
}

#if canImport(Darwin)
    @usableFromInline typealias PlatformLock = os_unfair_lock
#else
    @usableFromInline typealias PlatformLock = pthread_mutex_t
#endif

extension Locked {
    /// The value now.
    @inlinable
    package func load() -> Value { withLock { $0 } }

    /// Replaces the value.
    @inlinable
    package func store(_ newValue: Value) { withLock { $0 = newValue } }

    /// Replaces the value and returns the one it replaced.
    @inlinable
    package func exchange(_ newValue: Value) -> Value {
        withLock { value in
            let old = value
            value = newValue
            return old
        }
    }
}

extension Locked where Value: FixedWidthInteger {
    /// Adds `amount`, wrapping on overflow, and returns the new value.
    @inlinable
    @discardableResult
    package func add(_ amount: Value) -> Value {
        withLock { value in
            value &+= amount
            return value
        }
    }

    /// Subtracts `amount`, wrapping on overflow, and returns the new value.
    @inlinable
    @discardableResult
    package func subtract(_ amount: Value) -> Value {
        withLock { value in
            value &-= amount
            return value
        }
    }
}
