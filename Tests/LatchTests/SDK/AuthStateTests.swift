import Foundation
import LatchLocking
import LatchServer
import LatchTesting
import LatchWire
import Testing

@testable import Latch

/// `currentAccount`, `isSignedIn`, `authStateChanges` and `authEvents`, fed by every path.
@Suite("SDK auth state", .timeLimit(.minutes(1)))
struct AuthStateTests {
    @Test("sign-up → sign-in → refresh → sign-out: states nil, signed in, nil; events signedIn, tokenRefreshed, signedOut")
    func wholeSequence() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let client = try env.watchingClient(store: InMemoryCredentialStore())
        let states = StreamRecorder(client.authStateChanges)
        let events = StreamRecorder(client.authEvents)
        #expect(AuthStateText.states(await states.wait(for: 1)) == ["nil"])
        #expect(try await client.currentAccount == nil)
        #expect(try await client.isSignedIn == false)

        let email = SDKTest.email("sequence")
        let signUp = try SDKTest.codeRequired(try await client.signUp(username: email, password: SDKTest.password))
        let afterSignUp = try SDKTest.accountCreated(try await signUp.submitCode(try env.code(to: email)))
        #expect(AuthStateText.states(states.values) == ["nil"], "a sign-up alone signs nobody in")
        let result = try SDKTest.completed(try await afterSignUp.signIn())
        #expect(try await client.currentAccount?.id == result.account.id)
        #expect(try await client.isSignedIn)

        _ = try await client.acquireTokenSilent(account: result.account, forceRefresh: true)
        try await client.signOut(account: result.account)
        #expect(try await client.currentAccount == nil)
        #expect(try await client.isSignedIn == false)

