import Foundation
import LatchServer
import LatchTesting
import Testing

/// The built `latch` through a second factor against a real server, non-interactively: the
/// registration of a strong method (`--register-email`, `--register-phone`), the second factor at
/// sign-in (`--mfa-method`), the step-up of `latch token`, wrong codes, and `latch mfa list`. Codes
/// are read from the server's outbox and written to the child's standard input once sent, or
/// passed as `LATCH_MFA_CODE` / `LATCH_REGISTRATION_CODE`.
@Suite("latch second factor")
struct CLIMFATests {
    static let password = CLITests.password

    /// A live server whose default tenant requires a second factor, a temporary home and a user.
    static func environment(
        _ prefix: String, _ body: (LatchTestServer, CLIHome, User) async throws -> Void
    ) async throws {
        let server = try LatchTestServer.start()
        defer { server.stop() }
        try server.updateTenant { $0.mfa.policy = .required }
        let home = try CLIHome()
        defer { home.remove() }
        try await body(server, home, try server.createUser(email: Self.email(prefix), password: Self.password))
    }

    /// A fresh e-mail address.
    static func email(_ prefix: String) -> String {
        "\(prefix)-\(UUID().uuidString.prefix(8).lowercased())@example.com"
    }

    /// Gives `user` a verified e-mail method at `target`, as a finished registration would.
    static func addEmailMethod(_ target: String, to user: User, in server: LatchTestServer) throws {
        try server.app.services.store.write { tx in
            try tx.insert(
                AuthMethod(
                    id: UUID().uuidString.lowercased(), tenantID: user.tenantID, userID: user.id, channel: .email,
                    target: target, verified: true, createdAt: server.clock.now()))
        }
    }

    /// `latch ARGUMENTS` with the password on standard input, then the code the server sends to
    /// `recipient` (the `earlier + 1`th it receives) once it is sent.
    static func runWithCode(
        _ server: LatchTestServer, _ home: CLIHome, _ arguments: [String], codeTo recipient: String, after earlier: Int = 0,
        password: Bool = true
    ) async throws -> CLIProcess.Outcome {
        let running = try CLIProcess.start(home: home, ["--server", server.baseURL] + arguments)
        if password { running.write("\(Self.password)\n") }
        let code = try await CLITests.waitForCode(server, to: recipient, after: earlier)
        running.write("\(code)\n")
        return try await running.finish()
    }

    // MARK: - Tests

    @Test("signin registers an e-mail method (--register-email), the next one proves it (--mfa-method email), mfa list")
    func registrationThenSecondFactor() async throws {
        try await Self.environment("reg") { server, home, user in
            let email = user.email
            let second = "second-\(UUID().uuidString.prefix(6).lowercased())@example.org"
            let registered = try await Self.runWithCode(
                server, home, ["signin", "--email", email, "--password-stdin", "--register-email", second], codeTo: second)
            #expect(registered.status == 0, "\(registered.stderr)")
            #expect(registered.stdout.contains("Registered email \(second) as a second factor."), "\(registered.stdout)")
            #expect(registered.stdout.contains("Signed in as \(email)."), "\(registered.stdout)")

            let signin = try await Self.runWithCode(
                server, home, ["--json", "signin", "--email", email, "--password-stdin", "--mfa-method", "email"],
                codeTo: second, after: 1)
            #expect(signin.status == 0, "\(signin.stderr)")
            let signedIn = try signin.json()
            #expect(signedIn["status"] as? String == "signed_in")
            let method = try #require(signedIn["mfa_method"] as? [String: Any])
            #expect(method["channel"] as? String == "email")
            #expect(method["login_hint"] as? String == "s***@e***.org")
            #expect(signedIn["registered_method"] == nil)

            let list = try await CLIProcess.run(home: home, ["--server", server.baseURL, "mfa", "list"])
            #expect(list.status == 0, "\(list.stderr)")
            let lines = list.stdout.split(separator: "\n")
            #expect(lines.count == 2, "\(list.stdout)")
            #expect(lines.first?.hasPrefix("CHANNEL  CONTACT") == true, "\(list.stdout)")
            #expect(lines.last?.hasPrefix("email    s***@e***.org  yes") == true, "\(list.stdout)")
            #expect(!list.stdout.contains(second))

            let json = try await CLIProcess.run(home: home, ["--server", server.baseURL, "--json", "mfa", "list"])
            #expect(json.status == 0, "\(json.stderr)")
            let listed = try json.json()
            #expect((listed["account"] as? [String: Any])?["username"] as? String == email)
            let methods = try #require(listed["methods"] as? [[String: Any]])
            #expect(methods.count == 1)
            #expect(methods.first?["channel"] as? String == "email")
            #expect(methods.first?["login_hint"] as? String == "s***@e***.org")
            #expect(methods.first?["verified"] as? Bool == true)
            #expect(methods.first?["created_at"] is String)
            #expect(methods.first?["id"] as? String == method["id"] as? String)
            #expect(!json.stdout.contains(second))
        }
    }

