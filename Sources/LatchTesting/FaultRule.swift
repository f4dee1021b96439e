import Foundation

/// One fault a ``FaultInjector`` applies to matching requests: an injected error response, or a
/// delay before the server answers normally.
///
/// ```swift
/// server.faults.inject(.tooManyRequests(retryAfter: "2", times: 1), on: "/oauth2/v2.0/token")
/// server.faults.inject(.serverError(status: 503), on: "/oauth2/v2.0/initiate")
/// server.faults.inject(.delay(seconds: 0.5), on: "/oauth2/v2.0/token")
/// ```
public struct FaultRule: Sendable, Equatable {
    /// The injected status, or `nil` for a rule that only delays and then lets the server answer.
    public let status: Int?
    /// The `Retry-After` value sent with the injected error, verbatim (RFC 9110 §10.2.3).
    public let retryAfter: String?
    /// Seconds to wait before answering (or passing the request on).
    public let delay: Double
    /// How many matching requests the rule applies to before it expires; `nil` for every one.
    public let times: Int?

    private init(status: Int?, retryAfter: String?, delay: Double, times: Int?) {
        precondition(times.map { $0 > 0 } ?? true, "times must be positive")
        precondition(delay >= 0 && delay.isFinite, "delay must be a finite, non-negative number of seconds")
        self.status = status
        self.retryAfter = retryAfter
        self.delay = delay
        self.times = times
    }

    /// Answers 429 with `error: too_many_requests` and a `Retry-After` header (RFC 6585 §4).
    ///
    /// - Parameters:
    ///   - retryAfter: The header value, sent verbatim: delay seconds (`"5"`) or an HTTP-date
    ///     (`"Wed, 21 Oct 2015 07:28:00 GMT"`); `nil` sends no header.
    ///   - times: How many matching requests to throttle; `nil` throttles every one.
    public static func tooManyRequests(retryAfter: String?, times: Int? = nil) -> FaultRule {
        FaultRule(status: 429, retryAfter: retryAfter, delay: 0, times: times)
    }

    /// Answers 429 with a `Retry-After` HTTP-date (IMF-fixdate, RFC 9110 §5.6.7) for `date`.
    public static func tooManyRequests(retryAfter date: Date, times: Int? = nil) -> FaultRule {
        tooManyRequests(retryAfter: httpDate(date), times: times)
    }

    /// Answers `status` (500...599) with `error: server_error`, and `Retry-After` if given.
    public static func serverError(status: Int = 503, retryAfter: String? = nil, times: Int? = nil) -> FaultRule {
        precondition((500...599).contains(status), "serverError needs a 5xx status, got \(status)")
        return FaultRule(status: status, retryAfter: retryAfter, delay: 0, times: times)
    }

    /// Waits `seconds`, then lets the server answer as usual. The wait blocks one HTTP worker thread.
    public static func delay(seconds: Double, times: Int? = nil) -> FaultRule {
        FaultRule(status: nil, retryAfter: nil, delay: seconds, times: times)
    }

    /// `date` as an IMF-fixdate, e.g. `Wed, 21 Oct 2015 07:28:00 GMT`.
    public static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}
