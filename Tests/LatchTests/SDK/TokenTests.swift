import Foundation
import LatchServer
import LatchTesting
import LatchWire
import Testing

@testable import Latch

/// Silent acquisition: the cache, refresh near expiry, forced refresh, revocation and sign-out.
@Suite("SDK silent token acquisition")
struct TokenTests {
    static let token = "/oauth2/v2.0/token"

    @Test("served from the cache while valid for more than 5 minutes; refreshed within 5 minutes")
    func cacheThenRefresh() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let store = InMemoryCredentialStore()
        let client = try env.client(store: store)
        let signedIn = try await env.signedIn(client, email: SDKTest.email("cache"))
        let before = env.recorder.count
        let serverBefore = env.serverCount(Self.token)

        let cached = try await client.acquireTokenSilent(account: signedIn.account)
        #expect(cached.accessToken == signedIn.accessToken)
        #expect(cached.expiresOn == signedIn.expiresOn)
        env.server.clock.advance(by: 3600 - 301)  // 301 s left: still served from the cache
        let stillCached = try await client.acquireTokenSilent(scopes: ["openid"], account: signedIn.account)
        #expect(stillCached.accessToken == signedIn.accessToken)
        #expect(env.recorder.count == before)
        #expect(env.serverCount(Self.token) == serverBefore)

        env.server.clock.advance(by: 2)  // 299 s left: refreshed
        let oldRefreshToken = try await store.read().accounts.values.first?.refreshToken
        let refreshed = try await client.acquireTokenSilent(account: signedIn.account)
        #expect(refreshed.accessToken != signedIn.accessToken)
        #expect(refreshed.expiresOn == env.server.clock.now().addingTimeInterval(3600))
        #expect(refreshed.account.id == signedIn.account.id)
        #expect(refreshed.account.sessionState == .signedIn)
        #expect(env.recorder.count == before + 1)
        #expect(env.serverCount(Self.token) == serverBefore + 1)
        let stored = try #require(try await store.read().accounts.values.first)
        #expect(stored.accessToken == refreshed.accessToken)
        #expect(stored.refreshToken != nil && stored.refreshToken != oldRefreshToken)

