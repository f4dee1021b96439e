/// How ``SQLiteDatabase`` opens its connections and commits writes.
public struct SQLiteConfiguration: Sendable {
    /// `PRAGMA synchronous` for the writer (https://sqlite.org/pragma.html#pragma_synchronous).
    public var durability: SQLiteDurability = .full
    /// How long a connection retries when another process holds a lock, via
    /// `sqlite3_busy_timeout` (https://sqlite.org/c3ref/busy_timeout.html).
    public var busyTimeoutMilliseconds: Int = 5000
    /// How many read-only connections the read pool keeps (at least 1).
    /// WAL lets them read while the writer writes (https://sqlite.org/wal.html#concurrency).
    public var readerCount: Int = 4
    /// Whether concurrent `write` calls share one transaction and one fsync
    /// (each in its own savepoint, https://sqlite.org/lang_savepoint.html) instead of
    /// committing one by one.
    public var groupCommit: Bool = true
    /// The most write units one group commit takes (at least 1).
    public var maxBatchSize: Int = 256

    /// A configuration; every parameter has the documented default.
    public init(
        durability: SQLiteDurability = .full,
        busyTimeoutMilliseconds: Int = 5000,
        readerCount: Int = 4,
        groupCommit: Bool = true,
        maxBatchSize: Int = 256
    ) {
        self.durability = durability
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        self.readerCount = readerCount
        self.groupCommit = groupCommit
        self.maxBatchSize = maxBatchSize
    }
}
