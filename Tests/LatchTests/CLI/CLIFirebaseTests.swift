import Foundation
import LatchServer
import LatchTesting
import Testing

/// The built `latch` through the Firebase-style account API against a real server: `signin
/// --anonymous`, `signin --custom-token`, and `latch account show|link|update-email|update-password|
/// delete|unlink`, with the client's API key from `LATCH_API_KEY` or `--api-key`.
@Suite("latch account API")
struct CLIFirebaseTests {
    static let password = CLITests.password

    /// A live server, a temporary home and the development client's API key.
    static func environment(_ body: (LatchTestServer, CLIHome, String) async throws -> Void) async throws {
        let server = try LatchTestServer.start()
        defer { server.stop() }
        let home = try CLIHome()
        defer { home.remove() }
        let tenant = try server.app.services.admin.tenant(named: "default")
        let apiKey = try #require(try server.app.services.admin.clients(tenant: tenant).first { $0.id == "latch-dev" }?.apiKey)
        try await body(server, home, apiKey)
    }

    /// `latch --json --server … ARGUMENTS` with `LATCH_API_KEY` set.
    static func run(
        _ server: LatchTestServer, _ home: CLIHome, _ apiKey: String, _ arguments: [String], input: String = ""
    ) async throws -> CLIProcess.Outcome {
        try await CLIProcess.run(
            home: home, ["--json", "--server", server.baseURL] + arguments, input: input,
            environment: ["LATCH_API_KEY": apiKey])
    }

    @Test("signin --anonymous, account show, account link --email (password on stdin), account show again")
    func anonymousThenLink() async throws {
        try await Self.environment { server, home, apiKey in
            let signin = try await Self.run(server, home, apiKey, ["signin", "--anonymous"])
            #expect(signin.status == 0, "\(signin.stderr)")
            let anonymous = try signin.json()
            #expect(anonymous["flow"] as? String == "anonymous")
            #expect(anonymous["anonymous"] as? Bool == true)
            let uid = try #require(anonymous["uid"] as? String)

            let shown = try await Self.run(server, home, apiKey, ["account", "show"])
            #expect(shown.status == 0, "\(shown.stderr)")
            #expect(try shown.json()["uid"] as? String == uid)

            let email = CLIMFATests.email("kept")
            let linked = try await Self.run(
                server, home, apiKey, ["account", "link", "--email", email, "--password-stdin"], input: "\(Self.password)\n")
            #expect(linked.status == 0, "\(linked.stderr)")
            let after = try linked.json()
            #expect(after["uid"] as? String == uid)
            #expect(after["email"] as? String == email)
            #expect(after["providers"] as? [String] == ["password"])
            #expect(after["anonymous"] as? Bool == false)

            let again = try await Self.run(
                server, home, apiKey, ["account", "link", "--email", email, "--password-stdin"], input: "\(Self.password)\n")
            #expect(again.status == 4, "\(again.stdout)")
            #expect(((try again.json()["error"] as? [String: Any])?["name"] as? String) == "ERROR_PROVIDER_ALREADY_LINKED")
        }
    }

    @Test("signin --custom-token with a minted token: whoami shows its uid and claims; a foreign token exits 3")
    func customToken() async throws {
        try await Self.environment { server, home, apiKey in
            let admin = server.app.services.admin
            let token = try admin.mintCustomToken(
                tenant: try admin.tenant(named: "default"), uid: "cli-uid", claims: ["plan": "pro"])
            let signin = try await Self.run(server, home, apiKey, ["signin", "--custom-token", token])
            #expect(signin.status == 0, "\(signin.stderr)")
            #expect(try signin.json()["uid"] as? String == "cli-uid")
            let whoami = try await Self.run(server, home, apiKey, ["whoami"])
            let claims = try #require(try whoami.json()["claims"] as? [String: Any])
            #expect(claims["sub"] as? String == "cli-uid")
            #expect(claims["plan"] as? String == "pro")

            let foreign = try admin.mintCustomToken(tenant: try admin.createTenant(name: "elsewhere"), uid: "cli-uid")
            let refused = try await Self.run(server, home, apiKey, ["signin", "--custom-token", foreign])
            #expect(refused.status == 3, "\(refused.stdout)")
            #expect(((try refused.json()["error"] as? [String: Any])?["name"] as? String) == "ERROR_CUSTOM_TOKEN_MISMATCH")
        }
    }

