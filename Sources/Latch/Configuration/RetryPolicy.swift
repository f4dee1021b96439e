import Foundation

/// When and how the SDK retries a failed request by itself.
///
/// Retries use jittered exponential backoff (`baseDelay × 2^(attempt−1)`, scaled by a random factor
/// in `1 − jitter … 1`, capped at `maxDelay`) and honour `Retry-After` (RFC 9110 § 10.2.3, seconds
/// or HTTP-date) up to `maxRetryAfter`; a longer wait is not slept through but returned to the app
/// as ``LatchError/Code/tooManyRequests`` with ``LatchError/retryAfter``.
///
/// A request the server may already have applied is never re-sent silently: requests that change
/// state (submitting a code or password, sending a code, refreshing a token) are retried only when
/// the failure proves the server did not process them — the connection could not be made, or the
/// server answered 429/503. Read-only requests are also retried after 5xx answers and timeouts.
public struct RetryPolicy: Sendable {
    /// Attempts in total, including the first; 1 turns retries off.
    public var maxAttempts: Int
    /// The first backoff delay in seconds.
    public var baseDelay: TimeInterval
    /// The longest backoff delay in seconds.
    public var maxDelay: TimeInterval
    /// The longest `Retry-After` the SDK waits by itself, in seconds.
    public var maxRetryAfter: TimeInterval
    /// How much of each delay is randomised (0 = none, 1 = anywhere from 0 to the full delay).
    public var jitter: Double

    /// Creates a policy.
    public init(
        maxAttempts: Int = 3, baseDelay: TimeInterval = 0.5, maxDelay: TimeInterval = 8, maxRetryAfter: TimeInterval = 10,
        jitter: Double = 0.5
    ) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.maxRetryAfter = maxRetryAfter
        self.jitter = min(max(jitter, 0), 1)
    }

    /// Three attempts, 0.5 s base, `Retry-After` honoured up to 10 s.
    public static let `default` = RetryPolicy()
    /// No retries.
    public static let none = RetryPolicy(maxAttempts: 1)

    /// The delay before attempt `attempt + 1` after attempt `attempt` failed, or `nil` to stop.
    /// - Parameters:
    ///   - attempt: the attempt that failed, from 1.
    ///   - retryAfter: the server's `Retry-After`, if any.
    func delay(after attempt: Int, retryAfter: TimeInterval?) -> TimeInterval? {
        guard attempt < maxAttempts else { return nil }
        if let retryAfter {
            return retryAfter <= maxRetryAfter ? max(0, retryAfter) : nil
        }
        let exponential = min(maxDelay, baseDelay * pow(2, Double(attempt - 1)))
        return exponential * (1 - jitter * Double.random(in: 0...1))
    }

    /// Parses a `Retry-After` value: delay-seconds or an HTTP-date (RFC 9110 § 10.2.3), relative to `now`.
    static func parseRetryAfter(_ value: String?, now: Date) -> TimeInterval? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Int(value) { return TimeInterval(max(0, seconds)) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: value) { return max(0, date.timeIntervalSince(now)) }
        }
        return nil
    }
}
