import Foundation
import LatchCrypto
import LatchPostgres

/// In-process counters rendered in the Prometheus text exposition format 0.0.4: requests by route,
/// method and status; a request-latency histogram by route; sign-in outcomes.
public final class Metrics: Sendable {
    /// Upper bounds of the latency histogram buckets, in seconds.
    static let buckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5]

    private struct RequestKey: Hashable {
        let route: String
        let method: String
        let status: Int
    }

    private struct Histogram {
        var counts = [Int](repeating: 0, count: Metrics.buckets.count)
        var sum: Double = 0
        var count = 0
    }

    private struct State {
        var requests: [RequestKey: Int] = [:]
        var latency: [String: Histogram] = [:]
        var signIns: [String: Int] = [:]

        static func merged(_ stripes: [State]) -> State {
            var total = State()
            for stripe in stripes {
                total.requests.merge(stripe.requests, uniquingKeysWith: +)
                total.signIns.merge(stripe.signIns, uniquingKeysWith: +)
                total.latency.merge(stripe.latency) { left, right in
                    var sum = left
                    for index in sum.counts.indices { sum.counts[index] += right.counts[index] }
                    sum.sum += right.sum
                    sum.count += right.count
                    return sum
                }
            }
            return total
        }
    }

    private let state = StripedState { State() }
    private let connectionEndings = ReadMostly<(@Sendable () -> [String: Int])?>(nil)

    private let storePool = ReadMostly<(@Sendable () -> PostgresPoolStatistics)?>(nil)

    /// Where the PostgreSQL pool's counters come from, when the store is PostgreSQL.
    func setStorePool(_ provider: @escaping @Sendable () -> PostgresPoolStatistics) {
        storePool.write { $0 = provider }
    }

    /// Where the HTTP server's counts of abnormally ended connections come from (by reason).
    func setConnectionEndings(_ provider: @escaping @Sendable () -> [String: Int]) {
        connectionEndings.write { $0 = provider }
    }

    /// Creates an empty registry.
    public init() {}

    /// Counts one request.
    public func record(route: String, method: String, status: Int, seconds: Double) {
        state.update { state in
            state.requests[RequestKey(route: route, method: method, status: status), default: 0] += 1
            var histogram = state.latency[route] ?? Histogram()
            if let index = Self.buckets.firstIndex(where: { seconds <= $0 }) { histogram.counts[index] += 1 }
            histogram.sum += seconds
            histogram.count += 1
            state.latency[route] = histogram
        }
    }

    /// The method label: one of the methods the server routes, else `OTHER`, so label cardinality
    /// stays bounded whatever clients send.
    public static func methodLabel(_ method: String) -> String {
        ["GET", "POST", "HEAD", "PUT", "DELETE", "PATCH", "OPTIONS"].contains(method) ? method : "OTHER"
    }

    /// Counts one sign-in outcome.
    public func record(signIn outcome: SignInOutcome) {
        state.update { $0.signIns[outcome.rawValue, default: 0] += 1 }
    }

    /// The exposition text.
    public func render() -> String {
        let snapshot = State.merged(state.snapshot())
        var out = "# HELP latch_http_requests_total HTTP requests by route, method and status.\n"
        out += "# TYPE latch_http_requests_total counter\n"
        for (key, count) in snapshot.requests.sorted(by: { ($0.key.route, $0.key.status) < ($1.key.route, $1.key.status) }) {
            out +=
                "latch_http_requests_total{route=\"\(escape(key.route))\",method=\"\(key.method)\",status=\"\(key.status)\"} \(count)\n"
        }
        out += "# HELP latch_http_request_duration_seconds Request latency by route.\n"
        out += "# TYPE latch_http_request_duration_seconds histogram\n"
        for (route, histogram) in snapshot.latency.sorted(by: { $0.key < $1.key }) {
            var cumulative = 0
            for (index, bound) in Self.buckets.enumerated() {
                cumulative += histogram.counts[index]
                out += "latch_http_request_duration_seconds_bucket{route=\"\(escape(route))\",le=\"\(bound)\"} \(cumulative)\n"
            }
            out += "latch_http_request_duration_seconds_bucket{route=\"\(escape(route))\",le=\"+Inf\"} \(histogram.count)\n"
            out += "latch_http_request_duration_seconds_sum{route=\"\(escape(route))\"} \(histogram.sum)\n"
            out += "latch_http_request_duration_seconds_count{route=\"\(escape(route))\"} \(histogram.count)\n"
        }
        let hashing = Argon2idHasher.statistics
        out += "# HELP latch_password_hashes_total Argon2id hashes and verifications computed.\n"
        out += "# TYPE latch_password_hashes_total counter\nlatch_password_hashes_total \(hashing.count)\n"
        out += "# HELP latch_password_hash_cpu_seconds_total Thread CPU time spent in Argon2id.\n"
        out += "# TYPE latch_password_hash_cpu_seconds_total counter\n"
        out += "latch_password_hash_cpu_seconds_total \(hashing.cpuSeconds)\n"
        if let endings = connectionEndings.read({ $0 })?() {
            out += "# HELP latch_http_connections_ended_abnormally_total Connections ended by a timeout, abort or limit.\n"
            out += "# TYPE latch_http_connections_ended_abnormally_total counter\n"
            for (reason, count) in endings.sorted(by: { $0.key < $1.key }) {
                out += "latch_http_connections_ended_abnormally_total{reason=\"\(escape(reason))\"} \(count)\n"
            }
        }
        if let pool = storePool.read({ $0 })?() {
            out += Self.render(pool)
        }
        out += "# HELP latch_sign_ins_total Sign-in attempts by outcome.\n"
        out += "# TYPE latch_sign_ins_total counter\n"
        for outcome in SignInOutcome.allCases {
            out += "latch_sign_ins_total{outcome=\"\(outcome.rawValue)\"} \(snapshot.signIns[outcome.rawValue] ?? 0)\n"
        }
        return out
    }

    /// The PostgreSQL pool's gauges and counters.
    private static func render(_ pool: PostgresPoolStatistics) -> String {
        let rows: [(String, String, String, Int)] = [
            ("latch_store_connections_open", "gauge", "PostgreSQL connections open, lent or idle.", pool.open),
            ("latch_store_connections_in_use", "gauge", "PostgreSQL connections lent to a unit of work.", pool.inUse),
            ("latch_store_connections_max", "gauge", "Most PostgreSQL connections this instance opens.", pool.capacity),
            ("latch_store_connection_waits_total", "counter", "Units that waited for a free connection.", pool.waits),
            (
                "latch_store_connection_wait_timeouts_total", "counter",
                "Units that found no free connection in time (answered 503).", pool.waitTimeouts
            ),
            (
                "latch_store_retries_total", "counter", "Write units run again after a serialization failure or deadlock.",
                pool.retries
            ),
            (
                "latch_store_connection_failures_total", "counter",
                "Connections that failed or could not be opened.", pool.connectionFailures
            ),
        ]
        var out = ""
        for (name, type, help, value) in rows {
            out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n\(name) \(value)\n"
        }
        return out
    }

    private func escape(_ label: String) -> String {
        // Exposition format 0.0.4: backslash, double quote and line feed are escaped in label values.
        label.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }
}
