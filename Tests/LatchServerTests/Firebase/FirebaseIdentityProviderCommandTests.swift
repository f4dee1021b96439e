import Foundation
import LatchServer
import LatchTesting
import Testing

/// `latchd idp add | list | remove`, run as the built binary against a test server's data directory.
@Suite("Firebase: latchd idp commands")
struct FirebaseIdentityProviderCommandTests {
    typealias Fixture = IdentityProviderFixture

    @Test("idp add with a JWKS file configures a provider the server signs in with; list and remove; help")
    func addListRemove() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let jwksFile = FileManager.default.temporaryDirectory.appendingPathComponent("jwks-\(UUID().uuidString).json")
        try Data(Fixture.jwks.utf8).write(to: jwksFile)
        defer { try? FileManager.default.removeItem(at: jwksFile) }
        let data = ["--data-dir", server.dataDirectory, "--tenant", server.tenant]
        let add = [
            "idp", "add", "--provider-id", "oidc.cli", "--issuer", Fixture.issuer, "--client-id", Fixture.clientID,
        ]

        let added = try LatchdRun(add + ["--jwks-file", jwksFile.path] + data)
        #expect(added.status == 0, "\(added.stderr)")
        #expect(added.stdout.contains("added identity provider oidc.cli"), "\(added.stdout)")
        let listed = try LatchdRun(["idp", "list"] + data)
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains("oidc.cli\tissuer=\(Fixture.issuer)"), "\(listed.stdout)")

        let idp = IdentityProviderFixture(client: try FirebaseClient(server))
        let reply = try await idp.signIn(try idp.token("sub-cli"), provider: "oidc.cli")
        #expect(reply.status == 200, "\(reply.json)")
        #expect(reply.string("providerId") == "oidc.cli")

        let again = try LatchdRun(add + ["--jwks-file", jwksFile.path] + data)
        #expect(again.status == 2, "\(again.stderr)")
        let removed = try LatchdRun(["idp", "remove", "--provider-id", "oidc.cli"] + data)
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(try LatchdRun(["idp", "remove", "--provider-id", "oidc.cli"] + data).status == 2)
        #expect(try LatchdRun(["idp", "list"] + data).stdout.isEmpty)

        let help = try LatchdRun(["--help"])
        #expect(help.stdout.contains("idp add"), "\(help.stdout)")
        let group = try LatchdRun(["idp", "--help"])
        #expect(group.status == 0)
        for command in ["idp add", "idp list", "idp remove"] { #expect(group.stdout.contains(command), "\(group.stdout)") }
    }

    @Test("bad provider ids, issuers, JWKS files and URLs are usage errors (exit 2) with a clear message")
    func refusals() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("idp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let good = directory.appendingPathComponent("good.json")
        try Data(Fixture.jwks.utf8).write(to: good)
        let bad = directory.appendingPathComponent("bad.json")
        try Data(#"{"keys":[{"kty":"oct","k":"c2VjcmV0","kid":"x"}]}"#.utf8).write(to: bad)
        let data = ["--data-dir", server.dataDirectory, "--tenant", server.tenant]
        func add(_ provider: String, issuer: String = Fixture.issuer, _ keys: [String]) throws -> LatchdRun {
            try LatchdRun(
                ["idp", "add", "--provider-id", provider, "--issuer", issuer, "--client-id", Fixture.clientID] + keys + data)
        }
        let cases: [(LatchdRun, String)] = [
            (try add("acme", ["--jwks-file", good.path]), "--provider-id"),
            (try add("oidc.", ["--jwks-file", good.path]), "--provider-id"),
            (try add("oidc.a b", ["--jwks-file", good.path]), "--provider-id"),
            (try add("oidc.x", issuer: "http://login.acme.test", ["--jwks-file", good.path]), "--issuer"),
            (try add("oidc.x", issuer: "login.acme.test", ["--jwks-file", good.path]), "--issuer"),
            (try add("oidc.x", ["--jwks-file", bad.path]), "--jwks-file"),
            (try add("oidc.x", ["--jwks-file", directory.appendingPathComponent("missing").path]), "--jwks-file"),
            (try add("oidc.x", ["--jwks-url", "ftp://keys.acme.test/jwks"]), "--jwks-url"),
            (try add("oidc.x", []), "--jwks-file PATH' or '--jwks-url URL"),
            (try add("oidc.x", ["--jwks-file", good.path, "--jwks-url", "https://keys.acme.test/jwks"]), "not both"),
        ]
        for (run, mention) in cases {
            #expect(run.status == 2, "\(run.stderr)")
            #expect(run.stderr.contains(mention), "\(run.stderr)")
        }
        #expect(try LatchdRun(["idp", "add"] + data).status == 2)
        #expect(try LatchdRun(["idp", "list"]).status == 2)
        // Loopback http is accepted for development providers.
        let loopback = try add("oidc.dev", issuer: "http://127.0.0.1:9000", ["--jwks-url", "http://localhost:9000/jwks"])
        #expect(loopback.status == 0, "\(loopback.stderr)")
        let tenant = try server.app.services.admin.tenant(named: server.tenant)
        #expect(try server.app.services.admin.identityProviders(tenant: tenant).map(\.providerID) == ["oidc.dev"])
    }
}
