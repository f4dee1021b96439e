import Foundation

/// Where the server keeps its data: the embedded SQLite file in the data directory, or a
/// PostgreSQL database that any number of instances share (`--database-url`, `LATCH_DATABASE_URL`).
public enum StoreLocation: Sendable, Equatable {
    /// `latch.db` in the data directory.
    case sqlite
    /// A PostgreSQL database, by its libpq connection URI
    /// (https://www.postgresql.org/docs/15/libpq-connect.html#LIBPQ-CONNSTRING).
    case postgres(url: String)

    /// The location a `--database-url` names: none, empty or `sqlite:` is the data directory's
    /// SQLite file; `postgres://` or `postgresql://` is PostgreSQL.
    /// - Throws: ``ConfigurationError`` for any other scheme; the message never repeats the URL,
    ///   which may hold a password.
    public init(databaseURL: String?) throws {
        guard let url = databaseURL?.trimmingCharacters(in: .whitespaces), !url.isEmpty, url != "sqlite:" else {
            self = .sqlite
            return
        }
        guard url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") else {
            throw ConfigurationError(
                "database_url must be a postgres:// or postgresql:// URL (or sqlite: for the data directory's file)")
        }
        self = .postgres(url: url)
    }

    /// Opens the store.
    /// - Parameters:
    ///   - durable: `false` answers writes before they reach the disk (SQLite `synchronous=NORMAL`,
    ///     PostgreSQL `synchronous_commit = off`): crash-safe, but the last commits may be lost.
    ///   - connections: the most PostgreSQL connections to open.
    public func open(directory: DataDirectory, durable: Bool = true, connections: Int = 16) throws -> any Store {
        switch self {
        case .sqlite: try SQLiteStore(path: directory.databasePath, durable: durable)
        case .postgres(let url): try PostgresStore(url: url, maxConnections: connections, durable: durable)
        }
    }

    /// The location for logs and the banner: the file, or the URL without its password and
    /// without its query.
    public func description(directory: DataDirectory) -> String {
        switch self {
        case .sqlite:
            return "SQLite \(directory.databasePath)"
        case .postgres(let url):
            guard var components = URLComponents(string: url) else { return "PostgreSQL" }
            components.password = nil
            components.query = nil
            return "PostgreSQL \(components.string ?? "")"
        }
    }
}
