/// How durable a commit is when `write` returns, as set by `PRAGMA synchronous`
/// in WAL mode (https://sqlite.org/pragma.html#pragma_synchronous, https://sqlite.org/wal.html#performance_considerations).
public enum SQLiteDurability: String, Sendable, CaseIterable {
    /// `synchronous=FULL`: every commit fsyncs the WAL before returning, so a
    /// returned write survives power loss.
    case full
    /// `synchronous=NORMAL`: the WAL is fsynced only at checkpoints. Crash-safe
    /// (the database is never corrupted) but the last commits may be lost on
    /// power loss or an OS crash; a process crash loses nothing.
    case normal

    /// The value for `PRAGMA synchronous` (https://sqlite.org/pragma.html#pragma_synchronous).
    var pragmaValue: String {
        switch self {
        case .full: return "FULL"
        case .normal: return "NORMAL"
        }
    }

    /// The integer `PRAGMA synchronous` reports for this level (https://sqlite.org/pragma.html#pragma_synchronous).
    public var pragmaNumber: Int64 {
        switch self {
        case .full: return 2
        case .normal: return 1
        }
    }
}
