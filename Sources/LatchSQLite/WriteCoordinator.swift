internal import LatchLocking

/// Owns the single writer connection and serializes all writes on it.
///
/// With group commit, concurrent callers enqueue their closures and one of them at a
/// time becomes the leader: it takes up to `maxBatchSize` pending units (oldest first),
/// runs `BEGIN IMMEDIATE`, each unit inside `SAVEPOINT latch_unit` … `RELEASE`
/// (rolled back to the savepoint if it throws; https://sqlite.org/lang_savepoint.html),
/// then one `COMMIT`, i.e. one WAL fsync for the batch (https://sqlite.org/wal.html),
/// and finally publishes every unit's outcome. Units arriving meanwhile queue up for
/// the next leader, so batches grow with load. Without group commit each write is its
/// own `BEGIN IMMEDIATE`/`COMMIT` (https://sqlite.org/lang_transaction.html) on the
/// caller's thread while it holds the writer role.
// @unchecked Sendable: every stored var is guarded by `lock`; `connection` is only used by the one thread holding the writer role (`busy`).
final class WriteCoordinator: @unchecked Sendable {
    private let lock = ConditionLock()
    private let connection: SQLiteConnection
    private let groupCommit: Bool
    private let maxBatchSize: Int
    /// The configured durability is `synchronous=FULL`, so relaxed batches switch to NORMAL around their commit.
    private let fullDurability: Bool

    // Guarded by `lock`.
    private var pending: [WriteUnit] = []
    private var busy = false
    private var owner: ThreadID?
    private var waiting = 0
    private var closing = false
    private var closed = false
    private var stats = SQLiteWriteStatistics()

    private static let savepoint = "SAVEPOINT latch_unit"
    private static let release = "RELEASE latch_unit"
    private static let rollbackToSavepoint = "ROLLBACK TO latch_unit"

    init(connection: SQLiteConnection, groupCommit: Bool, maxBatchSize: Int, fullDurability: Bool) {
        self.connection = connection
        self.groupCommit = groupCommit
        self.maxBatchSize = max(1, maxBatchSize)
        self.fullDurability = fullDurability
    }

    var statistics: SQLiteWriteStatistics { lock.withLock { stats } }

    /// Runs `body` as one atomic unit and returns once it is committed; rethrows its error unchanged.
    /// A `relaxed` unit is committed without its own fsync when its whole batch is relaxed.
    func write<T>(relaxed: Bool = false, _ body: (SQLiteConnection) throws -> T) throws -> T {
        guard groupCommit else { return try writeAlone(relaxed: relaxed, body) }
        return try withoutActuallyEscaping(body) { body in
            var result: T?
            // The leader drops this closure before publishing the outcome, so `body` does not outlive this call.
            let unit = WriteUnit(relaxed: relaxed) { connection in result = try body(connection) }
            try submit(unit)
            guard let result else { preconditionFailure("write unit reported success without a result") }
            return result
        }
    }

