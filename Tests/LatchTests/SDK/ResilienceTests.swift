import Foundation
import LatchServer
import LatchTesting
import LatchWire
import Testing

@testable import Latch

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Network failures, 429 throttling, retries and the never-re-send rule, against a real server
/// with injected faults.
@Suite("SDK network errors, throttling and retries")
struct ResilienceTests {
    static let token = "/oauth2/v2.0/token"

    @Test("server unreachable: networkError 17020 keeping the URLError, bridged to NSError")
    func networkDown() async throws {
        let closed = try SDKTest.ClosedPort()
        let recorder = SDKTest.RecordingTransport()
        let client = try LatchClient(
            configuration: LatchConfiguration(
                serverURL: URL(string: "http://127.0.0.1:\(closed.port)")!, clientID: "latch-dev",
                credentialStore: InMemoryCredentialStore(), retryPolicy: SDKTest.fastRetries,
                transport: recorder.transport))
        let error = try await #require(throws: LatchError.self) {
            try await client.signIn(username: "ada@example.com", password: SDKTest.password)
        }
        SDKTest.expect(
            error, .networkError, status: nil, oauthError: nil, recovery: .retry(after: nil), retryable: true,
            correlation: .lastRequest(recorder))
        #expect((error.underlyingError as? URLError)?.code == .cannotConnectToHost)
        // The connection was never made, so even this request is retried: 3 attempts, one correlation id.
        #expect(recorder.count == 3)
        #expect(Set(recorder.requests.map(\.correlationID)).count == 1)

