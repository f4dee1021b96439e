import Foundation
import LatchLocking
import LatchSDKTesting
import Testing

@testable import Latch

/// Interactive and device-code sign-in against a scripted transport: what the SDK sends, how it
/// reads the answers, and that the tokens land in the cache silent calls read.
@Suite("Interactive and device-code sign-in, scripted")
struct InteractiveScriptedTests {
    /// A browser that answers the authorization request itself, the way a server that signed the
    /// user in would: a custom-scheme redirect with the code and the request's state.
    struct AnsweringBrowser: LatchWebBrowser {
        let script: ScriptedTransport
        var redirectURI: URL? = URL(string: "com.example.app:/oauth2redirect")
        var answer: @Sendable (_ query: [String: String]) -> String
        let seen = Locked<URL?>(nil)

        func open(_ url: URL, redirectURI: URL) async throws -> LatchBrowserOutcome {
            seen.withLock { $0 = url }
            let query = InteractiveProtocolTests.query(url)
            return .redirected(URL(string: redirectURI.absoluteString + answer(query))!)
        }
    }

    static func browser(_ script: ScriptedTransport, nonce: (@Sendable (String) -> String)? = nil) -> AnsweringBrowser {
        AnsweringBrowser(script: script) { query in
            let sentNonce = query["nonce"] ?? ""
            script.clear("/oauth2/v2.0/token")
            script.respond(
                to: "/oauth2/v2.0/token",
                with: LatchPreview.tokenResponse(username: "ada@example.com", nonce: nonce?(sentNonce) ?? sentNonce))
            return "?code=code-1&state=\(query["state"] ?? "")"
        }
    }

    @Test("the code is exchanged with the PKCE verifier and redirect URI; the tokens are served silently afterwards")
    func exchange() async throws {
        let script = ScriptedTransport()
        let client = try LatchPreview.client(script)
        let browser = Self.browser(script)
        let result = try await client.acquireToken(
            parameters: LatchInteractiveParameters(scopes: ["openid", "offline_access"], browser: browser))
        #expect(result.account.username == "ada@example.com")

        let authorize = try #require(browser.seen.withLock { $0 })
        let query = InteractiveProtocolTests.query(authorize)
        #expect(query["redirect_uri"] == "com.example.app:/oauth2redirect")
        let token = try #require(script.requests(to: "/oauth2/v2.0/token").first)
        #expect(token.form["grant_type"] == "authorization_code")
        #expect(token.form["code"] == "code-1")
        #expect(token.form["redirect_uri"] == "com.example.app:/oauth2redirect")
        #expect(token.form["client_id"] == "preview-app" || token.form["client_id"]?.isEmpty == false)
        let verifier = try #require(token.form["code_verifier"])
        #expect(PKCE(verifier: verifier).challenge == query["code_challenge"])

        // Same cache as native sign-in: the account is current and a silent call is a cache hit.
        #expect(try await client.currentAccount == result.account)
        let silent = try await client.acquireTokenSilent(account: result.account)
        #expect(silent.accessToken == result.accessToken)
        #expect(script.requests(to: "/oauth2/v2.0/token").count == 1)
    }

