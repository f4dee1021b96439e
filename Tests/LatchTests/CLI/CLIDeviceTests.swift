import Foundation
import Latch
import LatchSDKTesting
import LatchServer
import LatchTesting
import Testing

/// `latch signin --device` end to end: the built binary prints the verification page and the
/// code, a scripted HTTP client approves it on the server's device page (entering the code,
/// signing in, allowing), and the binary stores the tokens.
@Suite("latch signin --device")
struct CLIDeviceTests {
    /// The verification URL and the user code in `latch signin --device`'s instructions.
    static func instructions(_ text: String) throws -> (url: URL, code: String) {
        let pattern = try NSRegularExpression(pattern: "open (\\S+) and enter the code (\\S+)")
        let source = text as NSString
        guard let match = pattern.firstMatch(in: text, range: NSRange(location: 0, length: source.length)),
            let url = URL(string: source.substring(with: match.range(at: 1)))
        else { throw CLITestFailure("no instructions in: \(text)") }
        return (url, source.substring(with: match.range(at: 2)))
    }

    @Test("prints the URL and code, is approved on the verification page, and signs in")
    func approve() async throws {
        let server = try LatchTestServer.start()
        defer { server.stop() }
        let home = try CLIHome()
        defer { home.remove() }
        let email = "dev-\(UUID().uuidString.prefix(8).lowercased())@example.com"
        try server.createUser(email: email, password: CLITests.password)

        let signin = try CLIProcess.start(home: home, ["--server", server.baseURL, "--json", "signin", "--device"])
        let shown = try await signin.readStandardError(until: "Waiting for the sign-in")
        let (url, code) = try Self.instructions(shown)
        #expect(url.absoluteString.hasPrefix(server.baseURL + "/default/oauth2/v2.0/devicelogin"))
        #expect(code.count >= 8)

        let browser = ScriptedBrowser(steps: [
            .submit(form: "device", ["user_code": code], button: "action", value: "continue"),
            .submit(form: "signin", ["username": email, "password": CLITests.password], button: "action", value: "password"),
            .submit(form: "device-confirm", button: "decision", value: "allow"),
        ])
        let done: ScriptedPage
        do {
            done = try await browser.run(from: url)
        } catch {
            _ = try? await signin.finish(timeout: 1)  // stops the polling child
            throw error
        }
        #expect(done.hasElement(id: "done"), "\(done.html)")

        let finished = try await signin.finish()
        #expect(finished.status == 0, "\(finished.stderr)")
        let result = try finished.json()
        #expect(result["status"] as? String == "signed_in")
        #expect(result["flow"] as? String == "device")
        #expect((result["account"] as? [String: Any])?["username"] as? String == email)

        let token = try await CLIProcess.run(home: home, ["--server", server.baseURL, "token"])
        #expect(token.status == 0, "\(token.stderr)")
    }

    @Test("signin --browser: the command gets the URL, the hosted page signs in, the loopback redirect comes back")
    func browser() async throws {
        let server = try LatchTestServer.start()
        defer { server.stop() }
        let home = try CLIHome()
        defer { home.remove() }
        let email = "web-\(UUID().uuidString.prefix(8).lowercased())@example.com"
        try server.createUser(email: email, password: CLITests.password)

        // `true` stands for a browser that opened the page; the scripted browser then is the user.
        let signin = try CLIProcess.start(
            home: home,
            ["--server", server.baseURL, "--json", "signin", "--browser", "--browser-command", "true", "--email", email])
        let shown = try await signin.readStandardError(until: "/oauth2/v2.0/authorize?")
        let line = try #require(shown.split(separator: "\n").first { $0.contains("/oauth2/v2.0/authorize?") })
        let url = try #require(URL(string: String(line)))
        let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        let redirect = try #require(query.first { $0.name == "redirect_uri" }?.value.flatMap(URL.init(string:)))
        #expect(redirect.absoluteString.hasPrefix("http://127.0.0.1:"))
        #expect(query.first { $0.name == "login_hint" }?.value == email)
        #expect(query.first { $0.name == "code_challenge_method" }?.value == "S256")

        let browser = ScriptedBrowser(steps: [
            .submit(form: "signin", ["username": email, "password": CLITests.password], button: "action", value: "password")
        ])
        #expect(try await browser.open(url, redirectURI: redirect) == .awaitingRedirect)
        #expect(browser.callbackPages.first?.status == 200)

        let finished = try await signin.finish()
        #expect(finished.status == 0, "\(finished.stderr)")
        let result = try finished.json()
        #expect(result["flow"] as? String == "browser")
        #expect((result["account"] as? [String: Any])?["username"] as? String == email)
        let token = try await CLIProcess.run(home: home, ["--server", server.baseURL, "token"])
        #expect(token.status == 0, "\(token.stderr)")
    }

