/// Where the SDK's diagnostic lines go. Silent by default; lines never contain passwords, codes
/// or tokens.
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

    func log(_ level: Level, _ message: @autoclosure () -> String) {
        guard level >= self.level else { return }
        sink(level, message())
    }
}
