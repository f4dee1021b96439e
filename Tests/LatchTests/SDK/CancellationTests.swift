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

    /// Runs `operation` in a task, cancels it after `after` seconds, and returns what it threw and
    /// how long the task took in all.
    static func cancelled<T: Sendable>(after: Double, _ operation: @escaping @Sendable () async throws -> T) async
        -> (error: (any Error)?, seconds: Double)
    {
        let started = Date()
        let task = Task { try await operation() }
        try? await Task.sleep(nanoseconds: UInt64(after * 1_000_000_000))
        task.cancel()
        let result = await task.result
        let seconds = Date().timeIntervalSince(started)
        if case .failure(let error) = result { return (error, seconds) }
        return (nil, seconds)
    }

    @Test("cancelling a password submission while /token is delayed: userCanceled at once, not a network error")
    func stateChangingRequest() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let client = env.client()
        let email = SDKTest.email("cancel-token")
        try env.server.createUser(email: email, password: SDKTest.password)
        let state = try SDKTest.passwordRequired(try await client.signIn(username: email))
        env.server.faults.inject(.delay(seconds: 2, times: 1), on: Self.token)
        let before = env.serverCount(Self.token)

        let outcome = await Self.cancelled(after: 0.3) { try await state.submitPassword(SDKTest.password) }
        let error = try #require(outcome.error as? LatchError, "\(String(describing: outcome.error))")
        #expect(error.code == .userCanceled, "\(error)")
        #expect(error.recovery == .none)
        #expect(!error.isRetryable)
        #expect(outcome.seconds < 1.5, "the call waited for the delayed answer")
        #expect(env.serverCount(Self.token) == before + 1)  // sent once, never retried
    }

    @Test("a transport that reports URLError.cancelled: userCanceled, not retried", arguments: [false, true])
    func transportCancelled(cancellationError: Bool) async throws {
        let sent = SDKTest.Counter()
        let client = LatchClient(
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
        let client = env.client()
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