    /// Runs `body` with the writer connection and no transaction, excluding all writes meanwhile.
    func withExclusiveConnection<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try acquire()
        defer { relinquish() }
        return try body(connection)
    }

    /// Waits for queued and running writes, then closes the connection. Idempotent; new writes then fail.
    func close() {
        lock.lock()
        if busy && owner == .current {
            // Called from inside a write closure: waiting would deadlock; refuse new work and let deinit close.
            closing = true
            lock.unlock()
            return
        }
        closing = true
        while !closed && (busy || !pending.isEmpty || waiting > 0) { lock.wait() }
        if closed {
            lock.unlock()
            return
        }
        busy = true  // held forever: nobody may use the connection again
        lock.unlock()
        connection.close()
        lock.withLock {
            closed = true
            lock.broadcast()
        }
    }

    // MARK: - Writer role

    /// Takes the writer role, waiting for the current holder.
    private func acquire() throws(SQLiteError) {
        lock.lock()
        defer { lock.unlock() }
        if busy && owner == .current { throw SQLiteError.misuse("write or migrate called from inside a write closure") }
        if closing { throw SQLiteError.misuse("database is closed") }
        waiting += 1
        while busy { lock.wait() }
        waiting -= 1
        busy = true
        owner = .current
    }

    private func relinquish() {
        lock.withLock {
            busy = false
            owner = nil
            lock.broadcast()
        }
    }

    // MARK: - One transaction per write

    private func writeAlone<T>(relaxed: Bool, _ body: (SQLiteConnection) throws -> T) throws -> T {
        try acquire()
        defer { relinquish() }
        let relax = relaxed && fullDurability
        if relax { try connection.control("PRAGMA synchronous=NORMAL") }
        defer { if relax { try? connection.control("PRAGMA synchronous=FULL") } }
        do {
            try connection.control("BEGIN IMMEDIATE")
            connection.requiresTransaction = true
            let result: T
            do {
                result = try body(connection)
            } catch {
                connection.requiresTransaction = false
                throw error
            }
            connection.requiresTransaction = false
            try connection.control("COMMIT")
            lock.withLock {
                stats.commits += 1
                stats.committedUnits += 1
                stats.largestBatch = max(stats.largestBatch, 1)
            }
            return result
        } catch {
            // A failed COMMIT (e.g. SQLITE_BUSY) leaves the transaction open; some errors already rolled it back.
            if !connection.isAutocommit { try? connection.control("ROLLBACK") }
            lock.withLock { stats.failedUnits += 1 }
            throw error
        }
    }

    // MARK: - Group commit

    private func submit(_ unit: WriteUnit) throws {
        lock.lock()
        if busy && owner == .current {
            lock.unlock()
            throw SQLiteError.misuse("write or migrate called from inside a write closure")
        }
        if closing {
            lock.unlock()
            throw SQLiteError.misuse("database is closed")
        }
        pending.append(unit)
        while !unit.isDone {
            if busy {
                lock.wait()
                continue
            }
            busy = true
            owner = .current
            let batch = Array(pending.prefix(maxBatchSize))
            pending.removeFirst(batch.count)
            lock.unlock()
            let failures = runBatch(batch)
            lock.lock()
            var committed = 0
            for (member, failure) in zip(batch, failures) {
                member.failure = failure
                member.isDone = true
                if failure == nil { committed += 1 }
            }
            if committed > 0 {
                stats.commits += 1
                stats.committedUnits += committed
                stats.largestBatch = max(stats.largestBatch, committed)
            }
            stats.failedUnits += batch.count - committed
            busy = false
            owner = nil
            lock.broadcast()
        }
        lock.unlock()
        if let failure = unit.failure { throw failure }
    }

    /// Runs `batch` in one transaction and returns each unit's failure (nil when committed).
    /// Every unit's closure is released before this returns.
    private func runBatch(_ batch: [WriteUnit]) -> [(any Error)?] {
        var failures = [(any Error)?](repeating: nil, count: batch.count)
        // Units whose changes are in the open transaction, not yet committed.
        var uncommitted: [Int] = []

        func abandonTransaction(because error: any Error) {
            if !connection.isAutocommit { try? connection.control("ROLLBACK") }
            for index in uncommitted { failures[index] = error }
            uncommitted.removeAll()
        }

        // A batch of relaxed units only skips the commit's fsync (synchronous=NORMAL in WAL mode):
        // it is crash-safe, and the next FULL commit syncs the WAL up to and including it.
        let relax = fullDurability && batch.allSatisfy(\.relaxed)
        if relax { try? connection.control("PRAGMA synchronous=NORMAL") }
        defer { if relax { try? connection.control("PRAGMA synchronous=FULL") } }
        // Taken up front so that no closure outlives this call, whichever way it ends.
        let bodies = batch.map { $0.takeBody() }
        for (index, body) in bodies.enumerated() {
            guard let body else { continue }
            if connection.isAutocommit {
                do {
                    try connection.control("BEGIN IMMEDIATE")
                } catch {
                    // Typically SQLITE_BUSY after the busy timeout (another process writing): fail the rest at once.
                    for rest in index..<batch.count { failures[rest] = error }
                    break
                }
            }
            do {
                try connection.control(Self.savepoint)
            } catch {
                failures[index] = error
                abandonTransaction(because: error)
                continue
            }
            connection.requiresTransaction = true
            do {
                try body(connection)
                connection.requiresTransaction = false
                guard !connection.isAutocommit else {
                    // The closure ended the transaction (COMMIT/ROLLBACK inside it, or a swallowed error that rolled back).
                    let lost = Self.transactionLost
                    failures[index] = lost
                    abandonTransaction(because: lost)
                    continue
                }
                try connection.control(Self.release)
                uncommitted.append(index)
            } catch {
                connection.requiresTransaction = false
                failures[index] = error
                if connection.isAutocommit {
                    // SQLITE_FULL, SQLITE_IOERR, ON CONFLICT ROLLBACK... rolled back the whole transaction
                    // (https://sqlite.org/lang_transaction.html#response_to_errors_within_a_transaction).
                    abandonTransaction(because: Self.transactionLost)
                    continue
                }
                do {
                    try connection.control(Self.rollbackToSavepoint)
                    try connection.control(Self.release)
                } catch let rollbackError {
                    abandonTransaction(because: rollbackError)
                }
            }
        }

        if !connection.isAutocommit {
            do {
                try connection.control("COMMIT")
            } catch {
                abandonTransaction(because: error)
            }
        }
        return failures
    }

    private static var transactionLost: SQLiteError {
        SQLiteError(
            extendedCode: SQLiteError.Code.abort,
            message: "the batch transaction was rolled back by another write's error; this write was not committed")
    }
}

/// One queued group-commit write: its closure until the leader takes it, then its outcome.
/// `body` is only taken by the leader while it holds the writer role; `isDone` and
/// `failure` are only accessed with the coordinator's lock held.
private final class WriteUnit {
    private var body: ((SQLiteConnection) throws -> Void)?
    let relaxed: Bool
    var isDone = false
    var failure: (any Error)?

    init(relaxed: Bool, _ body: @escaping (SQLiteConnection) throws -> Void) {
        self.relaxed = relaxed
        self.body = body
    }

    /// Hands the closure over exactly once, leaving no reference behind.
    func takeBody() -> ((SQLiteConnection) throws -> Void)? {
        defer { body = nil }
        return body
    }
}