    @Test("--register-phone registers an SMS method; an invalid number exits 3 naming invalid input")
    func smsRegistration() async throws {
        try await Self.environment("sms") { server, home, user in
            let email = user.email
            let signin = ["--server", server.baseURL, "signin", "--email", email, "--password-stdin"]
            let invalid = try await CLIProcess.run(
                home: home, signin + ["--register-phone", "555-0100"], input: "\(Self.password)\n")
            #expect(invalid.status == 3, "\(invalid.stderr)")
            #expect(invalid.stderr.contains("invalid input"), "\(invalid.stderr)")
            #expect(invalid.stderr.contains("(ERROR_INVALID_INPUT)"), "\(invalid.stderr)")
            #expect(invalid.stderr.contains("E.164"), "\(invalid.stderr)")

            let invalidJSON = try await CLIProcess.run(
                home: home, ["--json"] + signin + ["--register-phone", "555-0100"], input: "\(Self.password)\n")
            #expect(invalidJSON.status == 3)
            let error = try #require(try invalidJSON.json()["error"] as? [String: Any])
            #expect(error["name"] as? String == "ERROR_INVALID_INPUT")
            #expect(error["recovery"] as? String == "correct_input")
            #expect(error["exit_code"] as? Int == 3)

            let phone = "+14155550123"
            let registered = try await Self.runWithCode(
                server, home, ["signin", "--email", email, "--password-stdin", "--register-phone", phone], codeTo: phone)
            #expect(registered.status == 0, "\(registered.stderr)")
            #expect(registered.stdout.contains("Registered sms \(phone) as a second factor."), "\(registered.stdout)")

            let list = try await CLIProcess.run(home: home, ["--server", server.baseURL, "--json", "mfa", "list"])
            let methods = try #require(try list.json()["methods"] as? [[String: Any]])
            #expect(methods.map { $0["channel"] as? String } == ["sms"])
            #expect(methods.map { $0["login_hint"] as? String } == ["+1******0123"])
        }
    }

    @Test("without a terminal, a registration with no --register-email or --register-phone is a usage error")
    func registrationWithoutContact() async throws {
        try await Self.environment("noreg") { server, home, user in
            let email = user.email
            let run = try await CLIProcess.run(
                home: home, ["--server", server.baseURL, "signin", "--email", email, "--password-stdin"],
                input: "\(Self.password)\n")
            #expect(run.status == 2, "\(run.stderr)")
            #expect(run.stderr.hasPrefix("latch: the account must register a second factor"), "\(run.stderr)")
            #expect(run.stderr.contains("--register-email") && run.stderr.contains("--register-phone"), "\(run.stderr)")
            let accounts = try await CLIProcess.run(home: home, ["--server", server.baseURL, "accounts"])
            #expect(accounts.stdout.contains("No accounts"), "\(accounts.stdout)")
        }
    }

    @Test("preverified: registering the verified sign-in address needs no code, and says so")
    func preverifiedRegistration() async throws {
        try await Self.environment("pre") { server, home, user in
            let email = user.email
            let human = try await CLIProcess.run(
                home: home,
                ["--server", server.baseURL, "signin", "--email", email, "--password-stdin", "--register-email", email],
                input: "\(Self.password)\n")
            #expect(human.status == 0, "\(human.stderr)")
            #expect(human.stdout.contains("the server already trusted it, so no code was needed"), "\(human.stdout)")
            #expect(try server.outbox(to: email).isEmpty)

            let other = try server.createUser(email: Self.email("pre-json"), password: Self.password)
            let json = try await CLIProcess.run(
                home: home,
                [
                    "--server", server.baseURL, "--json", "signin", "--email", other.email, "--password-stdin",
                    "--register-email", other.email,
                ], input: "\(Self.password)\n")
            #expect(json.status == 0, "\(json.stderr)")
            let registered = try #require(try json.json()["registered_method"] as? [String: Any])
            #expect(registered["preverified"] as? Bool == true)
            #expect(registered["channel"] as? String == "email")
            #expect(registered["contact"] as? String == other.email)
        }
    }

