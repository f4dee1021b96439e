/// Counters of the writer since the database was opened, e.g. to see how well group
/// commit batches (https://sqlite.org/lang_transaction.html).
public struct SQLiteWriteStatistics: Sendable, Equatable {
    /// Write transactions committed, i.e. WAL commits, each one fsync with durability `.full`
    /// (https://sqlite.org/wal.html).
    public var commits: Int = 0
    /// `write` closures whose changes were committed.
    public var committedUnits: Int = 0
    /// `write` calls that threw (their own error, or the batch's BEGIN/COMMIT error).
    public var failedUnits: Int = 0
    /// The most units one commit carried.
    public var largestBatch: Int = 0

    /// Average units per commit, or 0 before the first commit.
    public var averageBatch: Double { commits == 0 ? 0 : Double(committedUnits) / Double(commits) }
}
