import Foundation
import LatchServer
import Testing

/// `latchd client create --api-key`: the key given, or a random one, is printed at creation; a
/// key another client holds is refused.
@Suite("latchd client create --api-key")
struct ClientAPIKeyCommandTests {
    @Test("a given key is printed, a random one otherwise, and a taken key is refused")
    func keys() throws {
        let directory = LatchdProcess.temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let data = ["--data-dir", directory]
        #expect(try LatchdRun(["tenant", "create", "acme"] + data).status == 0)

        let given = try LatchdRun(
            ["client", "create", "--tenant", "acme", "--id", "web", "--api-key", "acme-web-key-0123456789"] + data)
        #expect(given.status == 0, "\(given.stderr)")
        #expect(given.stdout.contains("api key: acme-web-key-0123456789\n"), "\(given.stdout)")

        let random = try LatchdRun(["client", "create", "--tenant", "acme", "--id", "app"] + data)
        #expect(random.status == 0, "\(random.stderr)")
        let line = try #require(random.stdout.split(separator: "\n").first { $0.hasPrefix("api key: ") })
        #expect(line.dropFirst("api key: ".count).count >= 32)

        let taken = try LatchdRun(
            ["client", "create", "--tenant", "default", "--id", "web", "--api-key", "acme-web-key-0123456789"] + data)
        #expect(taken.status != 0)
    }

    @Test("tenant create and update set anonymous sign-in and the recent sign-in window; bad values are usage errors")
    func accountSettings() throws {
        let directory = LatchdProcess.temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let data = ["--data-dir", directory]
        let created = try LatchdRun(["tenant", "create", "acme", "--anonymous-sign-in", "off"] + data)
        #expect(created.status == 0, "\(created.stderr)")
        let updated = try LatchdRun(["tenant", "update", "acme", "--recent-sign-in-seconds", "60"] + data)
        #expect(updated.status == 0, "\(updated.stderr)")
        #expect(try LatchdRun(["tenant", "update", "acme", "--anonymous-sign-in", "maybe"] + data).status == 2)
        #expect(try LatchdRun(["tenant", "update", "acme", "--recent-sign-in-seconds", "0"] + data).status == 2)

        let store = try SQLiteStore(path: directory + "/latch.db")
        defer { store.close() }
        let tenant = try #require(try store.read { try $0.tenant(named: "acme") })
        #expect(tenant.settings.anonymousSignIn == false)
        #expect(tenant.settings.recentSignInSeconds == 60)
    }
}
