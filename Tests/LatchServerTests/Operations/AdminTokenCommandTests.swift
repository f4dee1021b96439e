import Foundation
import LatchServer
import LatchTesting
import Testing

/// `latchd admin-token create|list|revoke` of the built binary, against a data directory a running
/// server shares: the secret is printed once, the list never holds it and escapes labels, and a
/// revocation stops the token in the server at once.
@Suite("latchd admin-token")
struct AdminTokenCommandTests {
    @Test("create prints the secret once, list shows the token without it, revoke stops it in a running server")
    func lifecycle() async throws {
        let directory = LatchdProcess.temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let data = ["--data-dir", directory]
        #expect(try LatchdRun(["tenant", "create", "acme"] + data).status == 0)

        let label = "ci \u{1B}[2J deploy"
        let create = try LatchdRun(["admin-token", "create", "--tenant", "acme", "--name", label] + data)
        #expect(create.status == 0, "\(create.stderr)")
        let lines = create.stdout.split(separator: "\n")
        #expect(lines.count == 1, "only the secret goes to standard output: \(create.stdout)")
        let secret = String(try #require(lines.first))
        #expect(secret.hasPrefix(AdminToken.secretPrefix))
        #expect(create.stderr.contains("for tenant acme"), "\(create.stderr)")

        let listed = try LatchdRun(["admin-token", "list"] + data)
        #expect(listed.status == 0, "\(listed.stderr)")
        let row = try #require(listed.stdout.split(separator: "\n").first.map(String.init))
        let id = try #require(row.split(separator: "\t").first.map(String.init))
        #expect(create.stderr.contains("admin token \(id) "), "\(create.stderr)")
        #expect(row.contains("\ttenant=acme\t") && row.contains("\tlast used never\t") && row.contains("\tactive\t"), "\(row)")
        #expect(row.hasSuffix("ci \\u{1b}[2J deploy"), "the label is escaped: \(row)")
        #expect(!listed.stdout.contains("\u{1B}"))
        #expect(!listed.stdout.contains(secret.dropFirst(AdminToken.secretPrefix.count)))
        #expect(try LatchdRun(["admin-token", "list", "--tenant", "default"] + data).stdout.isEmpty)

        let server = try LatchTestServer.start(mode: .inProcess) { $0.dataDirectory = directory }
        defer { server.stop() }
        let client = WireClient(server)
        let bearer = ["Authorization": "Bearer \(secret)"]
        #expect(try await client.raw("GET", "/acme/admin/audit", headers: bearer).status == 200)
        #expect(try await client.raw("GET", "/default/admin/audit", headers: bearer).status == 403)
        #expect(!(try LatchdRun(["admin-token", "list"] + data).stdout.contains("last used never")))

        let revoke = try LatchdRun(["admin-token", "revoke", id] + data)
        #expect(revoke.status == 0, "\(revoke.stderr)")
        #expect(revoke.stdout.contains("revoked admin token \(id)"))
        #expect(try await client.raw("GET", "/acme/admin/audit", headers: bearer).status == 401)
        #expect(try LatchdRun(["admin-token", "revoke", id] + data).stdout.contains("revoked already"))
        #expect(try LatchdRun(["admin-token", "list", "--tenant", "acme"] + data).stdout.contains("\trevoked "))
    }

    @Test(
        "an unknown tenant or token id fails with exit 1 and says which",
        arguments: [
            (["admin-token", "create", "--tenant", "nosuch"], "no such tenant"),
            (["admin-token", "list", "--tenant", "nosuch"], "no such tenant"),
            (["admin-token", "revoke", "0123456789abcdef"], "no such admin token"),
        ])
    func unknownNames(arguments: [String], message: String) throws {
        let directory = LatchdProcess.temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = try LatchdRun(arguments + ["--data-dir", directory])
        #expect(run.status == 1, "\(run.stdout) \(run.stderr)")
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(run.stdout.isEmpty)
    }

    @Test("latchd --help and admin-token create --help describe the commands")
    func help() throws {
        let full = try LatchdRun(["--help"])
        #expect(full.status == 0)
        for text in [
            "latchd admin-token create --tenant T [--name LABEL]", "latchd admin-token list [--tenant T]",
            "latchd admin-token revoke ID",
        ] {
            #expect(full.stdout.contains(text), "\(text) in \(full.stdout)")
        }
        let create = try LatchdRun(["admin-token", "create", "--help"])
        #expect(create.status == 0)
        #expect(create.stdout.contains("shown once"), "\(create.stdout)")
        #expect(create.stdout.contains("--name LABEL"))
        #expect(create.created.isEmpty)
        #expect(try LatchdRun(["admin-token", "-h"]).stdout.contains("latchd admin-token revoke"))
    }
}
