import Foundation
import LatchSDKTesting
import LatchServer
import LatchTesting
import Testing

@testable import Latch

/// Interactive sign-in against a real server (`LatchTesting`), the way a Linux app does it: the
/// loopback listener on `127.0.0.1` and a scripted browser that fills the hosted pages, follows the
/// redirects, keeps the cookies and finally requests the loopback redirect over a socket.
@Suite("Interactive sign-in end to end")
struct InteractiveEndToEndTests {
    static func signInSteps(_ email: String, password: String = SDKTest.password) -> [ScriptedBrowser.Step] {
        [.submit(form: "signin", ["username": email, "password": password], button: "action", value: "password")]
    }

    @Test("password on the sign-in page → loopback redirect → tokens in the cache; SSO on the next call")
    func loopbackFlow() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let email = SDKTest.email("loop")
        try server.createUser(email: email, password: SDKTest.password)
        let client = try server.makeClient()
        let browser = ScriptedBrowser(steps: Self.signInSteps(email), transport: server.transport)

        let result = try await client.acquireToken(
            parameters: LatchInteractiveParameters(scopes: ["openid", "offline_access"], browser: browser))
        #expect(result.account.username == email)
        #expect(browser.redirects.count == 1)
        let callback = try #require(browser.callbackPages.first)
        #expect(callback.status == 200)
        #expect(callback.html.contains("You can close this window"))
        #expect(browser.pages.first?.form("signin")?.hiddenFields["csrf_token"]?.isEmpty == false)

        // The same cache as native sign-in: silent calls are served, and refresh works.
        #expect(try await client.currentAccount == result.account)
        #expect(try await client.acquireTokenSilent(account: result.account).accessToken == result.accessToken)
        let refreshed = try await client.acquireTokenSilent(account: result.account, forceRefresh: true)
        #expect(refreshed.accessToken != result.accessToken)

