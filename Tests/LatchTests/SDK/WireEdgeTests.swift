import Foundation
import LatchServer
import LatchTesting
import LatchWire
import Testing

@testable import Latch

/// Inputs that stress the wire encoding, scopes and unusual server answers.
@Suite("SDK wire edge cases")
struct WireEdgeTests {
    @Test("passwords and addresses with form-encoding metacharacters survive the round trip")
    func formEncoding() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let client = try env.client()
        let email = "ada+tag.\(UUID().uuidString.prefix(6).lowercased())@example.com"
        let password = "p@ss w+rd&x=1%20;ü€😀*~"
        let state = try SDKTest.codeRequired(try await client.signUp(username: email, password: password))
        _ = try SDKTest.completed(try await SDKTest.accountCreated(try await state.submitCode(try env.code(to: email))).signIn())
        let result = try SDKTest.completed(try await client.signIn(username: email, password: password))
        #expect(result.account.username == email)
        let wrong = try await #require(throws: LatchError.self) {
            try await client.signIn(username: email, password: "p@ss w rd&x=1%20;ü€😀*~")
        }
        #expect(wrong.code == .wrongPassword)
    }

    @Test("a scope the session was not granted: invalidScope 19009, and the session is kept")
    func invalidScope() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let client = try env.client()
        let signedIn = try await env.signedIn(client, email: SDKTest.email("scope"))
        let error = try await #require(throws: LatchError.self) {
            try await client.acquireTokenSilent(scopes: ["openid", "api.read"], account: signedIn.account)
        }
        SDKTest.expect(
            error, .invalidScope, status: 400, oauthError: "invalid_scope",
            serverErrorCodes: [ServerErrorCode.scopeNotAllowed], recovery: .none, correlation: .lastRequest(env.recorder))
        #expect(try await client.accounts().first?.sessionState == .signedIn)
        #expect(try await client.acquireTokenSilent(account: signedIn.account).accessToken == signedIn.accessToken)
    }

    @Test("a narrower scope set is served from the cache")
    func narrowerScopesFromCache() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let client = try env.client()
        let signedIn = try await env.signedIn(client, email: SDKTest.email("narrow"))
        let before = env.recorder.count
        let result = try await client.acquireTokenSilent(scopes: ["offline_access"], account: signedIn.account)
        #expect(result.accessToken == signedIn.accessToken)
        #expect(env.recorder.count == before)
    }

    @Test("Retry-After as an HTTP-date in the past means retry now")
    func retryAfterInThePast() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let email = SDKTest.email("past")
        try env.server.createUser(email: email, password: SDKTest.password)
        env.server.faults.inject(
            .tooManyRequests(retryAfter: env.server.clock.now().addingTimeInterval(-60), times: 2),
            on: "/oauth2/v2.0/initiate")
        let started = Date()
        _ = try SDKTest.completed(
            try await env.client(
                retryPolicy: RetryPolicy(maxAttempts: 3, baseDelay: 120, maxDelay: 240, maxRetryAfter: 10, jitter: 0)
            ).signIn(username: email, password: SDKTest.password))
        #expect(env.serverCount("/oauth2/v2.0/initiate") == 3)
        // Two backoffs would take 120 s + 240 s. The sign-in itself takes well under a second alone,
        // but the whole suite's servers share one Argon2 gate, so under load it may queue for many
        // seconds: the bound is far from both.
        #expect(Date().timeIntervalSince(started) < 90, "waited for the backoff instead of Retry-After: 0")
    }

    @Test("RetryPolicy parses Retry-After seconds and HTTP-dates, and caps waits")
    func retryPolicy() {
        let now = Date(timeIntervalSince1970: 1_445_412_480)  // Wed, 21 Oct 2015 07:28:00 GMT
        #expect(RetryPolicy.parseRetryAfter("2", now: now) == 2)
        #expect(RetryPolicy.parseRetryAfter(" 120 ", now: now) == 120)
        #expect(RetryPolicy.parseRetryAfter("Wed, 21 Oct 2015 07:28:30 GMT", now: now) == 30)
        #expect(RetryPolicy.parseRetryAfter("Wednesday, 21-Oct-15 07:29:00 GMT", now: now) == 60)
        #expect(RetryPolicy.parseRetryAfter("Wed Oct 21 07:28:10 2015", now: now) == 10)
        #expect(RetryPolicy.parseRetryAfter("Wed, 21 Oct 2015 07:27:00 GMT", now: now) == 0)
        #expect(RetryPolicy.parseRetryAfter("soon", now: now) == nil)
        #expect(RetryPolicy.parseRetryAfter("", now: now) == nil)
        #expect(RetryPolicy.parseRetryAfter(nil, now: now) == nil)

        let policy = RetryPolicy(maxAttempts: 3, baseDelay: 1, maxDelay: 8, maxRetryAfter: 10, jitter: 0)
        #expect(policy.delay(after: 1, retryAfter: nil) == 1)
        #expect(policy.delay(after: 2, retryAfter: nil) == 2)
        #expect(policy.delay(after: 3, retryAfter: nil) == nil)
        #expect(policy.delay(after: 1, retryAfter: 10) == 10)
        #expect(policy.delay(after: 1, retryAfter: 11) == nil)
        #expect(RetryPolicy.none.delay(after: 1, retryAfter: nil) == nil)
        #expect(RetryPolicy(maxAttempts: 0).maxAttempts == 1)
    }
}
