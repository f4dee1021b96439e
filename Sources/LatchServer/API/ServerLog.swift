import Foundation
import Synchronization

/// Line-oriented server log on standard error. Never given secrets: callers log ids and reasons,
/// not passwords, codes or tokens (the development outbox line is the one deliberate exception,
/// and exists only under `--dev`).
public struct ServerLog: Sendable {
    private let sink: @Sendable (String) -> Void

    /// A log that writes to `sink`.
    public init(sink: @escaping @Sendable (String) -> Void) { self.sink = sink }

    /// Writes to standard error, one line per message, timestamped.
    public static let standardError = ServerLog { line in
        let stamp = ISO8601DateFormatter.string(from: Date(), timeZone: .gmt, formatOptions: [.withInternetDateTime])
        let text = "\(stamp) \(line)\n"
        StandardErrorLock.shared.withLock { _ in FileHandle.standardError.write(Data(text.utf8)) }
    }

    /// Discards everything.
    public static let silent = ServerLog { _ in }

    /// Logs an informational line.
    public func info(_ message: String) { sink("info \(message)") }
    /// Logs an error line.
    public func error(_ message: String) { sink("error \(message)") }
    /// Logs a warning line.
    public func warning(_ message: String) { sink("warning \(message)") }
}

/// Serializes writes to standard error so lines never interleave.
enum StandardErrorLock {
    static let shared = Mutex<Void>(())
}