        _ = await states.wait(for: 3)
        _ = await events.wait(for: 3)
        #expect(AuthStateText.states(await states.settle()) == ["nil", "\(email):signedIn", "nil"])
        #expect(
            AuthStateText.events(events.values) == ["signedIn \(email)", "tokenRefreshed \(email)", "signedOut \(email)"])
    }

    @Test("a stream opened later starts with the current account; its listener goes when it ends")
    func firstElementAndTermination() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let client = try env.watchingClient(store: InMemoryCredentialStore())
        let email = SDKTest.email("first")
        _ = try await env.signedIn(client, email: email)
        let hub = client.session.tokens.authState
        #expect(hub.listenerCount == 0)

        let states = StreamRecorder(client.authStateChanges)
        let events = StreamRecorder(client.authEvents)
        #expect(AuthStateText.states(await states.wait(for: 1)) == ["\(email):signedIn"])
        #expect(hub.listenerCount == 2)
        #expect(client.session.tokens.watcher.withLock { $0 != nil })

        states.cancel()
        events.cancel()
        let deadline = Date().addingTimeInterval(5)
        while hub.listenerCount > 0 && Date() < deadline { try await Task.sleep(nanoseconds: 10_000_000) }
        #expect(hub.listenerCount == 0)
        #expect(client.session.tokens.watcher.withLock { $0 == nil }, "the store is no longer watched")
        #expect(events.values.isEmpty)
    }

    @Test("the server ends the session: sessionEnded(revoked); the account stays current, not signed in")
    func sessionEndedByServer() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let client = try env.watchingClient(store: InMemoryCredentialStore())
        let email = SDKTest.email("ended")
        let signedIn = try await env.signedIn(client, email: email)
        let states = StreamRecorder(client.authStateChanges)
        let events = StreamRecorder(client.authEvents)
        _ = await states.wait(for: 1)

        // The password is reset on another device, which revokes every session.
        let reset = try SDKTest.codeRequired(try await env.client().resetPassword(username: email))
        let newPassword = try SDKTest.passwordRequired(try await reset.submitCode(try env.code(to: email)))
        _ = try await newPassword.submitPassword(SDKTest.otherPassword)
        let error = try await #require(throws: LatchError.self) {
            try await client.acquireTokenSilent(account: signedIn.account, forceRefresh: true)
        }
        #expect(error.code == .interactionRequired)

        _ = await events.wait(for: 1)
        #expect(AuthStateText.events(await events.settle()) == ["sessionEnded \(email) revoked"])
        #expect(AuthStateText.states(states.values) == ["\(email):signedIn", "\(email):interactionRequired"])
        #expect(try await client.currentAccount?.sessionState == .interactionRequired)
        #expect(try await client.isSignedIn == false)

        // Signing in again starts a new session.
        _ = try await client.signIn(username: email, password: SDKTest.otherPassword)
        _ = await events.wait(for: 2)
        #expect(AuthStateText.events(events.values).last == "signedIn \(email)")
        #expect(AuthStateText.states(await states.wait(for: 3)).last == "\(email):signedIn")
    }

    @Test("another user signing in becomes current; signing the current one out leaves none, not the other")
    func currentAccountFollowsSignIns() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let client = try env.watchingClient(store: InMemoryCredentialStore())
        let (ada, grace) = (SDKTest.email("ada"), SDKTest.email("grace"))
        let first = try await env.signedIn(client, email: ada)
        let states = StreamRecorder(client.authStateChanges)
        _ = await states.wait(for: 1)
        let second = try await env.signedIn(client, email: grace)
        #expect(try await client.currentAccount?.id == second.account.id)
        #expect(try await client.accounts().count == 2)

        try await client.signOut(account: second.account)
        #expect(try await client.currentAccount == nil)
        #expect(try await client.accounts().map(\.id) == [first.account.id])
        try await client.signOut(account: first.account)
        #expect(AuthStateText.states(await states.settle()) == ["\(ada):signedIn", "\(grace):signedIn", "nil"])
    }

    @Test("another client over the same store: its sign-in and sign-out arrive as events")
    func anotherClientSharingTheStore() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let store = InMemoryCredentialStore()
        let watching = try env.watchingClient(store: store)
        let other = try env.client(store: store)
        let states = StreamRecorder(watching.authStateChanges)
        let events = StreamRecorder(watching.authEvents)
        _ = await states.wait(for: 1)

        let email = SDKTest.email("elsewhere")
        let signedIn = try await env.signedIn(other, email: email)
        _ = await events.wait(for: 1)
        _ = try await other.acquireTokenSilent(account: signedIn.account, forceRefresh: true)
        _ = await events.wait(for: 2)
        try await other.signOut(account: signedIn.account)
        _ = await events.wait(for: 3)
        #expect(
            AuthStateText.events(await events.settle())
                == ["signedIn \(email)", "tokenRefreshed \(email)", "signedOut \(email)"])
        #expect(AuthStateText.states(states.values) == ["nil", "\(email):signedIn", "nil"])
    }

    @Test(
        "a sign-out by another process sharing the file store arrives as signedOut",
        .enabled(if: FileCredentialStoreProcessTests.fixtureURL() != nil, "latch-store-fixture is not built"))
    func signOutInAnotherProcess() async throws {
        let fixture = try #require(FileCredentialStoreProcessTests.fixtureURL())
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let directory = try StoreTestDirectory()
        defer { directory.remove() }
        let path = directory.credentialsPath
        let client = try env.watchingClient(store: FileCredentialStore(path: path))
        let email = SDKTest.email("xproc-out")
        let signedIn = try await env.signedIn(client, email: email)
        let states = StreamRecorder(client.authStateChanges)
        let events = StreamRecorder(client.authEvents)
        #expect(AuthStateText.states(await states.wait(for: 1)) == ["\(email):signedIn"])

        let run = try await FileCredentialStoreProcessTests.run(
            fixture, ["signout", path, env.server.baseURL, "default", "latch-dev"])
        #expect(run.status == 0, "\(run.stderr)")

        _ = await events.wait(for: 1)
        #expect(AuthStateText.events(await events.settle()) == ["signedOut \(email)"])
        #expect(AuthStateText.states(states.values) == ["\(email):signedIn", "nil"])
        #expect(try await client.currentAccount == nil)
        let error = try await #require(throws: LatchError.self) {
            try await client.acquireTokenSilent(account: signedIn.account)
        }
        #expect(error.code == .interactionRequired)
    }

    @Test("only an authoritative 4xx answer ends a session; the reason comes from the server's codes")
    func sessionEndReasons() {
        typealias Reason = LatchAuthEvent.SessionEndReason
        func error(_ code: LatchError.Code, status: Int?, codes: [Int] = [], oauth: String? = nil) -> LatchError {
            LatchError(code: code, message: "test", httpStatus: status, oauthError: oauth, serverErrorCodes: codes)
        }
        #expect(Reason.ending(error(.interactionRequired, status: 400, codes: [ServerErrorCode.refreshTokenRevoked])) == .revoked)
        #expect(
            Reason.ending(error(.interactionRequired, status: 400, codes: [ServerErrorCode.refreshTokenReused]))
                == .refreshTokenReused)
        #expect(
            Reason.ending(error(.interactionRequired, status: 400, codes: [ServerErrorCode.invalidRefreshToken]))
                == .invalidRefreshToken)
        #expect(Reason.ending(error(.interactionRequired, status: 400, oauth: "expired_refresh_token")) == .expired)
        #expect(Reason.ending(error(.userDisabled, status: 400)) == .userDisabled)
        #expect(Reason.ending(error(.userNotFound, status: 400)) == .userNotFound)
        for kept in [
            error(.networkError, status: nil), error(.serverError, status: 500), error(.serverError, status: 503),
            error(.tooManyRequests, status: 429), error(.userCanceled, status: nil), error(.unexpectedResponse, status: 200),
            error(.internal, status: 400), error(.interactionRequired, status: nil), error(.invalidScope, status: 400),
        ] {
            #expect(Reason.ending(kept) == nil, "\(kept)")
        }
    }
}
