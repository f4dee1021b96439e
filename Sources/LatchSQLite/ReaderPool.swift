internal import LatchLocking

/// A fixed set of read-only connections lent out one closure at a time.
///
/// WAL mode lets readers run concurrently with the single writer, each on its own
/// snapshot (https://sqlite.org/wal.html#concurrency). Callers beyond `count` block.
// @unchecked Sendable: every stored var is only touched with `lock` held; a lent connection is used by one thread only.
final class ReaderPool: @unchecked Sendable {
    private let lock = ConditionLock()
    private var idle: [SQLiteConnection]
    private var lent = 0
    private var closed = false

    init(path: String, count: Int, busyTimeoutMilliseconds: Int) throws(SQLiteError) {
        var connections: [SQLiteConnection] = []
        for _ in 0..<max(1, count) {
            let connection = try SQLiteConnection(path: path, readOnly: true, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
            connections.append(connection)
        }
        idle = connections
    }

    /// Runs `body` on an idle connection inside a deferred read transaction, so all its
    /// queries see one snapshot (https://sqlite.org/lang_transaction.html#deferred_immediate_and_exclusive_transactions,
    /// https://sqlite.org/isolation.html).
    func read<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        let connection = try checkOut()
        defer { checkIn(connection) }
        try connection.control("BEGIN DEFERRED")
        let result: T
        do {
            result = try body(connection)
        } catch {
            try? connection.control("ROLLBACK")
            throw error
        }
        // Ending a read transaction cannot lose data; a failure here only means it was already ended.
        if !connection.isAutocommit { try connection.control("COMMIT") }
        return result
    }

    /// Waits until every lent connection is returned, then closes all of them. Idempotent.
    func close() {
        lock.lock()
        closed = true
        lock.broadcast()
        while lent > 0 { lock.wait() }
        let connections = idle
        idle = []
        lock.unlock()
        for connection in connections { connection.close() }
    }

    private func checkOut() throws(SQLiteError) -> SQLiteConnection {
        lock.lock()
        defer { lock.unlock() }
        while true {
            if closed { throw SQLiteError.misuse("database is closed") }
            if let connection = idle.popLast() {
                lent += 1
                return connection
            }
            lock.wait()
        }
    }

    private func checkIn(_ connection: SQLiteConnection) {
        lock.withLock {
            idle.append(connection)
            lent -= 1
            lock.broadcast()
        }
    }
}
