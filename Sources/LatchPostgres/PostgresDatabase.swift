#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// A PostgreSQL database reached through a pool of connections, with units of work that run as
/// transactions.
///
/// Writes run `SERIALIZABLE` (https://www.postgresql.org/docs/15/transaction-iso.html#XACT-SERIALIZABLE):
/// every committed unit behaves as if units had run one at a time. A unit that fails with a
/// serialization failure (`40001`) or a deadlock (`40P01`) is rolled back and run again, a bounded
/// number of times with a random, growing pause; a unit body must therefore act only through the
/// connection it is given. Reads run `REPEATABLE READ READ ONLY`: one snapshot for the whole body.
///
/// `read` and `write` block the calling thread; they are meant for plain OS threads. Connections
/// must not escape their closure, and a body must not run BEGIN, COMMIT or ROLLBACK itself.
public final class PostgresDatabase: Sendable {
    /// The configuration the database was opened with.
    public let configuration: PostgresConfiguration
    private let pool: PostgresPool

    /// Prepares a pool for `connectionString` and opens one connection to check that the server
    /// answers.
    /// - Throws: ``PostgresError`` when the first connection fails.
    public init(connectionString: String, configuration: PostgresConfiguration = .init()) throws(PostgresError) {
        self.configuration = configuration
        pool = PostgresPool(connectionString: connectionString, configuration: configuration)
        let first = try pool.checkOut()
        pool.checkIn(first)
    }

    /// Runs `body` inside a `REPEATABLE READ READ ONLY` transaction. Errors of `body` are
    /// rethrown unchanged; a connection found dead at the start is replaced once.
    public func read<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        try transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", attempts: 1, body)
    }

    /// Runs `body` as one `SERIALIZABLE` transaction and returns once it committed; with `relaxed`,
    /// the commit does not wait for its WAL to reach disk (`SET LOCAL synchronous_commit = off`,
    /// https://www.postgresql.org/docs/15/wal-async-commit.html): a server crash may lose it, never
    /// corrupt anything. Serialization failures and deadlocks run `body` again, up to
    /// ``PostgresConfiguration/maxAttempts`` times. If `body` throws, nothing it wrote persists.
    public func write<T>(relaxed: Bool = false, _ body: (PostgresConnection) throws -> T) throws -> T {
        let begin =
            relaxed
            ? "BEGIN ISOLATION LEVEL SERIALIZABLE; SET LOCAL synchronous_commit TO OFF"
            : "BEGIN ISOLATION LEVEL SERIALIZABLE"
        return try transaction(begin, attempts: max(1, configuration.maxAttempts), body)
    }

    /// Applies the migrations not yet recorded in `schema_migrations`, in list order, each in its
    /// own transaction with its record, while holding a session advisory lock
    /// (https://www.postgresql.org/docs/15/explicit-locking.html#ADVISORY-LOCKS): instances that
    /// start together wait for each other and migrate once.
    /// - Throws: ``PostgresError`` when a name is listed twice, a recorded name is not listed, a
    ///   migration was inserted before an applied one, or a migration fails (it is rolled back).
    public func migrate(_ migrations: [PostgresMigration]) throws(PostgresError) {
        var listed = Set<String>()
        for migration in migrations where !listed.insert(migration.name).inserted {
            throw PostgresError(kind: .server, message: "migration \(migration.name) is listed twice")
        }
        let connection = try pool.checkOut()
        defer { pool.checkIn(connection) }
        // The key is the first eight bytes of "latchmig" as a big-endian integer.
        try connection.execute("SELECT pg_advisory_lock(8098986764452423015)")
        defer { _ = try? connection.execute("SELECT pg_advisory_unlock(8098986764452423015)") }
        try connection.execute(
            """
            CREATE TABLE IF NOT EXISTS schema_migrations (
                position BIGINT GENERATED ALWAYS AS IDENTITY,
                name TEXT PRIMARY KEY NOT NULL,
                applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
            )
            """)
        let applied = try connection.query("SELECT name FROM schema_migrations ORDER BY position").compactMap {
            $0.string("name")
        }
        if let unknown = applied.first(where: { !listed.contains($0) }) {
            throw PostgresError(
                kind: .server, message: "the database has migration \(unknown), which this server does not know")
        }
        let appliedSet = Set(applied)
        var firstMissing: String?
        for migration in migrations {
            if !appliedSet.contains(migration.name) {
                firstMissing = firstMissing ?? migration.name
            } else if let missing = firstMissing {
                throw PostgresError(
                    kind: .server, message: "migration \(missing) is listed before the applied \(migration.name)")
            }
        }
        for migration in migrations where !appliedSet.contains(migration.name) {
            do {
                try connection.execute("BEGIN")
                try connection.execute(migration.sql)
                try connection.run("INSERT INTO schema_migrations (name) VALUES ($1)", [.text(migration.name)])
                try connection.execute("COMMIT")
            } catch {
                if !connection.isBroken { _ = try? connection.execute("ROLLBACK") }
                throw PostgresError(
                    kind: error.kind, sqlState: error.sqlState, message: "migration \(migration.name): \(error.message)")
            }
        }
    }

    /// Counters of the pool, for metrics.
    public var statistics: PostgresPoolStatistics { pool.snapshot }

    /// Closes the idle connections; later units fail. Idempotent.
    public func close() { pool.close() }

    private func transaction<T>(_ begin: String, attempts: Int, _ body: (PostgresConnection) throws -> T) throws -> T {
        var attempt = 0
        var reconnected = false
        while true {
            attempt += 1
            let connection = try pool.checkOut()
            defer { pool.checkIn(connection) }
            connection.mustRetry = false
            if let failure = Self.begin(begin, on: connection) {
                // An idle connection the server ended (a restart): nothing ran; try a fresh one.
                guard failure.kind == .connection, !reconnected else { throw failure }
                reconnected = true
                attempt -= 1
                continue
            }
            let value: T
            do {
                value = try body(connection)
                if connection.mustRetry {
                    throw PostgresError(kind: .retryable, message: "serialization failure swallowed by the unit")
                }
                let tag = try connection.execute("COMMIT")
                // A transaction that had failed answers COMMIT with ROLLBACK.
                guard tag != "ROLLBACK" else {
                    throw PostgresError(
                        kind: .server, sqlState: "25P02", message: "the unit ended in a failed transaction")
                }
            } catch {
                let retryable = connection.mustRetry || (error as? PostgresError)?.kind == .retryable
                if !connection.isBroken, connection.inTransaction { _ = try? connection.execute("ROLLBACK") }
                if retryable, attempt < attempts {
                    pool.countRetry()
                    Self.pause(attempt)
                    continue
                }
                throw error
            }
            return value
        }
    }

    /// Starts the transaction; the failure, if any.
    private static func begin(_ sql: String, on connection: PostgresConnection) -> PostgresError? {
        do {
            try connection.execute(sql)
            return nil
        } catch {
            return error
        }
    }

    /// A random pause before run `attempt + 1`, growing from at most 1 ms to at most 64 ms.
    private static func pause(_ attempt: Int) {
        let ceiling = UInt32(1000) << UInt32(min(attempt, 6))
        usleep(UInt32.random(in: 0...ceiling))
    }
}