    @Test("an ID token without the request's nonce is refused and nothing is stored")
    func nonceMismatch() async throws {
        let script = ScriptedTransport()
        let client = try LatchPreview.client(script)
        let error = await #expect(throws: LatchError.self) {
            _ = try await client.acquireToken(
                parameters: LatchInteractiveParameters(browser: Self.browser(script) { _ in "another-nonce" }))
        }
        #expect(error?.code == .missingOrInvalidNonce)
        #expect(try await client.accounts().isEmpty)
    }

    @Test("a forged state is refused before any code is exchanged")
    func forgedState() async throws {
        let script = ScriptedTransport()
        let client = try LatchPreview.client(script)
        let browser = AnsweringBrowser(script: script) { _ in "?code=stolen&state=forged" }
        let error = await #expect(throws: LatchError.self) {
            _ = try await client.acquireToken(parameters: LatchInteractiveParameters(browser: browser))
        }
        #expect(error?.code == .stateMismatch)
        #expect(error?.correlationID != nil)
        #expect(script.requests(to: "/oauth2/v2.0/token").isEmpty)
    }

    @Test("a refused code is authorizationFailed")
    func refusedCode() async throws {
        let script = ScriptedTransport()
        let client = try LatchPreview.client(script)
        let browser = AnsweringBrowser(script: script) { query in
            script.respond(to: "/oauth2/v2.0/token", with: .oauthError("invalid_grant"))
            return "?code=used&state=\(query["state"] ?? "")"
        }
        let error = await #expect(throws: LatchError.self) {
            _ = try await client.acquireToken(parameters: LatchInteractiveParameters(browser: browser))
        }
        #expect(error?.code == .authorizationFailed)
        #expect(error?.oauthError == "invalid_grant")
    }

    @Test("a browser closed by the user, or no redirect within the timeout, is userCanceled")
    func closedBrowser() async throws {
        let script = ScriptedTransport()
        let client = try LatchPreview.client(script)
        struct Closing: LatchWebBrowser {
            var redirectURI: URL? { URL(string: "com.example.app:/cb") }
            func open(_ url: URL, redirectURI: URL) async throws -> LatchBrowserOutcome {
                throw LatchError(code: .userCanceled, message: "closed")
            }
        }
        struct Silent: LatchWebBrowser {
            var redirectURI: URL? { URL(string: "com.example.app:/cb") }
            func open(_ url: URL, redirectURI: URL) async throws -> LatchBrowserOutcome { .awaitingRedirect }
        }
        let closed = await #expect(throws: LatchError.self) {
            _ = try await client.acquireToken(parameters: LatchInteractiveParameters(browser: Closing()))
        }
        #expect(closed?.code == .userCanceled)
        let timedOut = await #expect(throws: LatchError.self) {
            _ = try await client.acquireToken(parameters: LatchInteractiveParameters(timeout: 0.3, browser: Silent()))
        }
        #expect(timedOut?.code == .userCanceled)
    }

    @Test("a failed refresh's interactionRequired names the account, so the interactive call signs in as it")
    func loginHint() async throws {
        let script = ScriptedTransport()
        let client = try LatchPreview.client(script)
        script.respond(to: "/oauth2/v2.0/initiate", json: #"{"continuation_token":"ct"}"#)
        script.respond(to: "/oauth2/v2.0/challenge", json: #"{"continuation_token":"ct","challenge_type":"password"}"#)
        script.respond(to: "/oauth2/v2.0/token", with: LatchPreview.tokenResponse(username: "ada@example.com"))
        let result = try SDKTest.completed(try await client.signIn(username: "ada@example.com", password: "pw"))
        script.clear("/oauth2/v2.0/token")
        script.respond(to: "/oauth2/v2.0/token", with: .oauthError("expired_refresh_token"))
        let error = try #require(
            await #expect(throws: LatchError.self) {
                _ = try await client.acquireTokenSilent(account: result.account, forceRefresh: true)
            })
        #expect(error.code == .interactionRequired)
        #expect(error.loginHint == "ada@example.com")
        let browser = Self.browser(script)
        _ = try await client.acquireToken(parameters: LatchInteractiveParameters(error: error, browser: browser))
        let query = InteractiveProtocolTests.query(try #require(browser.seen.withLock { $0 }))
        #expect(query["login_hint"] == "ada@example.com")
        _ = try await client.acquireTokenSilent(account: result.account)
    }

    @Test("the completion-handler form delivers once, on the main actor")
    func completionBlock() async throws {
        let script = ScriptedTransport()
        let client = try LatchPreview.client(script)
        let outcome: Result<LatchTokenResult, LatchError> = await withCheckedContinuation { continuation in
            client.acquireToken(with: LatchInteractiveParameters(browser: Self.browser(script))) { result in
                MainActor.assertIsolated()
                continuation.resume(returning: result)
            }
        }
        #expect((try? outcome.get())?.account.username == "ada@example.com")
    }

    @MainActor final class Recorder: CredentialsDelegate {
        var results: [LatchTokenResult] = []
        var errors: [LatchError] = []
        let done: @MainActor () -> Void
        init(done: @escaping @MainActor () -> Void) { self.done = done }
        func onAccessTokenRetrieveCompleted(result: LatchTokenResult) {
            results.append(result)
            done()
        }
        func onAccessTokenRetrieveError(error: LatchError) {
            errors.append(error)
            done()
        }
    }

    @Test("the delegate form reports the interactive result to the same CredentialsDelegate as silent calls")
    @MainActor
    func delegateForm() async throws {
        let script = ScriptedTransport()
        let client = try LatchPreview.client(script)
        var recorder: Recorder?
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let made = Recorder { continuation.resume() }
            recorder = made
            client.acquireToken(parameters: LatchInteractiveParameters(browser: Self.browser(script)), delegate: made)
        }
        #expect(recorder?.results.first?.account.username == "ada@example.com")
        #expect(recorder?.errors.isEmpty == true)
    }

    // MARK: - Device code

    static let deviceAuthorization = #"""
        {"device_code":"dc-1","user_code":"WDJBMJHT","verification_uri":"https://latch.preview/default/oauth2/v2.0/devicelogin",
         "verification_uri_complete":"https://latch.preview/default/oauth2/v2.0/devicelogin?user_code=WDJBMJHT",
         "expires_in":600,"interval":0}
        """#

    @Test("the device flow shows the code, polls past authorization_pending, and stores the tokens")
    func deviceFlow() async throws {
        let script = ScriptedTransport()
        let client = try LatchPreview.client(script)
        script.respond(to: "/oauth2/v2.0/devicecode", json: Self.deviceAuthorization)
        script.respond(to: "/oauth2/v2.0/token", with: .oauthError("authorization_pending"))
        script.respond(to: "/oauth2/v2.0/token", with: .oauthError("authorization_pending"))
        script.respond(to: "/oauth2/v2.0/token", with: LatchPreview.tokenResponse(username: "ada@example.com"))
        let shown = Locked<[LatchDeviceCode]>([])
        let result = try await client.acquireTokenWithDeviceCode(scopes: ["openid", "offline_access"]) { code in
            shown.withLock { $0.append(code) }
        }
        let code = try #require(shown.withLock { $0 }.first)
        #expect(shown.withLock { $0 }.count == 1)
        #expect(code.userCode == "WDJBMJHT")
        #expect(code.verificationURI.absoluteString == "https://latch.preview/default/oauth2/v2.0/devicelogin")
        #expect(code.verificationURIComplete?.absoluteString.hasSuffix("?user_code=WDJBMJHT") == true)
        let authorization = try #require(script.requests(to: "/oauth2/v2.0/devicecode").first)
        #expect(authorization.form["scope"] == "openid offline_access")
        #expect(authorization.form["client_id"]?.isEmpty == false)
        let polls = script.requests(to: "/oauth2/v2.0/token")
        #expect(polls.count == 3)
        #expect(polls.allSatisfy { $0.form["grant_type"] == "urn:ietf:params:oauth:grant-type:device_code" })
        #expect(polls.allSatisfy { $0.form["device_code"] == "dc-1" })
        #expect(Set(polls.compactMap(\.correlationID)).count == 1)
        #expect(try await client.currentAccount == result.account)
        _ = try await client.acquireTokenSilent(account: result.account)
        #expect(script.requests(to: "/oauth2/v2.0/token").count == 3)
    }

    @Test(
        "expired_token and access_denied end the device flow with precise errors",
        arguments: [("expired_token", LatchError.Code.deviceCodeExpired), ("access_denied", .userCanceled)])
    func deviceErrors(error: String, code: LatchError.Code) async throws {
        let script = ScriptedTransport()
        let client = try LatchPreview.client(script)
        script.respond(to: "/oauth2/v2.0/devicecode", json: Self.deviceAuthorization)
        script.respond(to: "/oauth2/v2.0/token", with: .oauthError("authorization_pending"))
        script.respond(to: "/oauth2/v2.0/token", with: .oauthError(error))
        let thrown = await #expect(throws: LatchError.self) {
            _ = try await client.acquireTokenWithDeviceCode(scopes: []) { _ in }
        }
        #expect(thrown?.code == code)
        #expect(thrown?.oauthError == error)
        #expect(try await client.accounts().isEmpty)
    }

    @Test("slow_down adds five seconds to the interval")
    func slowDown() async throws {
        let script = ScriptedTransport()
        let client = try LatchPreview.client(script)
        script.respond(to: "/oauth2/v2.0/devicecode", json: Self.deviceAuthorization)
        script.respond(to: "/oauth2/v2.0/token", with: .oauthError("slow_down"))
        script.respond(to: "/oauth2/v2.0/token", with: LatchPreview.tokenResponse(username: "ada@example.com"))
        let started = ContinuousClock.now
        _ = try await client.acquireTokenWithDeviceCode(scopes: []) { _ in }
        #expect(ContinuousClock.now - started >= .seconds(5))
        #expect(script.requests(to: "/oauth2/v2.0/token").count == 2)
    }

    @Test("cancelling the task stops polling at once")
    func cancelDevice() async throws {
        let script = ScriptedTransport()
        let client = try LatchPreview.client(script)
        script.respond(
            to: "/oauth2/v2.0/devicecode",
            json: Self.deviceAuthorization.replacingOccurrences(of: "\"interval\":0", with: "\"interval\":1"))
        script.respond(to: "/oauth2/v2.0/token", with: .oauthError("authorization_pending"))
        let task = Task { try await client.acquireTokenWithDeviceCode(scopes: []) { _ in } }
        try await Task.sleep(nanoseconds: 1_500_000_000)
        task.cancel()
        let error = await #expect(throws: LatchError.self) { _ = try await task.value }
        #expect(error?.code == .userCanceled)
        let polls = script.requests(to: "/oauth2/v2.0/token").count
        try await Task.sleep(nanoseconds: 1_500_000_000)
        #expect(script.requests(to: "/oauth2/v2.0/token").count == polls)
    }
}
