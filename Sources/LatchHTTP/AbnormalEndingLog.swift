internal import LatchLocking

/// Counts connections that ended abnormally and keeps libmicrohttpd's per-connection messages
/// from flooding the log: a client resetting or abandoning thousands of connections must cost a
/// line or two, not thousands.
///
/// Each ending is counted by ``ConnectionEnding`` (totals for metrics, and a window for the log).
/// Each libmicrohttpd message is logged the first time its format string is seen in a window and
/// only counted after that. ``flush(now:)``, called by the server's housekeeping thread every
/// ``HTTPServerConfiguration/abnormalEndingLogIntervalSeconds`` and at shutdown, writes one
/// summary line for the window if anything happened in it:
///
///     connections ended abnormally in the last 60 s: 2000 (header timeout 1990, client abort 10); 1999 repeated libmicrohttpd messages not shown
final class AbnormalEndingLog: Sendable {
    private struct State {
        var totals: [ConnectionEnding: Int] = [:]
        var window: [ConnectionEnding: Int] = [:]
        var windowStart: Int64
        var messagesSeen: Set<String> = []
        var messagesNotShown = 0
    }

    /// Distinct libmicrohttpd messages shown per window; further ones are only counted.
    private static let distinctMessagesPerWindow = 32

    private let state: Locked<State>
    private let log: @Sendable (String) -> Void

    init(log: @escaping @Sendable (String) -> Void) {
        self.log = log
        self.state = Locked(State(windowStart: MonotonicClock.milliseconds()))
    }

    /// Counts `count` connections that ended for `reason`.
    func record(_ reason: ConnectionEnding, count: Int = 1) {
        guard count > 0 else { return }
        state.withLock { state in
            state.totals[reason, default: 0] += count
            state.window[reason, default: 0] += count
        }
    }

    /// Every reason with its total since the server started, zero included.
    var totals: [ConnectionEnding: Int] {
        let totals = state.withLock { $0.totals }
        return Dictionary(uniqueKeysWithValues: ConnectionEnding.all.map { ($0, totals[$0] ?? 0) })
    }

    /// A libmicrohttpd message after start-up: `line` is logged if `format` was not seen yet in
    /// this window, else only counted. A connection turned away at a limit is also recorded.
    func libmicrohttpdMessage(format: String, line: String) {
        let show = state.withLock { state in
            if format.contains("connection limit") {
                state.totals[.connectionLimit, default: 0] += 1
                state.window[.connectionLimit, default: 0] += 1
            }
            guard !state.messagesSeen.contains(format), state.messagesSeen.count < Self.distinctMessagesPerWindow else {
                state.messagesNotShown += 1
                return false
            }
            state.messagesSeen.insert(format)
            return true
        }
        if show { log(line) }
    }

    /// Writes the summary of the window ending `now` if anything happened in it, then starts a new one.
    func flush(now: Int64) {
        let line: String? = state.withLock { state in
            defer {
                state.window = [:]
                state.messagesSeen = []
                state.messagesNotShown = 0
                state.windowStart = now
            }
            return Self.summary(
                of: state.window, messagesNotShown: state.messagesNotShown,
                seconds: max(1, Int((Double(now - state.windowStart) / 1000).rounded())))
        }
        if let line { log(line) }
    }

    /// The summary line, or `nil` when there is nothing to say.
    static func summary(of window: [ConnectionEnding: Int], messagesNotShown: Int, seconds: Int) -> String? {
        var parts: [String] = []
        let total = window.values.reduce(0, +)
        if total > 0 {
            let order = ConnectionEnding.all
            let reasons = window.filter { $0.value > 0 }.sorted { left, right in
                left.value != right.value
                    ? left.value > right.value
                    : (order.firstIndex(of: left.key) ?? order.count) < (order.firstIndex(of: right.key) ?? order.count)
            }
            let breakdown = reasons.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            parts.append("connections ended abnormally in the last \(seconds) s: \(total) (\(breakdown))")
        }
        if messagesNotShown > 0 {
            let noun = messagesNotShown == 1 ? "message" : "messages"
            parts.append(
                total > 0
                    ? "\(messagesNotShown) repeated libmicrohttpd \(noun) not shown"
                    : "\(messagesNotShown) repeated libmicrohttpd \(noun) not shown in the last \(seconds) s")
        }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }
}
