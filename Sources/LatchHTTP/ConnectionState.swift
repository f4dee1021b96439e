internal import LatchLocking

#if canImport(Darwin)
    import Darwin
#else
    import Glibc
#endif

/// One open connection as the server tracks it across libmicrohttpd's callbacks: created when the
/// connection is accepted (`MHD_CONNECTION_NOTIFY_STARTED`), kept in its socket context, and
/// dropped when it closes. It carries the deadline by which the request under way must have
/// arrived (``HTTPServerConfiguration/headerTimeoutSeconds``), which ``ConnectionRegistry``
/// enforces from its own thread.
final class ConnectionState: Sendable {
    /// The connection's socket: shut down (never closed: libmicrohttpd owns it) when the deadline
    /// passes, so that libmicrohttpd's worker sees the end of the stream and closes it.
    let descriptor: Int32
    /// Monotonic milliseconds by which the current request must have arrived; ``noDeadline``
    /// while none is awaited, ``expired`` once the registry has cut the connection off.
    private let deadline: Locked<Int64>

    static let noDeadline: Int64 = 0
    static let expired: Int64 = -1

    init(descriptor: Int32, deadline: Int64) {
        self.descriptor = descriptor
        self.deadline = Locked(deadline)
    }

    /// Whether the registry cut this connection off for missing its deadline.
    var isExpired: Bool { deadline.load() == Self.expired }

    /// Awaits a request by `milliseconds` from now, or by the deadline already set if earlier.
    func expectRequest(within milliseconds: Int64) {
        let proposed = MonotonicClock.milliseconds() + milliseconds
        update { current in current == Self.noDeadline ? proposed : min(current, proposed) }
    }

    /// Awaits the next request by `milliseconds` from now, replacing any deadline.
    func expectNextRequest(within milliseconds: Int64) {
        let proposed = MonotonicClock.milliseconds() + milliseconds
        update { _ in proposed }
    }

    /// The request has arrived (or was refused): no deadline until the next one.
    func requestArrived() {
        update { _ in Self.noDeadline }
    }

    /// Marks the connection expired if its deadline is at or before `now`; `true` if it was.
    func expire(at now: Int64) -> Bool {
        deadline.withLock { current in
            guard current > Self.noDeadline, current <= now else { return false }
            current = Self.expired
            return true
        }
    }

    /// Applies `change` unless the connection has expired.
    private func update(_ change: (Int64) -> Int64) {
        deadline.withLock { current in
            if current != Self.expired { current = change(current) }
        }
    }
}

/// `CLOCK_MONOTONIC` in milliseconds: cheap, never steps back, and an integer that is cheap to compare.
enum MonotonicClock {
    static func milliseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000
    }
}
