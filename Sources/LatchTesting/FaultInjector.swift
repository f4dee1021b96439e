import Foundation
internal import LatchLocking
import LatchServer

/// Makes chosen routes of a test server misbehave (429 with `Retry-After`, 5xx, latency) and counts
/// every request the server receives, faulted or not, so a test can prove what did and did not
/// reach the server.
///
/// ``LatchTestServer`` installs one as ``LatchTestServer/faults``. Rules match a path exactly or by
/// suffix at a segment boundary, so `"/oauth2/v2.0/token"` matches `/default/oauth2/v2.0/token` in
/// every tenant. Matching rules apply in the order injected: delays add up, and the first error
/// rule answers. A rule limited to `times` expires after that many matching requests.
///
/// ```swift
/// server.faults.inject(.tooManyRequests(retryAfter: "1", times: 1), on: "/oauth2/v2.0/token")
/// // ... drive the client ...
/// #expect(server.faults.requestCount(path: "/oauth2/v2.0/token") == 2)
/// ```
///
/// Thread-safe: the server calls it on many worker threads at once. Requests the HTTP layer refuses
/// before routing (body or head over the limit) are neither faulted nor counted.
public final class FaultInjector: RequestInterceptor {
    private struct State {
        var rules: [(pattern: String, method: String?, rule: FaultRule, remaining: Int?)] = []
        var requests: [(method: String, path: String)] = []
    }

    private let state = Locked(State())
    private let clock: any ServerClock

    /// Creates an injector with no rules; `clock` stamps the `timestamp` of injected errors.
    public init(clock: any ServerClock = SystemClock()) {
        self.clock = clock
    }

    /// Applies `rule` to requests whose path is `path` or ends with it (a leading `/` is implied),
    /// and whose method is `method` (any method when `nil`).
    public func inject(_ rule: FaultRule, on path: String, method: String? = nil) {
        let pattern = Self.pattern(path)
        state.withLock { $0.rules.append((pattern, method?.uppercased(), rule, rule.times)) }
    }

    /// Removes every rule; the request log is kept.
    public func clear() {
        state.withLock { $0.rules.removeAll() }
    }

    /// Removes every rule and forgets every request seen.
    public func reset() {
        state.withLock {
            $0.rules.removeAll()
            $0.requests.removeAll()
        }
    }

    /// How many requests arrived whose path is `path` or ends with it (matched like rules), with
    /// `method` if given — faulted or not.
    public func requestCount(path: String, method: String? = nil) -> Int {
        let pattern = Self.pattern(path)
        let method = method?.uppercased()
        return state.withLock { state in
            state.requests.count { Self.matches(path: $0.path, pattern: pattern) && (method == nil || $0.method == method) }
        }
    }

    /// Every request seen since creation or ``reset()``, in arrival order.
    public func requests() -> [(method: String, path: String)] {
        state.withLock { $0.requests }
    }

    /// Records the request, applies matching rules, and returns the injected error, if any.
    public func intercept(method: String, path: String, headers: [String: String]) -> InterceptedResponse? {
        let (delay, fault) = state.withLock { state -> (Double, FaultRule?) in
            state.requests.append((method, path))
            var delay = 0.0
            var index = 0
            while index < state.rules.count {
                let entry = state.rules[index]
                guard Self.matches(path: path, pattern: entry.pattern), entry.method == nil || entry.method == method else {
                    index += 1
                    continue
                }
                if let remaining = entry.remaining, remaining <= 1 {
                    state.rules.remove(at: index)
                } else {
                    state.rules[index].remaining = entry.remaining.map { $0 - 1 }
                    index += 1
                }
                delay += entry.rule.delay
                if entry.rule.status != nil { return (delay, entry.rule) }
            }
            return (delay, nil)
        }
        if delay > 0 { Thread.sleep(forTimeInterval: delay) }
        guard let fault, let status = fault.status else { return nil }
        return response(status: status, retryAfter: fault.retryAfter, headers: headers)
    }

    /// The native-auth error envelope for an injected status.
    private func response(status: Int, retryAfter: String?, headers: [String: String]) -> InterceptedResponse {
        let traceID = headers["x-request-id"]
        let throttled = status == 429
        var envelope: [String: Any] = [
            "error": throttled ? "too_many_requests" : "server_error",
            "error_description": throttled
                ? "Too many requests; retry later. (Injected by FaultInjector.)"
                : "The server is unavailable (HTTP \(status)). (Injected by FaultInjector.)",
            "error_codes": [Int](),
            "timestamp": Self.timestamp(clock.now()),
        ]
        envelope["trace_id"] = traceID
        envelope["correlation_id"] = Self.saneClientRequestID(headers["client-request-id"]) ?? traceID
        let body = (try? JSONSerialization.data(withJSONObject: envelope, options: [.sortedKeys])) ?? Data()
        var fields = [("Content-Type", "application/json; charset=utf-8"), ("Cache-Control", "no-store")]
        if let retryAfter { fields.append(("Retry-After", retryAfter)) }
        return InterceptedResponse(status: status, headers: fields, body: Array(body))
    }

    /// The `client-request-id` the server would echo: 1...128 printable ASCII characters.
    private static func saneClientRequestID(_ value: String?) -> String? {
        guard let value, (1...128).contains(value.utf8.count), value.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
            return nil
        }
        return value
    }

    private static func pattern(_ path: String) -> String {
        path.hasPrefix("/") ? path : "/" + path
    }

    /// Exact, or a suffix starting at a `/`: the pattern always begins with one.
    private static func matches(path: String, pattern: String) -> Bool {
        path == pattern || path.hasSuffix(pattern)
    }

    /// `yyyy-MM-dd HH:mm:ssZ` in UTC, as the server writes `timestamp`.
    private static func timestamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss'Z'"
        return formatter.string(from: date)
    }
}
