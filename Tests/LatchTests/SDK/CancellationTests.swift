import Foundation
import LatchServer
import LatchTesting
import Testing

@testable import Latch

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A cancelled task, or a request its transport cancelled, ends in `userCanceled`: never in a
/// network error the app would retry.
@Suite("SDK cancellation", .timeLimit(.minutes(1)))
struct CancellationTests {
    static let token = "/oauth2/v2.0/token"

    /// Runs `operation` in a task, cancels it once the server has received the delayed `/token`
    /// request, and returns what it threw and how long it took from the cancellation on.
    static func cancelled<T: Sendable>(
        _ env: SDKTest.Environment, _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> (error: (any Error)?, seconds: Double) {
        let before = env.serverCount(token)
        let task = Task { try await operation() }
        try await env.waitForServer(token, count: before + 1)
        let cancelledAt = Date()
        task.cancel()
        let result = await task.result
        let seconds = Date().timeIntervalSince(cancelledAt)
        if case .failure(let error) = result { return (error, seconds) }
        return (nil, seconds)
    }

    @Test("cancelling a password submission while /token is delayed: userCanceled at once, not a network error")
    func stateChangingRequest() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let client = try env.client()
        let email = SDKTest.email("cancel-token")
        try env.server.createUser(email: email, password: SDKTest.password)
        let state = try SDKTest.passwordRequired(try await client.signIn(username: email))
        // The answer is held far longer than the bound below, so a loaded machine cannot blur the two.
        env.server.faults.inject(.delay(seconds: 6, times: 1), on: Self.token)
        let before = env.serverCount(Self.token)

        let outcome = try await Self.cancelled(env) { try await state.submitPassword(SDKTest.password) }
        let error = try #require(outcome.error as? LatchError, "\(String(describing: outcome.error))")
        #expect(error.code == .userCanceled, "\(error)")
        #expect(error.recovery == .none)
        #expect(!error.isRetryable)
        #expect(outcome.seconds < 4, "the call waited for the delayed answer")
        #expect(env.serverCount(Self.token) == before + 1)  // sent once, never retried
    }

    @Test("cancelling a silent acquisition during a delayed refresh: userCanceled at once; the refresh is kept")
    func silentAcquisition() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let store = InMemoryCredentialStore()
        let client = try env.client(store: store)
        let signedIn = try await env.signedIn(client, email: SDKTest.email("cancel-refresh"))
        let oldRefreshToken = try #require(try await store.read().accounts.values.first?.refreshToken)
        env.server.faults.inject(.delay(seconds: 4, times: 1), on: Self.token)

        let account = signedIn.account
        let outcome = try await Self.cancelled(env) {
            try await client.acquireTokenSilent(account: account, forceRefresh: true)
        }
        let error = try #require(outcome.error as? LatchError, "\(String(describing: outcome.error))")
        #expect(error.code == .userCanceled, "\(error)")
        #expect(outcome.seconds < 2.5, "the call waited for the delayed refresh")

        // The refresh itself ran on: its rotated refresh token is stored, so nothing is reused later.
        let deadline = Date().addingTimeInterval(10)
        while try await store.read().accounts.values.first?.refreshToken == oldRefreshToken, Date() < deadline {
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        let stored = try #require(try await store.read().accounts.values.first)
        #expect(stored.refreshToken != nil && stored.refreshToken != oldRefreshToken)
        env.server.clock.advance(by: 10)  // past the reuse grace window
        let fresh = try env.client(store: store)
        _ = try await fresh.acquireTokenSilent(account: account, forceRefresh: true)
        #expect(try await fresh.accounts().first?.sessionState == .signedIn)
    }

    @Test("a transport that reports URLError.cancelled: userCanceled, not retried", arguments: [false, true])
    func transportCancelled(cancellationError: Bool) async throws {
        let sent = SDKTest.Counter()
        let client = try LatchClient(
            configuration: LatchConfiguration(
                serverURL: URL(string: "http://127.0.0.1:9")!, clientID: "latch-dev",
                credentialStore: InMemoryCredentialStore(), retryPolicy: SDKTest.fastRetries,
                transport: HTTPTransport { _ in
                    sent.increment()
                    if cancellationError { throw CancellationError() }
                    throw URLError(.cancelled)
                }))
        let error = try await #require(throws: LatchError.self) {
            try await client.signIn(username: "ada@example.com", password: SDKTest.password)
        }
        #expect(error.code == .userCanceled, "\(error)")
        #expect(error.recovery == .none)
        #expect(sent.value == 1)
    }

    @Test("a task cancelled before the call starts sends nothing")
    func cancelledBeforeStart() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let client = try env.client()
        let before = env.recorder.count
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await client.signIn(username: "ada@example.com", password: SDKTest.password)
        }
        let result = await task.result
        guard case .failure(let error as LatchError) = result else {
            Issue.record("expected userCanceled, got \(result)")
            return
        }
        #expect(error.code == .userCanceled)
        #expect(env.recorder.count == before)
    }
}
