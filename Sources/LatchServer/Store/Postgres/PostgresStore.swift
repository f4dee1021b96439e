import Foundation
import LatchPostgres

/// The scale-out ``Store``: one PostgreSQL database shared by any number of `latchd` instances.
///
/// Every unit of work is a transaction on a pooled connection: writes `SERIALIZABLE`, re-run after
/// a serialization failure or deadlock (the ``Store`` contract lets an engine re-run a body);
/// reads one `REPEATABLE READ` snapshot. ``writeRelaxed(_:)`` commits with
/// `synchronous_commit = off`. Instances that start together migrate once, under an advisory lock.
/// The statements are the SQLite store's own (``SQLStoreSession``); see ``PostgresSQLConnection``
/// for how the two engines are made to answer alike.
public final class PostgresStore: Store {
    private let database: PostgresDatabase
    private let durable: Bool

    /// Connects to the database at `url` and migrates it.
    /// - Parameters:
    ///   - url: a libpq connection URI (`postgres://user@host:5432/db?sslmode=verify-full`) or
    ///     key-value string; the password may be in it, in `PGPASSWORD` or in the `PGPASSFILE` file.
    ///   - maxConnections: the most connections this instance opens.
    ///   - durable: `false` commits every write as ``writeRelaxed(_:)`` does (crash-safe; the last
    ///     commits may be lost if the database server crashes).
    /// - Throws: ``StoreError/unavailable(_:)`` when the server cannot be reached or migrated; the
    ///   text names the failure, never the password.
    public init(url: String, maxConnections: Int = 16, durable: Bool = true) throws {
        self.durable = durable
        var configuration = PostgresConfiguration()
        configuration.maxConnections = maxConnections
        configuration.statementText = PostgresSQLConnection.statementText
        do {
            database = try PostgresDatabase(connectionString: url, configuration: configuration)
            try database.migrate(PostgresSchema.migrations)
        } catch {
            throw StoreError.unavailable("open postgresql: \(error)")
        }
    }

    public func read<T>(_ body: (any StoreReading) throws -> T) throws -> T {
        try Self.mapped {
            try database.read { connection in try body(SQLStoreSession(connection: PostgresSQLConnection(connection: connection)))
            }
        }
    }

    public func write<T>(_ body: (any StoreWriting) throws -> T) throws -> T {
        try Self.mapped {
            try database.write { connection in
                try body(SQLStoreSession(connection: PostgresSQLConnection(connection: connection)))
            }
        }
    }

    public func writeRelaxed<T>(_ body: (any StoreWriting) throws -> T) throws -> T {
        try Self.mapped {
            try database.write(relaxed: true) { connection in
                try body(SQLStoreSession(connection: PostgresSQLConnection(connection: connection)))
            }
        }
    }

    /// The pool's counters: connections open and in use, waits, retried units.
    public var poolStatistics: PostgresPoolStatistics { database.statistics }

    /// Closes the pool's connections.
    public func close() { database.close() }

    /// Runs `work`, turning failures of the database itself (no connection, a failed `COMMIT`, a
    /// unit that kept failing to serialize) into ``StoreError``; errors the body throws pass
    /// through unchanged.
    private static func mapped<T>(_ work: () throws -> T) throws -> T {
        do {
            return try work()
        } catch let error as PostgresError {
            throw PostgresSQLConnection.storeError(error)
        }
    }
}