        // The new token is cached in turn.
        let next = try await client.acquireTokenSilent(account: signedIn.account)
        #expect(next.accessToken == refreshed.accessToken)
        #expect(env.recorder.count == before + 1)
    }

    @Test("a new client over the same store serves the cached token without a request")
    func cacheFromStore() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let store = InMemoryCredentialStore()
        let signedIn = try await env.signedIn(try env.client(store: store), email: SDKTest.email("store"))
        let before = env.recorder.count
        let other = try env.client(store: store)
        let account = try #require(try await other.accounts().first)
        #expect(account == signedIn.account)
        let result = try await other.acquireTokenSilent(account: account)
        #expect(result.accessToken == signedIn.accessToken)
        #expect(env.recorder.count == before)
    }

    @Test("forceRefresh refreshes even though the cached token is fresh")
    func forceRefresh() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let client = try env.client()
        let signedIn = try await env.signedIn(client, email: SDKTest.email("force"))
        let serverBefore = env.serverCount(Self.token)
        let refreshed = try await client.acquireTokenSilent(account: signedIn.account, forceRefresh: true)
        #expect(refreshed.accessToken != signedIn.accessToken)
        #expect(env.serverCount(Self.token) == serverBefore + 1)
        let again = try await client.acquireTokenSilent(account: signedIn.account, forceRefresh: true)
        #expect(again.accessToken != refreshed.accessToken)
        #expect(env.serverCount(Self.token) == serverBefore + 2)
    }

    @Test("password reset elsewhere revokes the session: interactionRequired -50002, then accounts() says so")
    func revokedByPasswordReset() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let store = InMemoryCredentialStore()
        let client = try env.client(store: store)
        let email = SDKTest.email("revoked")
        let signedIn = try await env.signedIn(client, email: email)

        // The user resets the password on another device.
        let device = try env.client()
        let reset = try SDKTest.codeRequired(try await device.resetPassword(username: email))
        _ = try await SDKTest.passwordRequired(try await reset.submitCode(try env.code(to: email)))
            .submitPassword(SDKTest.otherPassword)

        // The cached access token is still served until it nears expiry…
        #expect(try await client.acquireTokenSilent(account: signedIn.account).accessToken == signedIn.accessToken)
        // …then the refresh is refused.
        env.server.clock.advance(by: 3400)
        let error = try await #require(throws: LatchError.self) {
            try await client.acquireTokenSilent(account: signedIn.account)
        }
        SDKTest.expect(
            error, .interactionRequired, status: 400, oauthError: "invalid_grant",
            serverErrorCodes: [ServerErrorCode.refreshTokenRevoked], recovery: .signInAgain(claimsChallenge: nil),
            correlation: .lastRequest(env.recorder))

        let accounts = try await client.accounts()
        #expect(accounts.map(\.id) == [signedIn.account.id])
        #expect(accounts.first?.sessionState == .interactionRequired)
        let stored = try #require(try await store.read().accounts.values.first)
        #expect(stored.refreshToken == nil)
        #expect(stored.accessToken == nil)
        // A fresh client over the same store agrees.
        #expect(try await env.client(store: store).accounts().first?.sessionState == .interactionRequired)

        // Later calls fail the same way without asking the server again.
        let serverBefore = env.serverCount(Self.token)
        let again = try await #require(throws: LatchError.self) {
            try await client.acquireTokenSilent(account: signedIn.account)
        }
        #expect(again.code == .interactionRequired)
        #expect(again.recovery == .signInAgain(claimsChallenge: nil))
        #expect(env.serverCount(Self.token) == serverBefore)

        // Signing in again restores the session.
        let back = try SDKTest.completed(try await client.signIn(username: email, password: SDKTest.otherPassword))
        #expect(try await client.accounts().first?.sessionState == .signedIn)
        #expect(try await client.acquireTokenSilent(account: back.account).accessToken == back.accessToken)
    }

    @Test("a reused refresh token revokes the session for every holder")
    func revokedByReuse() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let store = InMemoryCredentialStore()
        let client = try env.client(store: store)
        let signedIn = try await env.signedIn(client, email: SDKTest.email("reuse"))
        let stale = try await store.read()
        _ = try await client.acquireTokenSilent(account: signedIn.account, forceRefresh: true)
        env.server.clock.advance(by: 10)  // past the 5 s reuse grace window

        // A copy of the old store presents the rotated refresh token again.
        let copy = try env.client(store: InMemoryCredentialStore(snapshot: stale))
        let reused = try await #require(throws: LatchError.self) {
            try await copy.acquireTokenSilent(account: signedIn.account, forceRefresh: true)
        }
        SDKTest.expect(
            reused, .interactionRequired, status: 400, oauthError: "invalid_grant",
            serverErrorCodes: [ServerErrorCode.refreshTokenReused], recovery: .signInAgain(claimsChallenge: nil),
            correlation: .lastRequest(env.recorder))
        #expect(try await copy.accounts().first?.sessionState == .interactionRequired)

        // The legitimate holder's newer refresh token is revoked too.
        let revoked = try await #require(throws: LatchError.self) {
            try await client.acquireTokenSilent(account: signedIn.account, forceRefresh: true)
        }
        SDKTest.expect(
            revoked, .interactionRequired, status: 400, oauthError: "invalid_grant",
            serverErrorCodes: [ServerErrorCode.refreshTokenRevoked], recovery: .signInAgain(claimsChallenge: nil),
            correlation: .lastRequest(env.recorder))
        #expect(try await client.accounts().first?.sessionState == .interactionRequired)
    }

    @Test("signOut removes the tokens; silent acquisition then needs interaction, without a request")
    func signOut() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let store = InMemoryCredentialStore()
        let client = try env.client(store: store)
        let signedIn = try await env.signedIn(client, email: SDKTest.email("signout"))
        try await client.signOut(account: signedIn.account)
        #expect(try await client.accounts().isEmpty)
        #expect(try await store.read().accounts.isEmpty)
        let before = env.recorder.count
        let id = UUID()
        let error = try await #require(throws: LatchError.self) {
            try await client.acquireTokenSilent(account: signedIn.account, correlationID: id)
        }
        SDKTest.expect(
            error, .interactionRequired, status: nil, oauthError: nil, recovery: .signInAgain(claimsChallenge: nil),
            correlation: .flow(id))
        #expect(env.recorder.count == before)
    }

    @Test("a session without offline_access has no refresh token: interactionRequired near expiry, no request")
    func noRefreshToken() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let client = try env.client()
        let email = SDKTest.email("noofflline")
        try env.server.createUser(email: email, password: SDKTest.password)
        let result = try SDKTest.completed(
            try await client.signIn(username: email, password: SDKTest.password, scopes: ["openid"]))
        #expect(result.account.sessionState == .interactionRequired)
        #expect(try await client.acquireTokenSilent(account: result.account).accessToken == result.accessToken)
        env.server.clock.advance(by: 3400)
        let before = env.recorder.count
        let error = try await #require(throws: LatchError.self) { try await client.acquireTokenSilent(account: result.account) }
        #expect(error.code == .interactionRequired)
        #expect(env.recorder.count == before)
    }
}

/// Two clients over one store (as two processes over one file, or an app and its extension).
@Suite("SDK accounts() over a shared store")
struct SharedStoreAccountsTests {
    @Test("accounts() reflects another client's sign-out and revocation, never a stale signedIn")
    func accountsFollowTheStore() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let store = InMemoryCredentialStore()
        let first = try env.client(store: store)
        let second = try env.client(store: store)
        let email = SDKTest.email("shared")
        let signedIn = try await env.signedIn(first, email: email)
        #expect(try await second.accounts().first?.sessionState == .signedIn)

        // The session is revoked and the first client finds out.
        let reset = try SDKTest.codeRequired(try await env.client().resetPassword(username: email))
        _ = try await SDKTest.passwordRequired(try await reset.submitCode(try env.code(to: email)))
            .submitPassword(SDKTest.otherPassword)
        _ = try? await first.acquireTokenSilent(account: signedIn.account, forceRefresh: true)
        #expect(try await first.accounts().first?.sessionState == .interactionRequired)
        #expect(try await second.accounts().first?.sessionState == .interactionRequired)

        // Signed in again, then signed out by the first client.
        let again = try SDKTest.completed(try await first.signIn(username: email, password: SDKTest.otherPassword))
        #expect(try await second.accounts().first?.sessionState == .signedIn)
        try await first.signOut(account: again.account)
        #expect(try await second.accounts().isEmpty)
        let error = try await #require(throws: LatchError.self) {
            try await second.acquireTokenSilent(account: again.account)
        }
        #expect(error.code == .interactionRequired)
    }
}
