import Foundation
internal import LatchLocking
import LatchServer

/// A clock tests move by hand, so expiry (codes, continuation tokens, refresh sessions) is tested
/// instantly.
public final class TestClock: ServerClock {
    private let current: Locked<Date>

    /// Starts at `start` (default: the real time now, truncated to a whole second, so issued JWTs
    /// are valid for real verifiers and second-resolution timestamps compare exactly).
    public init(start: Date = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))) {
        current = Locked(start)
    }

    /// The clock's instant.
    public func now() -> Date { current.withLock { $0 } }

    /// Moves the clock forward.
    public func advance(by seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
}
