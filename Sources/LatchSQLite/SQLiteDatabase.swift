/// A SQLite database file in WAL mode with one writer connection and a pool of readers
/// (https://sqlite.org/wal.html).
///
/// Opening sets `journal_mode=WAL`, `foreign_keys=ON` (https://sqlite.org/foreignkeys.html),
/// the busy timeout (https://sqlite.org/c3ref/busy_timeout.html) and `synchronous` from the
/// configured durability (https://sqlite.org/pragma.html#pragma_synchronous). A missing
/// file is created with mode 0600; SQLite gives `-wal` and `-shm` the same mode.
///
/// `read` and `write` block the calling thread; they are meant for plain OS threads,
/// not for Swift concurrency's cooperative pool. Connections must not escape their closure,
/// and a write closure must not call `write`, `migrate` or `close` (that throws
/// `SQLITE_MISUSE` instead of deadlocking), nor run BEGIN/COMMIT/ROLLBACK itself.
public final class SQLiteDatabase: Sendable {
    /// The database file path.
    public let path: String
    /// The configuration the database was opened with.
    public let configuration: SQLiteConfiguration
    private let writer: WriteCoordinator
    private let readers: ReaderPool

    /// Opens (creating if needed) the database at `path` and its connections.
    public init(path: String, configuration: SQLiteConfiguration = .init()) throws(SQLiteError) {
        self.path = path
        self.configuration = configuration
        try PrivateFile.createIfMissing(path)
        let connection = try SQLiteConnection(
            path: path, readOnly: false, busyTimeoutMilliseconds: configuration.busyTimeoutMilliseconds)
        // https://sqlite.org/pragma.html#pragma_journal_mode: the pragma answers with the mode now in force.
        let mode = try connection.queryOne("PRAGMA journal_mode=WAL")?.string("journal_mode")
        guard mode?.lowercased() == "wal" else {
            throw SQLiteError(
                extendedCode: SQLiteError.Code.error, message: "could not enable WAL; journal_mode is \(mode ?? "unknown")")
        }
        try connection.execute("PRAGMA synchronous=\(configuration.durability.pragmaValue); PRAGMA foreign_keys=ON")
        writer = WriteCoordinator(
            connection: connection, groupCommit: configuration.groupCommit, maxBatchSize: configuration.maxBatchSize,
            fullDurability: configuration.durability == .full)
        readers = try ReaderPool(
            path: path, count: configuration.readerCount, busyTimeoutMilliseconds: configuration.busyTimeoutMilliseconds)
    }

    deinit { close() }

