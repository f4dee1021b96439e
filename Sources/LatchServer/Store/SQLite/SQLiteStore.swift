import Foundation
import LatchSQLite

/// The embedded ``Store``: one SQLite file in WAL mode with group commit, so concurrent requests
/// share one fsync (https://sqlite.org/wal.html).
public final class SQLiteStore: Store {
    private let database: SQLiteDatabase

    /// Opens (creating if needed) and migrates the database at `path`.
    /// - Parameters:
    ///   - path: the database file.
    ///   - durable: `true` syncs every commit to disk before answering (`synchronous=FULL`);
    ///     `false` is crash-safe only (`synchronous=NORMAL`): the last commits may be lost on power loss.
    ///   - readers: read connections in the pool (WAL readers never block the writer).
    /// - Throws: ``StoreError/unavailable(_:)`` when the file cannot be opened or migrated.
    public init(path: String, durable: Bool = true, readers: Int = 8) throws {
        do {
            var configuration = SQLiteConfiguration()
            configuration.durability = durable ? .full : .normal
            configuration.readerCount = readers
            database = try SQLiteDatabase(path: path, configuration: configuration)
            try database.migrate(SQLiteSchema.migrations)
            // Erased values (the plaintext outbox of `008_sealed_outbox`) leave the file's old pages
            // now; best effort, as the next automatic checkpoint does the same.
            _ = try? database.checkpoint()
        } catch {
            throw StoreError.unavailable("open \(path): \(error)")
        }
    }

    public func read<T>(_ body: (any StoreReading) throws -> T) throws -> T {
        try Self.mapped {
            try database.read { connection in try body(SQLStoreSession(connection: SQLiteSQLConnection(connection: connection))) }
        }
    }

    public func write<T>(_ body: (any StoreWriting) throws -> T) throws -> T {
        try Self.mapped {
            try database.write { connection in try body(SQLStoreSession(connection: SQLiteSQLConnection(connection: connection)))
            }
        }
    }

    public func writeRelaxed<T>(_ body: (any StoreWriting) throws -> T) throws -> T {
        try Self.mapped {
            try database.writeRelaxed { connection in
                try body(SQLStoreSession(connection: SQLiteSQLConnection(connection: connection)))
            }
        }
    }

    /// Runs `work`, turning failures of the database itself (a closed store, a failed `COMMIT`)
    /// into ``StoreError``; errors the body throws pass through unchanged.
    private static func mapped<T>(_ work: () throws -> T) throws -> T {
        do {
            return try work()
        } catch let error as SQLiteError {
            throw SQLiteSQLConnection.storeError(error)
        }
    }

    /// Waits for queued writes and closes the database.
    public func close() { database.close() }
}
