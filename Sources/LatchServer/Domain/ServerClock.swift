import Foundation

/// The source of "now" for every expiry decision, injectable so tests can move time instantly.
public protocol ServerClock: Sendable {
    /// The current instant.
    func now() -> Date
}

/// The system wall clock.
public struct SystemClock: ServerClock {
    /// Creates the system clock.
    public init() {}
    /// The current instant.
    public func now() -> Date { Date() }
}
