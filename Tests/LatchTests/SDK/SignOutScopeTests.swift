import Foundation
import LatchServer
import LatchTesting
import LatchWire
import Testing

@testable import Latch

/// `signOut(account:scope:)`: `.local` forgets the tokens here, `.global` also revokes the session
/// on the server (RFC 7009).
@Suite("SDK sign-out scopes", .timeLimit(.minutes(1)))
struct SignOutScopeTests {
    static let revoke = "/oauth2/v2.0/revoke"

    /// A client over a copy of `store` as it is now: what a stolen or backed-up copy could do.
    static func copy(of store: InMemoryCredentialStore, _ env: SDKTest.Environment) async throws -> LatchClient {
        try env.client(store: InMemoryCredentialStore(snapshot: try await store.read()))
    }

    @Test("global: the session is revoked on the server, so a copy of the refresh token is refused; signedOut emitted")
    func globalRevokes() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let store = InMemoryCredentialStore()
        let client = try env.watchingClient(store: store)
        let email = SDKTest.email("global")
        let signedIn = try await env.signedIn(client, email: email)
        let copy = try await Self.copy(of: store, env)
        let events = StreamRecorder(client.authEvents)

        let outcome = try await client.signOut(account: signedIn.account, scope: .global)
        #expect(outcome.scope == .global)
        #expect(outcome.isRevokedOnServer)
        #expect(outcome.revocationError == nil)
        #expect(outcome.account.id == signedIn.account.id)
        #expect(env.serverCount(Self.revoke) == 1)
        #expect(try await client.accounts().isEmpty)
        #expect(try await client.currentAccount == nil)

        let refused = try await #require(throws: LatchError.self) {
            try await copy.acquireTokenSilent(account: signedIn.account, forceRefresh: true)
        }
        #expect(refused.code == .interactionRequired)
        #expect(refused.serverErrorCodes == [ServerErrorCode.refreshTokenRevoked])
        #expect(AuthStateText.events(await events.settle(0.3)) == ["signedOut \(email)"])
    }

    @Test("local: nothing is sent, the server session stays valid for a copy of its tokens")
    func localKeepsTheServerSession() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let store = InMemoryCredentialStore()
        let client = try env.client(store: store)
        let signedIn = try await env.signedIn(client, email: SDKTest.email("local"))
        let copy = try await Self.copy(of: store, env)
        let sent = env.recorder.count

        let outcome = try await client.signOut(account: signedIn.account, scope: .local)
        #expect(!outcome.isRevokedOnServer)
        #expect(outcome.revocationError == nil)
        #expect(env.recorder.count == sent)
        #expect(try await client.accounts().isEmpty)
        _ = try await copy.acquireTokenSilent(account: signedIn.account, forceRefresh: true)
    }

    @Test("global while the server fails: signed out here anyway, signedOut emitted, the failure reported")
    func failedRevocation() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let store = InMemoryCredentialStore()
        let client = try env.watchingClient(store: store)
        let email = SDKTest.email("global-fail")
        let signedIn = try await env.signedIn(client, email: email)
        let copy = try await Self.copy(of: store, env)
        let events = StreamRecorder(client.authEvents)
        env.server.faults.inject(.serverError(status: 503), on: Self.revoke)

        let outcome = try await client.signOut(account: signedIn.account, scope: .global)
        #expect(!outcome.isRevokedOnServer)
        let error = try #require(outcome.revocationError)
        #expect(error.code == .serverError)
        #expect(env.serverCount(Self.revoke) == 3, "revocation is repeatable, so it is retried")
        #expect(try await client.accounts().isEmpty)
        #expect(try await store.read().accounts.isEmpty)
        #expect(AuthStateText.events(await events.settle(0.3)) == ["signedOut \(email)"])
        // The server was never told: the session is still valid there.
        env.server.faults.clear()
        _ = try await copy.acquireTokenSilent(account: signedIn.account, forceRefresh: true)
    }

    @Test("global for a session the server already ended: nothing to revoke, signed out here")
    func globalAfterTheSessionEnded() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let client = try env.client()
        let email = SDKTest.email("global-ended")
        let signedIn = try await env.signedIn(client, email: email)
        let reset = try SDKTest.codeRequired(try await env.client().resetPassword(username: email))
        let newPassword = try SDKTest.passwordRequired(try await reset.submitCode(try env.code(to: email)))
        _ = try await newPassword.submitPassword(SDKTest.otherPassword)
        _ = try? await client.acquireTokenSilent(account: signedIn.account, forceRefresh: true)
        #expect(try await client.accounts().first?.sessionState == .interactionRequired)

        let outcome = try await client.signOut(account: signedIn.account, scope: .global)
        #expect(!outcome.isRevokedOnServer)
        #expect(outcome.revocationError == nil)
        #expect(env.serverCount(Self.revoke) == 0)
        #expect(try await client.accounts().isEmpty)
    }
}