    @Test("a wrong code exits 3 with the recovery hint, from stdin or the environment; --json prints the error object")
    func wrongCodes() async throws {
        try await Self.environment("wrong") { server, home, user in
            let email = user.email
            let signin = ["--server", server.baseURL, "signin", "--email", email, "--password-stdin"]
            let registration = try await CLIProcess.run(
                home: home, signin + ["--register-email", "reg-\(email)"], input: "\(Self.password)\n",
                environment: ["LATCH_REGISTRATION_CODE": "00000000"])
            #expect(registration.status == 3, "\(registration.stderr)")
            #expect(registration.stderr.contains("(ERROR_INVALID_CHALLENGE)"), "\(registration.stderr)")

            try Self.addEmailMethod("backup-\(email)", to: user, in: server)
            let stdin = try await CLIProcess.run(home: home, signin, input: "\(Self.password)\n00000000\n")
            #expect(stdin.status == 3, "\(stdin.stderr)")
            #expect(stdin.stderr.contains("the second-factor or registration code is incorrect (ERROR_INVALID_CHALLENGE)."))
            #expect(stdin.stderr.contains("enter it again"), "\(stdin.stderr)")

            let json = try await CLIProcess.run(
                home: home, ["--json"] + signin + ["--mfa-method", "email"], input: "\(Self.password)\n",
                environment: ["LATCH_MFA_CODE": "00000000"])
            #expect(json.status == 3, "\(json.stderr)")
            let error = try #require(try json.json()["error"] as? [String: Any])
            #expect(error["name"] as? String == "ERROR_INVALID_CHALLENGE")
            #expect(error["code"] as? Int == 19014)
            #expect(error["recovery"] as? String == "correct_input")
            #expect((error["hint"] as? String)?.contains("LATCH_MFA_CODE") == true)

            let unknown = try await CLIProcess.run(home: home, signin + ["--mfa-method", "sms"], input: "\(Self.password)\n")
            #expect(unknown.status == 2, "\(unknown.stderr)")
            #expect(unknown.stderr.contains("option '--mfa-method': the account has no method 'sms'"), "\(unknown.stderr)")
            #expect(unknown.stderr.contains("email b***@e***.com (id "), "\(unknown.stderr)")
        }
    }

    @Test("token --scope steps up when a conditional rule wants a recent second factor, then prints the token")
    func tokenStepUp() async throws {
        try await Self.environment("step") { server, home, user in
            let email = user.email
            let target = "token-\(UUID().uuidString.prefix(6).lowercased())@example.org"
            try Self.addEmailMethod(target, to: user, in: server)
            let signin = try await Self.runWithCode(
                server, home, ["signin", "--email", email, "--password-stdin", "--scope", "files.write"], codeTo: target)
            #expect(signin.status == 0, "\(signin.stderr)")
            try server.updateTenant {
                $0.mfa.policy = .conditional
                $0.mfa.rules = [ConditionalAccessRule(scopes: ["files.write"], maxAgeSeconds: 60)]
            }
            server.clock.advance(by: 61)  // the second factor is now older than the rule allows

            let wrong = try await CLIProcess.run(
                home: home, ["--server", server.baseURL, "token", "--scope", "files.write", "--force-refresh"],
                environment: ["LATCH_MFA_CODE": "00000000"])
            #expect(wrong.status == 3, "\(wrong.stderr)")
            #expect(wrong.stderr.contains("(ERROR_INVALID_CHALLENGE)"), "\(wrong.stderr)")

            let raised = try await Self.runWithCode(
                server, home, ["token", "--scope", "files.write", "--force-refresh"], codeTo: target, after: 2,
                password: false)
            #expect(raised.status == 0, "\(raised.stderr)")
            let token = raised.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(token.split(separator: ".", omittingEmptySubsequences: false).count == 3, "\(raised.stdout)")

            let again = try await CLIProcess.run(
                home: home, ["--server", server.baseURL, "--json", "token", "--scope", "files.write", "--force-refresh"])
            #expect(again.status == 0, "no second factor within the rule's age: \(again.stderr)")
            #expect((try again.json()["scopes"] as? [String])?.contains("files.write") == true)
            #expect(try server.outbox(to: target).count == 3)
        }
    }
}