        // The browser session gives single sign-on: no page needs an answer the second time.
        let again = try await client.acquireToken(parameters: LatchInteractiveParameters(browser: browser))
        #expect(again.account == result.account)
        #expect(browser.redirects.count == 2)
    }

    @Test("the e-mail code path of the sign-in page, with the code read from the outbox")
    func emailCode() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let email = SDKTest.email("code")
        try server.createUser(email: email, password: SDKTest.password)
        let client = try server.makeClient()
        let browser = ScriptedBrowser(
            steps: [
                .submit(form: "signin", ["username": email], button: "action", value: "send_code"),
                .submit(form: "code", button: "action", value: "verify_code") { _ in
                    ["code": try server.latestCode(to: email) ?? ""]
                },
            ], transport: server.transport)
        let result = try await client.acquireToken(
            parameters: LatchInteractiveParameters(loginHint: email, browser: browser))
        #expect(result.account.username == email)
    }

    @Test("prompt=none without a browser session is interactionRequired, straight from the redirect")
    func promptNone() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let client = try server.makeClient()
        let browser = ScriptedBrowser(transport: server.transport)
        let error = await #expect(throws: LatchError.self) {
            _ = try await client.acquireToken(parameters: LatchInteractiveParameters(prompt: LatchPrompt.none, browser: browser))
        }
        #expect(error?.code == .interactionRequired)
        #expect(error?.oauthError == "login_required")
        #expect(browser.redirects.count == 1)
    }

    /// Forwards to a scripted browser, after replacing the request's `state`: the server then
    /// redirects with a state the SDK did not send.
    struct StateForgingBrowser: LatchWebBrowser {
        let inner: ScriptedBrowser
        var redirectURI: URL? { nil }
        func open(_ url: URL, redirectURI: URL) async throws -> LatchBrowserOutcome {
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)!
            components.queryItems = components.queryItems?.map {
                $0.name == "state" ? URLQueryItem(name: "state", value: "forged") : $0
            }
            return try await inner.open(components.url!, redirectURI: redirectURI)
        }
    }

    @Test("a redirect with another state is refused and no code is exchanged")
    func stateMismatch() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let email = SDKTest.email("state")
        try server.createUser(email: email, password: SDKTest.password)
        let client = try server.makeClient()
        let inner = ScriptedBrowser(steps: Self.signInSteps(email), transport: server.transport)
        let error = await #expect(throws: LatchError.self) {
            _ = try await client.acquireToken(parameters: LatchInteractiveParameters(browser: StateForgingBrowser(inner: inner)))
        }
        #expect(error?.code == .stateMismatch)
        #expect(server.faults.requestCount(path: "/oauth2/v2.0/token") == 0)
        #expect(try await client.accounts().isEmpty)
    }

    @Test("closing the browser, or leaving it until the timeout, is userCanceled; nothing is stored")
    func userCanceled() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let client = try server.makeClient()
        let closing = ScriptedBrowser(steps: [.close], transport: server.transport)
        let closed = await #expect(throws: LatchError.self) {
            _ = try await client.acquireToken(parameters: LatchInteractiveParameters(browser: closing))
        }
        #expect(closed?.code == .userCanceled)
        #expect(closing.pages.count == 1)

        let walkingAway = ScriptedBrowser(steps: [.abandon], transport: server.transport)
        let started = Date()
        let timedOut = await #expect(throws: LatchError.self) {
            _ = try await client.acquireToken(parameters: LatchInteractiveParameters(timeout: 1, browser: walkingAway))
        }
        #expect(timedOut?.code == .userCanceled)
        #expect(Date().timeIntervalSince(started) < 20)
        #expect(try await client.accounts().isEmpty)
    }

    @Test("interactionRequired from a silent call → acquireToken(parameters: from the error) → silent again")
    func recoverFromInteractionRequired() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let email = SDKTest.email("recover")
        try server.createUser(email: email, password: SDKTest.password)
        let client = try server.makeClient()
        let native = try SDKTest.completed(try await client.signIn(username: email, password: SDKTest.password))
        // The refresh token outlives nothing: a year later the session has ended.
        server.clock.advance(by: 400 * 86400)
        let error = try #require(
            await #expect(throws: LatchError.self) {
                _ = try await client.acquireTokenSilent(account: native.account, forceRefresh: true)
            })
        #expect(error.code == .interactionRequired)
        #expect(error.loginHint == email)

        let browser = ScriptedBrowser(steps: Self.signInSteps(email), transport: server.transport)
        let result = try await client.acquireToken(parameters: LatchInteractiveParameters(error: error, browser: browser))
        #expect(result.account == native.account)
        let authorize = try #require(browser.requests.first?.url)
        #expect(InteractiveProtocolTests.query(authorize)["login_hint"] == email)
        let silent = try await client.acquireTokenSilent(account: native.account, forceRefresh: true)
        #expect(silent.account.sessionState == .signedIn)
    }

    /// Starts a device sign-in, answers its verification page with `steps`, and returns the
    /// sign-in's outcome; a failed page run cancels the polling (so a test never waits for expiry).
    static func deviceSignIn(_ server: LatchTestServer, _ client: LatchClient, steps: [ScriptedBrowser.Step]) async throws
        -> (page: ScriptedPage, result: Result<LatchTokenResult, any Error>)
    {
        let codes = AsyncStream<LatchDeviceCode>.makeStream()
        let signIn = Task {
            try await client.acquireTokenWithDeviceCode(scopes: ["openid", "offline_access"]) { codes.continuation.yield($0) }
        }
        var iterator = codes.stream.makeAsyncIterator()
        let code = try #require(await iterator.next())
        let browser = ScriptedBrowser(steps: steps, transport: server.transport)
        let page: ScriptedPage
        do {
            // The page with the code filled in (verification_uri_complete), as a QR code would open it.
            page = try await browser.run(from: code.verificationURIComplete ?? code.verificationURI)
        } catch {
            signIn.cancel()
            throw error
        }
        return (page, await signIn.result)
    }

    static func deviceSteps(_ email: String, decision: String) -> [ScriptedBrowser.Step] {
        [
            .submit(form: "device", button: "action", value: "continue"),
            .submit(form: "signin", ["username": email, "password": SDKTest.password], button: "action", value: "password"),
            .submit(form: "device-confirm", button: "decision", value: decision),
        ]
    }

    @Test("the device flow: the code is entered on the verification page, the user signs in and allows; tokens are cached")
    func deviceFlow() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let email = SDKTest.email("device")
        try server.createUser(email: email, password: SDKTest.password)
        let client = try server.makeClient()
        let (done, outcome) = try await Self.deviceSignIn(server, client, steps: Self.deviceSteps(email, decision: "allow"))
        #expect(done.hasElement(id: "done"), "\(done.html)")
        let result = try outcome.get()
        #expect(result.account.username == email)
        #expect(try await client.acquireTokenSilent(account: result.account).accessToken == result.accessToken)
    }

    @Test("the device flow: deny on the verification page is userCanceled")
    func deviceDenied() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let email = SDKTest.email("denied")
        try server.createUser(email: email, password: SDKTest.password)
        let client = try server.makeClient()
        let (_, outcome) = try await Self.deviceSignIn(server, client, steps: Self.deviceSteps(email, decision: "deny"))
        let error = try #require(
            { () -> LatchError? in
                if case .failure(let error) = outcome { return error as? LatchError }
                return nil
            }())
        #expect(error.code == .userCanceled)
        #expect(error.oauthError == "access_denied")
        #expect(try await client.accounts().isEmpty)
    }
}
