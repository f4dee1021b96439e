import Foundation

#if canImport(os)
    import os
#endif

/// Where the SDK's diagnostic lines go. Silent by default.
///
/// At ``Level/debug`` the SDK writes one line per request (`request POST /default/oauth2/v2.0/token
/// status=200 duration_ms=41 attempt=1 correlation_id=…`), per flow step (`flow=sign_in
/// step=submit_code outcome=completed correlation_id=…`) and per silent-acquisition decision
/// (`token decision=refresh account=… reason=expiring correlation_id=…`): cache hits, refreshes
/// and why, throttling, ended sessions. Every line names the correlation id of the flow it is
/// about. Lines never contain passwords, codes, tokens or usernames.
///
/// ```swift
/// LatchConfiguration(serverURL: url, clientID: "my-app", logger: .system(level: .debug))
/// ```
public struct LatchLogger: Sendable {
    /// Severity of a line.
    public enum Level: Int, Sendable, Comparable {
        case debug, info, warning, error
        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The lowest level written.
    public var level: Level
    private let sink: @Sendable (Level, String) -> Void

    /// A logger writing lines at `level` and above to `sink`.
    public init(level: Level = .info, sink: @escaping @Sendable (Level, String) -> Void) {
        self.level = level
        self.sink = sink
    }

    /// Writes nothing.
    public static let silent = LatchLogger(level: .error) { _, _ in }

    /// The platform's log: the unified log (`os_log`, subsystem `dev.latch.sdk`) on Apple
    /// platforms, one line per entry on standard error elsewhere.
    public static func system(level: Level = .info) -> LatchLogger {
        #if canImport(os)
            let log = Logger(subsystem: "dev.latch.sdk", category: "Latch")
            return LatchLogger(level: level) { level, message in
                // Lines hold no secrets (see above), so they are public in the unified log.
                log.log(level: level.osLogType, "\(message, privacy: .public)")
            }
        #else
            return LatchLogger(level: level) { level, message in
                FileHandle.standardError.write(Data("latch \(level.name) \(message)\n".utf8))
            }
        #endif
    }

    func log(_ level: Level, _ message: @autoclosure () -> String) {
        guard level >= self.level else { return }
        sink(level, message())
    }
}

extension LatchLogger.Level {
    /// The level's name in standard-error lines.
    var name: String {
        switch self {
        case .debug: "debug"
        case .info: "info"
        case .warning: "warning"
        case .error: "error"
        }
    }

    #if canImport(os)
        /// The unified log's type for this level.
        var osLogType: OSLogType {
            switch self {
            case .debug: .debug
            case .info: .info
            case .warning: .default
            case .error: .error
            }
        }
    #endif
}
