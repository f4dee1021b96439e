import Foundation
import LatchHTTP
internal import LatchLocking

/// The server's structured log: one line per event on standard error, as text
/// (`2026-12-01T09:30:00Z info message request_id=… tenant=… key=value`) or as one JSON object per
/// line (`{"ts":…,"level":…,"msg":…,"request_id":…,"tenant":…}`), chosen by `--log-format`.
///
/// A line about a request carries its request id, correlation id, tenant and matched route.
/// Callers pass ids, counts and reasons, never passwords, codes or tokens; the development outbox
/// line (`--dev` only) is the one deliberate exception, so a developer can read codes.
public struct ServerLog: Sendable {
    /// How lines are written.
    public enum Format: String, Sendable, CaseIterable {
        /// `timestamp level message key=value…`
        case text
        /// One JSON object per line (RFC 8259), for log shippers.
        case json
    }

    /// A severity.
    public enum Level: String, Sendable {
        case info, warning, error
    }

    /// The format lines are written in.
    public let format: Format
    private let sink: @Sendable (String) -> Void

    /// A log that hands each formatted line (without its newline) to `sink`.
    public init(format: Format = .text, sink: @escaping @Sendable (String) -> Void) {
        self.format = format
        self.sink = sink
    }

    /// Writes to standard error, one line per event.
    public static func standardError(format: Format) -> ServerLog {
        ServerLog(format: format) { line in
            let text = line + "\n"
            StandardErrorLock.shared.withLock { _ in FileHandle.standardError.write(Data(text.utf8)) }
        }
    }

    /// Text lines on standard error.
    public static let standardError = standardError(format: .text)

    /// Discards everything.
    public static let silent = ServerLog { _ in }

    /// Logs an informational line.
    public func info(_ message: String, _ fields: [(String, String)] = [], request: HTTPRequest? = nil) {
        write(.info, message, fields, request: request)
    }

    /// Logs a warning line.
    public func warning(_ message: String, _ fields: [(String, String)] = [], request: HTTPRequest? = nil) {
        write(.warning, message, fields, request: request)
    }

    /// Logs an error line.
    public func error(_ message: String, _ fields: [(String, String)] = [], request: HTTPRequest? = nil) {
        write(.error, message, fields, request: request)
    }

    /// Formats and writes one line.
    public func write(_ level: Level, _ message: String, _ fields: [(String, String)], request: HTTPRequest?) {
        var all: [(String, String)] = []
        if let request {
            all.append(("request_id", request.requestID))
            all.append(("correlation_id", request.correlationID))
            if let tenant = request.pathParameters["tenant"] { all.append(("tenant", tenant)) }
            if let route = request.routePattern { all.append(("route", route)) }
        }
        all += fields
        let stamp = UTCTimestamp.rfc3339()
        switch format {
        case .text:
            var line = "\(stamp) \(level.rawValue) \(message)"
            for (key, value) in all { line += " \(key)=\(Self.textValue(value))" }
            sink(line)
        case .json:
            var object = "{\"ts\":\(Self.jsonString(stamp)),\"level\":\(Self.jsonString(level.rawValue))"
            object += ",\"msg\":\(Self.jsonString(message))"
            for (key, value) in all { object += ",\(Self.jsonString(key)):\(Self.jsonString(value))" }
            sink(object + "}")
        }
    }

    /// A value as text: bare when it is one printable word, else quoted with `\` escapes.
    private static func textValue(_ value: String) -> String {
        let plain = !value.isEmpty && value.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F && $0 != "\"" }
        return plain ? value : jsonString(value)
    }

    /// `value` as a JSON string literal (RFC 8259 § 7).
    static func jsonString(_ value: String) -> String { JSONWriter.quoted(value) }
}

/// Serializes writes to standard error so lines never interleave.
enum StandardErrorLock {
    static let shared = Locked<Void>(())
}