    @Test("token at a terminal signs in again in the browser when the session has ended, then prints the token")
    func tokenFallsBackToBrowser() async throws {
        let server = try LatchTestServer.start()
        defer { server.stop() }
        let home = try CLIHome()
        defer { home.remove() }
        let email = "back-\(UUID().uuidString.prefix(8).lowercased())@example.com"
        try server.createUser(email: email, password: CLITests.password)
        let signin = try await CLIProcess.run(
            home: home, ["--server", server.baseURL, "signin", "--email", email, "--password-stdin"],
            input: "\(CLITests.password)\n")
        #expect(signin.status == 0, "\(signin.stderr)")
        server.clock.advance(by: 400 * 86400)  // the refresh token has long expired

        // Without a terminal: exit 5, nothing opened.
        let piped = try await CLIProcess.run(
            home: home, ["--server", server.baseURL, "token", "--force-refresh", "--browser-command", "true"])
        #expect(piped.status == 5, "\(piped.stdout) \(piped.stderr)")
        #expect(!piped.stderr.contains("authorize?"))

        let token = try CLIProcess.start(
            home: home, ["--server", server.baseURL, "token", "--force-refresh", "--browser-command", "true"],
            terminal: true)
        let shown = try await token.readStandardOutput(until: "/oauth2/v2.0/authorize?")
        let line = try #require(
            shown.split(whereSeparator: \.isNewline).first { $0.contains("/oauth2/v2.0/authorize?") })
        let url = try #require(URL(string: line.trimmingCharacters(in: .whitespaces)))
        let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        #expect(query.first { $0.name == "login_hint" }?.value == email)
        let redirect = try #require(query.first { $0.name == "redirect_uri" }?.value.flatMap(URL.init(string:)))
        let browser = ScriptedBrowser(steps: [
            .submit(form: "signin", ["username": email, "password": CLITests.password], button: "action", value: "password")
        ])
        #expect(try await browser.open(url, redirectURI: redirect) == .awaitingRedirect)
        let finished = try await token.finish()
        #expect(finished.status == 0, "\(finished.stdout)")
        #expect(finished.stdout.contains("has ended; signing in again in the browser"), "\(finished.stdout)")
        let printed = finished.stdout.split(whereSeparator: \.isNewline).last.map(String.init) ?? ""
        #expect(printed.trimmingCharacters(in: .whitespaces).split(separator: ".").count == 3, "\(finished.stdout)")
    }

    @Test("--device, --browser and --browser-command are checked before anything is sent")
    func usage() async throws {
        let home = try CLIHome()
        defer { home.remove() }
        for (arguments, message) in [
            (["signin", "--device", "--browser"], "exclude each other"),
            (["signin", "--browser-command", "firefox"], "'--browser-command' needs '--browser'"),
            (["whoami", "--device"], "'--device' does not apply to 'latch whoami'"),
            (["signin", "--browser", "--browser-command"], "'--browser-command' needs a value"),
        ] {
            let run = try await CLIProcess.run(home: home, CLIHelpTests.unreachable + arguments)
            #expect(run.status == 2, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains(message), "\(run.stderr)")
        }
    }

    @Test("--browser with a failing browser command exits 8 (a browser is needed) and stores nothing")
    func failingBrowser() async throws {
        let server = try LatchTestServer.start()
        defer { server.stop() }
        let home = try CLIHome()
        defer { home.remove() }
        let run = try await CLIProcess.run(
            home: home, ["--server", server.baseURL, "signin", "--browser", "--browser-command", "false"])
        #expect(run.status == 8, "\(run.stdout) \(run.stderr)")
        #expect(run.stderr.contains("/default/oauth2/v2.0/authorize?"), "the URL is printed: \(run.stderr)")
        #expect(run.stderr.contains("ERROR_BROWSER_UNAVAILABLE") || run.stderr.contains("browser"), "\(run.stderr)")
    }
}
