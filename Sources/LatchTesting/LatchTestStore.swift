import Foundation
import LatchPostgres
import LatchServer

/// Which store test servers use, chosen for a whole run by one switch: SQLite in each data
/// directory (the default), or, with `LATCH_TEST_STORE=postgres`, a fresh PostgreSQL database per
/// data directory on the cluster at `LATCH_TEST_DATABASE_URL` (`scripts/with-postgres.sh` starts
/// one). A PostgreSQL database is named in its data directory (`test-database.url`), so a server
/// started again, a `latchd` child process or an admin console on that directory reach it.
///
/// ```swift
/// let location = try LatchTestStore.prepare(dataDirectory: directory)   // before the server starts
/// let console = try AdminConsole.open(dataDirectory: directory, location: LatchTestStore.location(dataDirectory: directory))
/// LatchTestStore.discard(dataDirectory: directory)                      // after it stopped
/// ```
public enum LatchTestStore {
    /// The file in a data directory that names its PostgreSQL database.
    static let urlFile = "test-database.url"

    /// Whether this run's servers store in PostgreSQL.
    public static var usesPostgres: Bool {
        ProcessInfo.processInfo.environment["LATCH_TEST_STORE"]?.lowercased() == "postgres"
    }

    /// The cluster's URL (a superuser, database `postgres`), or nil when none is configured.
    public static var clusterURL: String? {
        ProcessInfo.processInfo.environment["LATCH_TEST_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The store for a new data directory: ``StoreLocation/sqlite``, or a new database on the
    /// cluster, recorded in the directory (created if needed).
    /// - Throws: when the run asks for PostgreSQL and no cluster answers.
    public static func prepare(dataDirectory: String) throws -> StoreLocation {
        guard usesPostgres else { return .sqlite }
        return try preparePostgres(dataDirectory: dataDirectory)
    }

    /// A new database on the cluster for a new data directory, whatever the run's switch says
    /// (for tests of PostgreSQL itself: several instances on one database), recorded in the directory.
    public static func preparePostgres(dataDirectory: String) throws -> StoreLocation {
        let database = try createDatabase()
        try FileManager.default.createDirectory(
            atPath: dataDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let file = dataDirectory + "/" + urlFile
        guard
            FileManager.default.createFile(
                atPath: file, contents: Data(database.url.utf8), attributes: [.posixPermissions: 0o600])
        else { throw TestDatabaseError("cannot write \(file)") }
        return .postgres(url: database.url)
    }

    /// The store a data directory's servers use: its recorded PostgreSQL database, else SQLite.
    public static func location(dataDirectory: String) -> StoreLocation {
        guard let data = FileManager.default.contents(atPath: dataDirectory + "/" + urlFile),
            let url = String(data: data, encoding: .utf8), !url.isEmpty
        else { return .sqlite }
        return .postgres(url: url)
    }

    /// Drops the data directory's PostgreSQL database, if it has one.
    public static func discard(dataDirectory: String) {
        guard case .postgres(let url) = location(dataDirectory: dataDirectory) else { return }
        TestDatabase(url: url).drop()
    }

    /// Creates an empty database on the cluster.
    /// - Throws: ``TestDatabaseError`` when no cluster is configured; ``PostgresError`` when it does not answer.
    public static func createDatabase() throws -> TestDatabase {
        guard let clusterURL, var components = URLComponents(string: clusterURL) else {
            throw TestDatabaseError("LATCH_TEST_DATABASE_URL is not set: run the suite through scripts/with-postgres.sh")
        }
        let name = "latch_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let admin = try PostgresConnection(connectionString: clusterURL)
        try admin.execute("CREATE DATABASE \(name)")
        components.path = "/" + name
        return TestDatabase(url: components.string ?? clusterURL)
    }
}

/// One database on the test cluster.
public struct TestDatabase: Sendable {
    /// Its URL, password included.
    public let url: String

    /// The database's name (the URL's path).
    public var name: String { URLComponents(string: url)?.path.trimmingPrefix("/").description ?? "" }

    /// Runs `sql` on the database, behind the store's back.
    public func execute(_ sql: String, _ parameters: [PostgresValue] = []) throws {
        let connection = try PostgresConnection(connectionString: url)
        try connection.run(sql, parameters)
    }

    /// Drops the database, ending whatever connections are still open to it.
    public func drop() {
        guard let clusterURL = LatchTestStore.clusterURL,
            let admin = try? PostgresConnection(connectionString: clusterURL),
            name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }), !name.isEmpty
        else { return }
        _ = try? admin.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }
}

/// A test database could not be made.
public struct TestDatabaseError: Error, CustomStringConvertible {
    public let description: String

    init(_ description: String) { self.description = description }
}