        let bridged = error as NSError
        #expect(bridged.domain == "LatchErrorDomain")
        #expect(bridged.code == 17020)
        #expect(bridged.userInfo[LatchError.UserInfoKey.name] as? String == "ERROR_NETWORK_REQUEST_FAILED")
        #expect(bridged.userInfo[LatchError.UserInfoKey.correlationID] as? String == error.correlationID)
        #expect(bridged.localizedDescription == error.message)
        let underlying = try #require(bridged.userInfo[NSUnderlyingErrorKey] as? NSError)
        #expect(underlying.domain == NSURLErrorDomain)
        #expect(underlying.code == NSURLErrorCannotConnectToHost)
    }

    @Test("429 on refresh: tooManyRequests with Retry-After; throttled locally until it passes", arguments: [false, true])
    func throttled(httpDate: Bool) async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        // Honour Retry-After only up to 1 s, so a 2 s wait is handed to the app.
        let client = try env.client(retryPolicy: RetryPolicy(maxAttempts: 3, baseDelay: 0.01, maxRetryAfter: 1))
        let signedIn = try await env.signedIn(client, email: SDKTest.email("throttle"))
        env.server.clock.advance(by: 3400)  // 200 s left: needs a refresh
        let wait: TimeInterval = httpDate ? 30 : 2
        if httpDate {
            env.server.faults.inject(
                .tooManyRequests(retryAfter: env.server.clock.now().addingTimeInterval(wait)), on: Self.token)
        } else {
            env.server.faults.inject(.tooManyRequests(retryAfter: "2"), on: Self.token)
        }
        let serverBefore = env.serverCount(Self.token)

        let error = try await #require(throws: LatchError.self) {
            try await client.acquireTokenSilent(account: signedIn.account)
        }
        SDKTest.expect(
            error, .tooManyRequests, status: 429, oauthError: "too_many_requests", recovery: .retry(after: wait),
            retryable: true, correlation: .lastRequest(env.recorder))
        #expect(error.retryAfter == wait)
        #expect((error as NSError).userInfo[LatchError.UserInfoKey.retryAfter] as? Double == wait)
        #expect(env.serverCount(Self.token) == serverBefore + 1)

        // Throttled without reaching the server, with the remaining wait.
        let recorded = env.recorder.count
        var elapsed: TimeInterval = 0
        for step in [0, wait - 1] {
            env.server.clock.advance(by: step)
            elapsed += step
            let local = try await #require(throws: LatchError.self) {
                try await client.acquireTokenSilent(account: signedIn.account)
            }
            #expect(local.code == .tooManyRequests)
            #expect(local.retryAfter == wait - elapsed)
            #expect(local.isRetryable)
            #expect(local.recovery == .retry(after: local.retryAfter))
            #expect(!local.message.isEmpty)
        }
        let forced = try await #require(throws: LatchError.self) {
            try await client.acquireTokenSilent(account: signedIn.account, forceRefresh: true)
        }
        #expect(forced.code == .tooManyRequests)
        #expect(env.recorder.count == recorded)
        #expect(env.serverCount(Self.token) == serverBefore + 1)

        // Once Retry-After has passed the request goes out again.
        env.server.faults.clear()
        env.server.clock.advance(by: 1)
        let refreshed = try await client.acquireTokenSilent(account: signedIn.account)
        #expect(refreshed.accessToken != signedIn.accessToken)
        #expect(env.serverCount(Self.token) == serverBefore + 2)
    }

    @Test("a 500 with Retry-After on refresh throttles silent calls locally until it passes")
    func serverErrorWithRetryAfterThrottles() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let client = try env.client(retryPolicy: RetryPolicy(maxAttempts: 3, baseDelay: 0.01, maxRetryAfter: 1))
        let signedIn = try await env.signedIn(client, email: SDKTest.email("throttle-5xx"))
        env.server.clock.advance(by: 3400)
        env.server.faults.inject(.serverError(status: 500, retryAfter: "5"), on: Self.token)
        let before = env.serverCount(Self.token)

        let error = try await #require(throws: LatchError.self) {
            try await client.acquireTokenSilent(account: signedIn.account)
        }
        #expect(error.code == .serverError)
        #expect(error.retryAfter == 5)
        #expect(env.serverCount(Self.token) == before + 1)

        let local = try await #require(throws: LatchError.self) {
            try await client.acquireTokenSilent(account: signedIn.account)
        }
        #expect(local.code == .tooManyRequests)
        #expect(local.retryAfter == 5)
        #expect(env.serverCount(Self.token) == before + 1)

        env.server.faults.clear()
        env.server.clock.advance(by: 5)
        let refreshed = try await client.acquireTokenSilent(account: signedIn.account)
        #expect(refreshed.accessToken != signedIn.accessToken)
    }

    @Test("a short Retry-After is honoured: one retry, then success")
    func shortRetryAfterHonoured() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let client = try env.client(retryPolicy: RetryPolicy(maxAttempts: 3, baseDelay: 0.01, maxRetryAfter: 10))
        let email = SDKTest.email("retry")
        try env.server.createUser(email: email, password: SDKTest.password)

        // A repeatable request (starting the sign-in).
        env.server.faults.inject(.tooManyRequests(retryAfter: "1", times: 1), on: "/oauth2/v2.0/initiate")
        let signedIn = try SDKTest.completed(try await client.signIn(username: email, password: SDKTest.password))
        #expect(env.serverCount("/oauth2/v2.0/initiate") == 2)

        // A refresh: a 429 proves the server did not process it, so it is re-sent too.
        env.server.clock.advance(by: 3400)
        env.server.faults.inject(.tooManyRequests(retryAfter: "1", times: 1), on: Self.token)
        let before = env.serverCount(Self.token)
        let refreshed = try await client.acquireTokenSilent(account: signedIn.account)
        #expect(refreshed.accessToken != signedIn.accessToken)
        #expect(env.serverCount(Self.token) == before + 2)
    }

    @Test("a repeatable request is retried after a 500")
    func repeatableRetriedAfter500() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let email = SDKTest.email("five")
        try env.server.createUser(email: email, password: SDKTest.password)
        env.server.faults.inject(.serverError(status: 500, times: 2), on: "/oauth2/v2.0/initiate")
        _ = try SDKTest.completed(try await env.client().signIn(username: email, password: SDKTest.password))
        #expect(env.serverCount("/oauth2/v2.0/initiate") == 3)
    }

    @Test("a code submission is not re-sent after a 500; sent again by the app, it succeeds")
    func codeNotResentAfter500() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let email = SDKTest.email("noresend")
        let state = try SDKTest.codeRequired(try await env.client().signUp(username: email, password: SDKTest.password))
        let code = try env.code(to: email)
        env.server.faults.inject(.serverError(status: 500, times: 1), on: "/signup/v1.0/continue")

        let error = try await #require(throws: LatchError.self) { try await state.submitCode(code) }
        SDKTest.expect(
            error, .serverError, status: 500, oauthError: "server_error", recovery: .retry(after: nil), retryable: true,
            correlation: .lastRequest(env.recorder))
        #expect(env.serverCount("/signup/v1.0/continue") == 1)

        _ = try SDKTest.accountCreated(try await state.submitCode(code))
        #expect(env.serverCount("/signup/v1.0/continue") == 2)
    }

    @Test("a refresh is not re-sent after a 500, but is after a 503 (not processed)")
    func refreshRetryRules() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let client = try env.client()
        let signedIn = try await env.signedIn(client, email: SDKTest.email("refresh500"))
        env.server.clock.advance(by: 3400)

        env.server.faults.inject(.serverError(status: 500, times: 1), on: Self.token)
        let before = env.serverCount(Self.token)
        let error = try await #require(throws: LatchError.self) {
            try await client.acquireTokenSilent(account: signedIn.account)
        }
        SDKTest.expect(
            error, .serverError, status: 500, oauthError: "server_error", recovery: .retry(after: nil), retryable: true,
            correlation: .lastRequest(env.recorder))
        #expect(env.serverCount(Self.token) == before + 1)
        // The session is intact.
        #expect(try await client.accounts().first?.sessionState == .signedIn)

        env.server.faults.inject(.serverError(status: 503, times: 1), on: Self.token)
        _ = try await client.acquireTokenSilent(account: signedIn.account)
        #expect(env.serverCount(Self.token) == before + 3)
    }

    @Test("a state-changing request that keeps failing with 503 gives up after maxAttempts")
    func gives503Up() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let email = SDKTest.email("giveup")
        let state = try SDKTest.codeRequired(try await env.client().signUp(username: email, password: SDKTest.password))
        env.server.faults.inject(.serverError(status: 503, retryAfter: "0"), on: "/signup/v1.0/continue")
        let error = try await #require(throws: LatchError.self) { try await state.submitCode(try env.code(to: email)) }
        SDKTest.expect(
            error, .serverError, status: 503, oauthError: "server_error", recovery: .retry(after: 0), retryable: true,
            correlation: .lastRequest(env.recorder))
        #expect(error.retryAfter == 0)
        #expect(env.serverCount("/signup/v1.0/continue") == 3)
    }
}
