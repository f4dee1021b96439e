import Foundation
import LatchServer
import LatchTesting
import Testing

/// `latchd` on PostgreSQL from the command line: the admin commands work on the database as they
/// do on the SQLite file, and the database password never reaches the output, whether the
/// connection works or fails.
@Suite("latchd on PostgreSQL", .enabled(if: LatchTestStore.clusterURL != nil))
struct PostgresCommandLineTests {
    @Test("admin commands create and list tenants, clients and users in PostgreSQL, from LATCH_DATABASE_URL too")
    func adminCommands() throws {
        let database = try LatchTestStore.createDatabase()
        defer { database.drop() }
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("latchd-pg-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let store = ["--data-dir", data, "--database-url", database.url]
        let created = try LatchdRun(["tenant", "create", "acme"] + store)
        #expect(created.status == 0, "\(created.stderr)")
        #expect(try LatchdRun(["client", "create", "--tenant", "acme", "--id", "ios-app"] + store).status == 0)
        let user = try LatchdRun(
            ["user", "create", "--tenant", "acme", "--email", "ops@example.com"] + store)
        #expect(user.status == 0, "\(user.stderr)")
        // The same database through the environment.
        let listed = try LatchdRun(
            ["user", "list", "--tenant", "acme", "--data-dir", data], environment: ["LATCH_DATABASE_URL": database.url])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains("ops@example.com"))
        let tenants = try LatchdRun(["tenant", "list"] + store)
        #expect(tenants.stdout.contains("acme"))
        // Nothing went to the data directory's SQLite file.
        #expect(!FileManager.default.fileExists(atPath: data + "/latch.db"))
        for run in [created, user, listed, tenants] {
            #expect(!(run.stdout + run.stderr).contains(Self.password(in: database.url)))
        }
    }

    @Test("a wrong password, a refused TLS demand and a bad scheme fail clearly, never echoing the password")
    func failuresHideThePassword() throws {
        let database = try LatchTestStore.createDatabase()
        defer { database.drop() }
        let password = Self.password(in: database.url)
        let wrong = database.url.replacingOccurrences(of: ":\(password)@", with: ":not-\(password)@")
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("latchd-pg-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: data) }

        let refused = try LatchdRun(["tenant", "list", "--data-dir", data, "--database-url", wrong])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("password authentication failed"), "\(refused.stderr)")
        #expect(!refused.stderr.contains(password))

        // The test cluster speaks no TLS: sslmode=require is refused by libpq, not downgraded.
        let tls = try LatchdRun(["tenant", "list", "--data-dir", data, "--database-url", database.url + "?sslmode=require"])
        #expect(tls.status != 0)
        #expect(tls.stderr.contains("SSL"), "\(tls.stderr)")
        #expect(!tls.stderr.contains(password))

        let scheme = try LatchdRun(
            ["serve", "--data-dir", data, "--database-url", "mysql://latch:\(password)@127.0.0.1/latch"])
        #expect(scheme.status != 0)
        #expect(scheme.stderr.contains("postgres://"), "\(scheme.stderr)")
        #expect(!scheme.stderr.contains(password))
    }

    @Test("the serve banner names the database without its password")
    func bannerHidesThePassword() async throws {
        let directory = LatchdProcess.temporaryDataDirectory()
        defer { LatchdProcess.removeData(directory) }
        guard case .postgres(let url) = try LatchTestStore.preparePostgres(dataDirectory: directory) else { return }
        let server = try await LatchdProcess.start(dataDirectory: directory)
        defer { server.forceStop() }
        #expect(server.log.contains("store:     PostgreSQL postgres://latch@"), "\(server.log)")
        #expect(!server.log.contains(Self.password(in: url)))
    }

    /// The password part of a `postgres://user:password@host/db` URL.
    static func password(in url: String) -> String {
        URLComponents(string: url)?.password ?? "<none>"
    }
}
