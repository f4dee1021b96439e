#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// State updated on every request from many threads (metrics), split into stripes chosen by the
/// calling thread, so threads rarely share a lock; readers merge the stripes.
final class StripedState<State>: @unchecked Sendable {  // each stripe's state is accessed only under its mutex
    private final class Stripe {
        var state: State
        let lock: UnsafeMutablePointer<pthread_mutex_t>

        init(_ state: State) {
            self.state = state
            lock = .allocate(capacity: 1)
            lock.initialize(to: pthread_mutex_t())
            pthread_mutex_init(lock, nil)
        }

        deinit {
            pthread_mutex_destroy(lock)
            lock.deallocate()
        }
    }

    private let stripes: [Stripe]

    init(stripes count: Int = 16, initial: () -> State) {
        stripes = (0..<max(1, count)).map { _ in Stripe(initial()) }
    }

    /// Updates the calling thread's stripe.
    func update(_ body: (inout State) -> Void) {
        let stripe = stripes[Self.threadIndex(count: stripes.count)]
        pthread_mutex_lock(stripe.lock)
        body(&stripe.state)
        pthread_mutex_unlock(stripe.lock)
    }

    /// A copy of every stripe's state.
    func snapshot() -> [State] {
        stripes.map { stripe in
            pthread_mutex_lock(stripe.lock)
            defer { pthread_mutex_unlock(stripe.lock) }
            return stripe.state
        }
    }

    private static func threadIndex(count: Int) -> Int {
        #if canImport(Glibc)
            let identity = UInt(pthread_self())
        #else
            let identity = UInt(bitPattern: pthread_self())
        #endif
        // Thread descriptors are page-aligned and far apart: mix the bits before reducing.
        return Int(truncatingIfNeeded: (UInt64(identity) &* 0x9E37_79B9_7F4A_7C15) >> 40) % count
    }
}
