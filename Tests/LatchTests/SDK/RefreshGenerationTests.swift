import Foundation
import LatchServer
import LatchTesting
import Testing

@testable import Latch

/// A refresh is bound to the session it started under: one that completes after a sign-out (or
/// after a new sign-in) writes nothing, emits nothing, and is never retried.
@Suite("SDK refresh generations", .timeLimit(.minutes(1)))
struct RefreshGenerationTests {
    static let token = "/oauth2/v2.0/token"

    /// Delays the next `/token` by `seconds` and then answers it 503, which the SDK would retry
    /// (the server provably did not process it) were the refresh still wanted.
    static func slowFailingRefresh(_ env: SDKTest.Environment, seconds: Double = 3) {
        env.server.faults.inject(.delay(seconds: seconds, times: 1), on: token)
        env.server.faults.inject(.serverError(status: 503, times: 1), on: token)
    }

    @Test("sign-out during a forced refresh: returns at once, the refresh writes nothing and is not retried")
    func signOutDuringRefresh() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let store = InMemoryCredentialStore()
        let client = try env.watchingClient(store: store)
        let email = SDKTest.email("gen-out")
        let signedIn = try await env.signedIn(client, email: email)
        let events = StreamRecorder(client.authEvents)
        let states = StreamRecorder(client.authStateChanges)
        _ = await states.wait(for: 1)
        Self.slowFailingRefresh(env)
        let account = signedIn.account

        let before = env.serverCount(Self.token)
        let refresh = Task { try await client.acquireTokenSilent(account: account, forceRefresh: true) }
        try await env.waitForServer(Self.token, count: before + 1)
        let began = Date()
        try await client.signOut(account: account)
        #expect(Date().timeIntervalSince(began) < 2, "sign-out waited for the refresh")
        let atSignOut = env.serverCount(Self.token)

        let outcome = await refresh.result
        guard case .failure(let error as LatchError) = outcome else {
            Issue.record("the refresh outlived its session: \(outcome)")
            return
        }
        #expect(error.code == .interactionRequired, "\(error)")
        try await Task.sleep(nanoseconds: 1_000_000_000)  // past the delay and any backoff
        #expect(env.serverCount(Self.token) == atSignOut, "a refresh was sent after the sign-out")
        #expect(try await store.read().accounts.isEmpty)
        #expect(try await client.accounts().isEmpty)
        #expect(try await client.currentAccount == nil)
        #expect(AuthStateText.events(events.values) == ["signedOut \(email)"], "the refresh emitted something")
        #expect(AuthStateText.states(states.values) == ["\(email):signedIn", "nil"])
    }

    @Test("sign-out and another user's sign-in during a refresh: the old session stays gone, the new one is untouched")
    func anotherUserSignsInDuringRefresh() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let store = InMemoryCredentialStore()
        let client = try env.watchingClient(store: store)
        let (ada, grace) = (SDKTest.email("gen-ada"), SDKTest.email("gen-grace"))
        let first = try await env.signedIn(client, email: ada)
        try env.server.createUser(email: grace, password: SDKTest.password)
        let events = StreamRecorder(client.authEvents)
        Self.slowFailingRefresh(env)

        let before = env.serverCount(Self.token)
        let refresh = Task { try await client.acquireTokenSilent(account: first.account, forceRefresh: true) }
        try await env.waitForServer(Self.token, count: before + 1)
        try await client.signOut(account: first.account)
        let atSignOut = env.serverCount(Self.token)
        let second = try SDKTest.completed(try await client.signIn(username: grace, password: SDKTest.password))
        let outcome = await refresh.result
        try await Task.sleep(nanoseconds: 1_000_000_000)  // past the delay and any backoff

        guard case .failure(let error as LatchError) = outcome else {
            Issue.record("the refresh outlived its session: \(outcome)")
            return
        }
        #expect(error.code == .interactionRequired)
        #expect(env.serverCount(Self.token) == atSignOut + 1, "only the new sign-in reached /token after the sign-out")
        let snapshot = try await store.read()
        #expect(snapshot.accounts.count == 1)
        #expect(snapshot.accounts.values.first?.accessToken == second.accessToken)
        #expect(try await client.currentAccount?.id == second.account.id)
        #expect(try await client.accounts().map(\.id) == [second.account.id])
        #expect(AuthStateText.events(await events.settle()) == ["signedOut \(ada)", "signedIn \(grace)"])
        #expect(try await client.acquireTokenSilent(account: second.account).accessToken == second.accessToken)
    }

    @Test("another user signing in without a sign-out: the first session lives on, its refresh is kept, not made current")
    func anotherUserSignsInAlongside() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let store = InMemoryCredentialStore()
        let client = try env.watchingClient(store: store)
        let (ada, grace) = (SDKTest.email("gen-both-ada"), SDKTest.email("gen-both-grace"))
        let first = try await env.signedIn(client, email: ada)
        try env.server.createUser(email: grace, password: SDKTest.password)
        env.server.faults.inject(.delay(seconds: 0.6, times: 1), on: Self.token)

        let before = env.serverCount(Self.token)
        let refresh = Task { try await client.acquireTokenSilent(account: first.account, forceRefresh: true) }
        try await env.waitForServer(Self.token, count: before + 1)
        let second = try SDKTest.completed(try await client.signIn(username: grace, password: SDKTest.password))
        let refreshed = try await refresh.value

        // Without the refresh's rotated token stored, the next refresh would be reuse and end the session.
        let stored = try #require(try await store.read().accounts[client.session.tokens.key(for: first.account)])
        #expect(stored.accessToken == refreshed.accessToken)
        #expect(try await client.currentAccount?.id == second.account.id)
        env.server.clock.advance(by: 10)
        _ = try await client.acquireTokenSilent(account: first.account, forceRefresh: true)
        #expect(try await client.accounts().allSatisfy { $0.sessionState == .signedIn })
        #expect(try await client.currentAccount?.id == second.account.id)
    }

    @Test("sign-out and sign-in of the same user during a refresh: the new session is untouched")
    func sameUserSignsInAgainDuringRefresh() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let store = InMemoryCredentialStore()
        let client = try env.client(store: store)
        let email = SDKTest.email("gen-again")
        let signedIn = try await env.signedIn(client, email: email)
        Self.slowFailingRefresh(env)
        let account = signedIn.account

        let before = env.serverCount(Self.token)
        let refresh = Task { try await client.acquireTokenSilent(account: account, forceRefresh: true) }
        try await env.waitForServer(Self.token, count: before + 1)
        try await client.signOut(account: account)
        let again = try SDKTest.completed(try await client.signIn(username: email, password: SDKTest.password))
        let atSignIn = env.serverCount(Self.token)
        _ = await refresh.result
        try await Task.sleep(nanoseconds: 1_000_000_000)

        #expect(env.serverCount(Self.token) == atSignIn, "the old refresh was retried")
        let stored = try #require(try await store.read().accounts.values.first)
        #expect(stored.accessToken == again.accessToken)
        #expect(stored.refreshToken != nil)
        #expect(try await client.acquireTokenSilent(account: again.account).accessToken == again.accessToken)
        _ = try await client.acquireTokenSilent(account: again.account, forceRefresh: true)
        #expect(try await client.accounts().first?.sessionState == .signedIn)
    }
}
