import Foundation
import LatchServer
import Testing

/// `latchd client create --confidential`: the secret is printed once and only its hash is stored.
@Suite("latchd client create --confidential")
struct ConfidentialClientCommandTests {
    @Test("prints a 256-bit secret once; the database holds no copy of it")
    func create() throws {
        let directory = LatchdProcess.temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let data = ["--data-dir", directory]
        #expect(try LatchdRun(["tenant", "create", "acme"] + data).status == 0)
        let created = try LatchdRun(
            ["client", "create", "--tenant", "acme", "--id", "svc", "--confidential", "--scope", "orders.read"] + data)
        #expect(created.status == 0, "\(created.stderr)")
        #expect(created.stdout.contains("created confidential client svc in tenant acme"), "\(created.stdout)")
        let prefix = "client secret (shown once, store it now): "
        let line = try #require(created.stdout.split(separator: "\n").first { $0.hasPrefix(prefix) })
        let secret = String(line.dropFirst(prefix.count))
        #expect(secret.count == 43)
        let listed = try LatchdRun(["client", "list", "--tenant", "acme"] + data)
        #expect(listed.stdout.contains("svc\tconfidential"), "\(listed.stdout)")
        #expect(!listed.stdout.contains(secret))
        let files = DatabaseFileBytes(database: directory + "/latch.db")
        #expect(!files.files.isEmpty)
        #expect(files.files(containing: secret).isEmpty)
    }

    @Test("rotate-secret prints a new secret; public and unknown clients are refused")
    func rotate() throws {
        let directory = LatchdProcess.temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let data = ["--data-dir", directory]
        let prefix = "client secret (shown once, store it now): "
        func secret(_ run: LatchdRun) -> String? {
            run.stdout.split(separator: "\n").first { $0.hasPrefix(prefix) }.map { String($0.dropFirst(prefix.count)) }
        }
        #expect(try LatchdRun(["tenant", "create", "acme"] + data).status == 0)
        let created = try LatchdRun(["client", "create", "--tenant", "acme", "--id", "svc", "--confidential"] + data)
        #expect(created.status == 0, "\(created.stderr)")
        let rotated = try LatchdRun(["client", "rotate-secret", "--tenant", "acme", "--id", "svc"] + data)
        #expect(rotated.status == 0, "\(rotated.stderr)")
        let first = try #require(secret(created))
        let second = try #require(secret(rotated))
        #expect(first != second)
        #expect(second.count == 43)
        #expect(try LatchdRun(["client", "create", "--tenant", "acme", "--id", "app"] + data).status == 0)
        #expect(try LatchdRun(["client", "rotate-secret", "--tenant", "acme", "--id", "app"] + data).status != 0)
        #expect(try LatchdRun(["client", "rotate-secret", "--tenant", "acme", "--id", "nobody"] + data).status != 0)
        #expect(try LatchdRun(["client", "rotate-secret"] + data).status == 2)
        let files = DatabaseFileBytes(database: directory + "/latch.db")
        #expect(files.files(containing: second).isEmpty)
    }
}
