import Foundation
import Latch
import LatchTesting
import Testing

/// The delegate and completion-handler forms of `acquireTokenSilent`, `accounts` and `signOut`,
/// against a real server: each reports exactly once, on the main actor.
@Suite("Token and account adapters", .timeLimit(.minutes(1)))
@MainActor
struct TokenAdapterTests {
    /// A ``CredentialsDelegate`` recording its callbacks.
    final class Credentials: CredentialsDelegate {
        enum Event {
            case completed(LatchTokenResult)
            case error(LatchError)
        }

        private(set) var events: [Event] = []
        private(set) var offMainQueue = 0
        private var waiting: CheckedContinuation<Event, Never>?

        func callback(_ call: (Credentials) -> Void) async -> Event {
            await withCheckedContinuation { continuation in
                waiting = continuation
                call(self)
            }
        }

        private func record(_ event: Event) {
            MainActor.assertIsolated()
            if !MainQueue.isCurrent { offMainQueue += 1 }
            events.append(event)
            waiting?.resume(returning: event)
            waiting = nil
        }

        func onAccessTokenRetrieveCompleted(result: LatchTokenResult) { record(.completed(result)) }
        func onAccessTokenRetrieveError(error: LatchError) { record(.error(error)) }
    }

    /// Implements only the required error callback.
    final class ErrorOnlyCredentials: CredentialsDelegate {
        private var waiting: CheckedContinuation<LatchError, Never>?

        func error(_ call: (ErrorOnlyCredentials) -> Void) async -> LatchError {
            await withCheckedContinuation { continuation in
                waiting = continuation
                call(self)
            }
        }

        func onAccessTokenRetrieveError(error: LatchError) {
            waiting?.resume(returning: error)
            waiting = nil
        }
    }

    /// Waits for a completion handler called on the main actor.
    func completion<Value: Sendable>(
        _ call: (@escaping @MainActor @Sendable (Result<Value, LatchError>) -> Void) -> Void
    ) async -> Result<Value, LatchError> {
        await withCheckedContinuation { continuation in
            call { result in
                MainActor.assertIsolated()
                #expect(MainQueue.isCurrent)
                continuation.resume(returning: result)
            }
        }
    }

    @Test("CredentialsDelegate: a cached token, a forced refresh, then the ended session as an error")
    func credentialsDelegate() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let client = try env.client()
        let signedIn = try await env.signedIn(client, email: SDKTest.email("creds"))
        let delegate = Credentials()

        let cached = await delegate.callback { client.acquireTokenSilent(account: signedIn.account, delegate: $0) }
        guard case .completed(let hit) = cached else { throw SDKTest.UnexpectedStep(description: "\(cached)") }
        #expect(hit.accessToken == signedIn.accessToken)

        let forced = await delegate.callback {
            client.acquireTokenSilent(account: signedIn.account, forceRefresh: true, delegate: $0)
        }
        guard case .completed(let refreshed) = forced else { throw SDKTest.UnexpectedStep(description: "\(forced)") }
        #expect(refreshed.accessToken != signedIn.accessToken)

        try await client.signOut(account: signedIn.account)
        let id = UUID()
        let ended = await delegate.callback {
            client.acquireTokenSilent(account: signedIn.account, correlationID: id, delegate: $0)
        }
        guard case .error(let error) = ended else { throw SDKTest.UnexpectedStep(description: "\(ended)") }
        #expect(error.code == .interactionRequired)
        #expect(error.correlationID == id.uuidString.lowercased())
        #expect(delegate.events.count == 3)
        #expect(delegate.offMainQueue == 0)
    }

    @Test("a CredentialsDelegate without onAccessTokenRetrieveCompleted gets the not-implemented error")
    func optionalCallbackMissing() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let client = try env.client()
        let signedIn = try await env.signedIn(client, email: SDKTest.email("creds-missing"))
        let error = await ErrorOnlyCredentials().error { client.acquireTokenSilent(account: signedIn.account, delegate: $0) }
        #expect(error.code == .internal)
        #expect(error.message.contains("onAccessTokenRetrieveCompleted(result:)"))
    }

    @Test("completion handlers: acquireTokenSilent, accounts and signOut, each once on the main actor")
    func completionHandlers() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let client = try env.client()
        let signedIn = try await env.signedIn(client, email: SDKTest.email("completion"))

        let accounts = await completion { client.accounts(completion: $0) }
        #expect(try accounts.get() == [signedIn.account])

        let token = await completion { client.acquireTokenSilent(account: signedIn.account, completion: $0) }
        #expect(try token.get().accessToken == signedIn.accessToken)

        let signedOut = await completion { client.signOut(account: signedIn.account, completion: $0) }
        #expect(throws: Never.self) { try signedOut.get() }
        #expect(try await client.accounts().isEmpty)

        let after = await completion { client.acquireTokenSilent(account: signedIn.account, completion: $0) }
        #expect(throws: LatchError.self) { try after.get() }
        if case .failure(let error) = after { #expect(error.recovery == .signInAgain(claimsChallenge: nil)) }
        let none = await completion { client.accounts(completion: $0) }
        #expect(try none.get().isEmpty)
    }

    @Test("completion handler of the scoped sign-out: .global revokes the session on the server")
    func globalSignOutCompletion() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let client = try env.client()
        let signedIn = try await env.signedIn(client, email: SDKTest.email("completion-global"))
        let outcome = await completion { client.signOut(account: signedIn.account, scope: .global, completion: $0) }
        let result = try outcome.get()
        #expect(result.isRevokedOnServer)
        #expect(result.scope == .global)
        #expect(try await client.accounts().isEmpty)
    }
}