    @Test("account update-email, update-password (the new password signs in), unlink unknown provider, delete")
    func changes() async throws {
        try await Self.environment { server, home, apiKey in
            let email = CLIMFATests.email("changes")
            _ = try server.createUser(email: email, password: Self.password)
            let signin = try await Self.run(
                server, home, apiKey, ["signin", "--email", email, "--password-stdin"], input: "\(Self.password)\n")
            #expect(signin.status == 0, "\(signin.stderr)")

            let moved = CLIMFATests.email("moved")
            let update = try await Self.run(server, home, apiKey, ["account", "update-email", "--email", moved])
            #expect(update.status == 0, "\(update.stderr)")
            #expect(try update.json()["email"] as? String == moved)

            let newPassword = "Harbor-Velvet-91?"
            let change = try await Self.run(
                server, home, apiKey, ["account", "update-password", "--password-stdin"], input: "\(newPassword)\n")
            #expect(change.status == 0, "\(change.stderr)")

            let unlink = try await Self.run(server, home, apiKey, ["account", "unlink", "--provider-id", "oidc.none"])
            #expect(unlink.status == 4)
            #expect(((try unlink.json()["error"] as? [String: Any])?["name"] as? String) == "ERROR_NO_SUCH_PROVIDER")

            let delete = try await Self.run(server, home, apiKey, ["account", "delete"])
            #expect(delete.status == 0, "\(delete.stderr)")
            #expect(try delete.json()["status"] as? String == "deleted")
            let tenant = try server.app.services.admin.tenant(named: "default")
            #expect(try server.app.services.store.read { try $0.user(email: moved, tenantID: tenant.id) } == nil)
            let gone = try await Self.run(server, home, apiKey, ["account", "show"])
            #expect(gone.status == 5, "\(gone.stdout)")
        }
    }

    /// The action link of the newest message to `recipient`, once one is sent.
    static func waitForLink(_ server: LatchTestServer, to recipient: String, after earlier: Int = 0) async throws -> String {
        _ = try await CLITests.waitForCode(server, to: recipient, after: earlier)
        let body = try #require(try server.outbox(to: recipient).first?.body)
        return try #require(
            body.split(whereSeparator: \.isWhitespace).map(String.init).first { $0.hasPrefix("http") && $0.contains("oobCode=") })
    }

    @Test("signin --email-link: the link from the message (on stdin) signs a new verified account in; a wrong link exits 3")
    func emailLink() async throws {
        try await Self.environment { server, home, apiKey in
            let email = CLIMFATests.email("link")
            let running = try CLIProcess.start(
                home: home, ["--json", "--server", server.baseURL, "signin", "--email-link", "--email", email],
                environment: ["LATCH_API_KEY": apiKey])
            running.write(try await Self.waitForLink(server, to: email) + "\n")
            let outcome = try await running.finish()
            #expect(outcome.status == 0, "\(outcome.stderr)")
            let user = try outcome.json()
            #expect(user["flow"] as? String == "email_link")
            #expect(user["email"] as? String == email)
            #expect(user["email_verified"] as? Bool == true)

            let wrong = try await Self.run(
                server, home, apiKey, ["signin", "--email-link", "--email", email],
                input: "https://example.com/?mode=resetPassword&oobCode=nope\n")
            #expect(wrong.status == 3, "\(wrong.stdout)")
            #expect(((try wrong.json()["error"] as? [String: Any])?["name"] as? String) == "ERROR_INVALID_ACTION_CODE")
        }
    }

    @Test("account verify-email: the message's link applied from stdin marks the address verified; an empty answer leaves it")
    func verifyEmail() async throws {
        try await Self.environment { server, home, apiKey in
            let email = CLIMFATests.email("verify")
            var user = try server.createUser(email: email, password: Self.password)
            user.emailVerified = false
            try server.app.services.store.write { try $0.update(user) }
            let signin = try await Self.run(
                server, home, apiKey, ["signin", "--email", email, "--password-stdin"], input: "\(Self.password)\n")
            #expect(signin.status == 0, "\(signin.stderr)")

            let later = try await Self.run(server, home, apiKey, ["account", "verify-email"], input: "\n")
            #expect(later.status == 0, "\(later.stderr)")
            #expect(try later.json()["status"] as? String == "sent")

            let running = try CLIProcess.start(
                home: home, ["--json", "--server", server.baseURL, "account", "verify-email"],
                environment: ["LATCH_API_KEY": apiKey])
            running.write(try await Self.waitForLink(server, to: email, after: 1) + "\n")
            let outcome = try await running.finish()
            #expect(outcome.status == 0, "\(outcome.stderr)")
            #expect(try outcome.json()["email_verified"] as? Bool == true)
        }
    }

    @Test("usage: no action, an unknown action, two sign-in ways at once; no API key answers ERROR_INVALID_API_KEY")
    func usage() async throws {
        try await Self.environment { server, home, _ in
            for arguments in [["account"], ["account", "rename"], ["signin", "--anonymous", "--email-link"]] {
                let outcome = try await CLIProcess.run(home: home, ["--server", server.baseURL] + arguments)
                #expect(outcome.status == 2, "\(arguments): \(outcome.stderr)")
            }
            let keyless = try await CLIProcess.run(home: home, ["--json", "--server", server.baseURL, "signin", "--anonymous"])
            #expect(keyless.status == 1)
            #expect(((try keyless.json()["error"] as? [String: Any])?["name"] as? String) == "ERROR_INVALID_API_KEY")
            let wrong = try await CLIProcess.run(
                home: home, ["--json", "--server", server.baseURL, "--api-key", "not-a-key", "signin", "--anonymous"])
            #expect(((try wrong.json()["error"] as? [String: Any])?["name"] as? String) == "ERROR_INVALID_API_KEY")
        }
    }
}
