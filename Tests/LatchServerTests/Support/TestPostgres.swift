import Foundation
import LatchPostgres

/// The throwaway PostgreSQL cluster `scripts/with-postgres.sh` starts for the suite (`make test`),
/// and fresh databases on it, one per test.
enum TestPostgres {
    /// The cluster's URL (a superuser, database `postgres`), or nil when the suite runs without one.
    static var serverURL: String? { ProcessInfo.processInfo.environment["LATCH_TEST_DATABASE_URL"] }

    /// Creates an empty database on the cluster.
    static func createDatabase() throws -> TestDatabase {
        guard let serverURL else { throw TestDatabase.NoCluster() }
        let name = "latch_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let admin = try PostgresConnection(connectionString: serverURL)
        try admin.execute("CREATE DATABASE \(name)")
        guard var components = URLComponents(string: serverURL) else { throw TestDatabase.NoCluster() }
        components.path = "/" + name
        return TestDatabase(name: name, url: components.string ?? serverURL, serverURL: serverURL)
    }
}

/// One database on the test cluster.
struct TestDatabase: Sendable {
    /// No cluster is configured (LATCH_TEST_DATABASE_URL is unset).
    struct NoCluster: Error, CustomStringConvertible {
        var description: String { "LATCH_TEST_DATABASE_URL is not set: run the suite through scripts/with-postgres.sh" }
    }

    let name: String
    /// Its URL, password included.
    let url: String
    let serverURL: String

    /// Runs `sql` on the database, behind the store's back.
    func execute(_ sql: String, _ parameters: [PostgresValue] = []) throws {
        let connection = try PostgresConnection(connectionString: url)
        try connection.run(sql, parameters)
    }

    /// Drops the database, ending whatever connections are still open to it.
    func drop() {
        guard let admin = try? PostgresConnection(connectionString: serverURL) else { return }
        _ = try? admin.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }
}