    /// Runs `body` on a read-only connection inside a deferred read transaction, so every
    /// query in it sees the same committed snapshot (https://sqlite.org/isolation.html).
    /// Blocks while all `readerCount` readers are lent out. Errors are rethrown unchanged.
    public func read<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try readers.read(body)
    }

    /// Runs `body` as one atomic unit of work on the writer connection and returns once
    /// its changes are committed with the configured durability. If `body` throws, none of
    /// its writes persist and its error is rethrown unchanged. With group commit, `body`
    /// may run on another caller's thread, inside a savepoint of a shared transaction
    /// (https://sqlite.org/lang_savepoint.html), seeing the writes of units before it.
    /// Besides `body`'s own errors it can throw ``SQLiteError`` (e.g. a failed COMMIT).
    public func write<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try writer.write(body)
    }

    /// Like ``write(_:)``, but the commit need not be synced to disk before returning: it is
    /// crash-safe (WAL with `synchronous=NORMAL`) and becomes durable with the next synced commit
    /// or checkpoint (https://sqlite.org/wal.html#performance_considerations). For state a power
    /// loss may drop without harm, such as an unfinished sign-in step. A batch is synced if any of
    /// its units asked for durability.
    public func writeRelaxed<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try writer.write(relaxed: true, body)
    }

    /// Applies the migrations not yet recorded in `schema_migrations`, in list order, each
    /// in its own `BEGIN IMMEDIATE` transaction (https://sqlite.org/lang_transaction.html)
    /// together with its `(name, applied_at)` record. Recorded ones are skipped. Throws
    /// ``SQLiteMigrationError`` when a recorded name is missing from the list, a name is
    /// listed twice, or a new migration was inserted before an applied one; and
    /// ``SQLiteError`` when a migration's SQL fails or leaves foreign key violations
    /// (https://sqlite.org/pragma.html#pragma_foreign_key_check) — that migration is then rolled back.
    public func migrate(_ migrations: [SQLiteMigration]) throws {
        var listed = Set<String>()
        for migration in migrations where !listed.insert(migration.name).inserted {
            throw SQLiteMigrationError.duplicateName(migration.name)
        }
        try writer.withExclusiveConnection { connection in
            try connection.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY NOT NULL, applied_at TEXT NOT NULL)")
            let applied = try connection.query("SELECT name FROM schema_migrations ORDER BY rowid").compactMap {
                $0.string("name")
            }
            if let unknown = applied.first(where: { !listed.contains($0) }) {
                throw SQLiteMigrationError.unknownApplied(unknown)
            }
            let appliedSet = Set(applied)
            var firstMissing: String?
            for migration in migrations {
                if !appliedSet.contains(migration.name) {
                    firstMissing = firstMissing ?? migration.name
                } else if let missing = firstMissing {
                    throw SQLiteMigrationError.outOfOrder(missing: missing, applied: migration.name)
                }
            }
            for migration in migrations where !appliedSet.contains(migration.name) {
                try Self.apply(migration, on: connection)
            }
        }
    }

    /// Copies the write-ahead log into the database file now, as far as no reader still needs its
    /// frames, without waiting for anyone (`PRAGMA wal_checkpoint(PASSIVE)`,
    /// https://sqlite.org/pragma.html#pragma_wal_checkpoint). Afterwards the file holds the pages
    /// of the latest commits, so content a migration erased (with `secure_delete`) does not linger
    /// in the file's older page images until the next automatic checkpoint.
    /// - Returns: whether every frame of the log was copied.
    @discardableResult
    public func checkpoint() throws -> Bool {
        try writer.withExclusiveConnection { connection in
            guard let row = try connection.queryOne("PRAGMA wal_checkpoint(PASSIVE)") else { return false }
            return row.int("busy") == 0 && row.int("log") == row.int("checkpointed")
        }
    }

    /// Waits for queued and running writes and lent readers, then closes every connection.
    /// Idempotent; later `read`/`write` calls throw `SQLITE_MISUSE`.
    public func close() {
        writer.close()
        readers.close()
    }

    /// Writer counters, e.g. how many units each group commit carried.
    public var writeStatistics: SQLiteWriteStatistics { writer.statistics }

    private static func apply(_ migration: SQLiteMigration, on connection: SQLiteConnection) throws {
        try connection.control("BEGIN IMMEDIATE")
        do {
            // Another process may have applied it since we looked.
            if try connection.queryOne("SELECT 1 FROM schema_migrations WHERE name = ?", [.text(migration.name)]) == nil {
                try connection.execute(migration.sql)
                if let violation = try connection.queryOne("PRAGMA foreign_key_check") {
                    throw SQLiteError(
                        extendedCode: 19 | (3 << 8),  // SQLITE_CONSTRAINT_FOREIGNKEY
                        message:
                            "migration '\(migration.name)' leaves foreign key violations in table \(violation.string("table") ?? "?")"
                    )
                }
                try connection.run(
                    "INSERT INTO schema_migrations (name, applied_at) VALUES (?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))",
                    [.text(migration.name)])
            }
            try connection.control("COMMIT")
        } catch {
            if !connection.isAutocommit { try? connection.control("ROLLBACK") }
            throw error
        }
    }
}
