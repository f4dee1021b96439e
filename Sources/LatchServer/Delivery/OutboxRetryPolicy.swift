import Foundation

/// When the outbox worker tries a failed delivery again, and when it gives up.
///
/// After the n-th failed attempt the next one waits `firstDelay · 2^(n-1)`, at most ``maximumDelay``
/// (5 s, 10 s, 20 s, … 10 min with the defaults), shortened by a random fraction of at most
/// ``jitter`` so that messages failing together do not come back together ("exponential backoff
/// with jitter"). The message is abandoned (a dead letter) once ``maximumAttempts`` attempts have
/// failed: 8 by default, about 10 minutes after the first.
///
/// ```swift
/// var policy = OutboxRetryPolicy()
/// policy.maximumAttempts = 12          // `latchd serve --outbox-max-attempts 12`
/// policy.delay(afterAttempt: 3)        // 18 to 20 seconds
/// ```
public struct OutboxRetryPolicy: Sendable, Equatable {
    /// How many failed attempts abandon a message (at least 1).
    public var maximumAttempts: Int = 8
    /// The wait after the first failed attempt, in seconds.
    public var firstDelay: TimeInterval = 5
    /// The longest wait between two attempts, in seconds.
    public var maximumDelay: TimeInterval = 600
    /// The largest fraction (0 to 1) by which a wait is shortened at random; 0 makes waits exact.
    public var jitter: Double = 0.1

    /// The defaults: 8 attempts, 5 s doubling to at most 10 minutes, 10 % jitter.
    public init() {}

    /// Whether a message whose deliveries failed `attempts` times is abandoned.
    public func abandons(afterAttempts attempts: Int) -> Bool {
        attempts >= max(1, maximumAttempts)
    }

    /// The wait, in seconds, after the `attempt`-th failed attempt (1 for the first).
    /// - Parameter random: a number in `0..<1` choosing the jitter (random by default).
    public func delay(afterAttempt attempt: Int, random: Double = Double.random(in: 0..<1)) -> TimeInterval {
        let doublings = Double(min(max(attempt, 1) - 1, 62))
        let exact = min(firstDelay * pow(2, doublings), maximumDelay)
        let fraction = min(max(jitter, 0), 1) * min(max(random, 0), 1)
        return exact * (1 - fraction)
    }
}
