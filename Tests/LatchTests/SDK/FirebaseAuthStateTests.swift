import Foundation
import Latch
import LatchSDKTesting
import Testing

/// One session store and one auth state for native and Firebase-style sign-ins, and the local
/// sign-out on userNotFound, userDisabled, invalidUserToken and userTokenExpired.
@Suite("SDK Firebase-style auth state", .timeLimit(.minutes(1)))
struct FirebaseAuthStateTests {
    typealias S = FirebaseScript

    @Test("a Firebase-style sign-in is the current account; signOut emits signedOut once and the state nil")
    func firebaseSignInIsTheCurrentAccount() async throws {
        let script = ScriptedTransport()
        script.respond(to: S.v1("signInWithPassword"), json: S.tokens())
        script.respond(to: S.v1("lookup"), json: S.lookup())
        let client = try S.client(script)
        let states = StreamRecorder(client.authStateChanges)
        let events = StreamRecorder(client.authEvents)
        _ = await states.wait(for: 1)

        let user = try await client.firebase.signIn(email: S.email, password: S.password)
        #expect(try await client.currentAccount?.id == user.uid)
        #expect(try await client.isSignedIn)
        try await client.firebase.signOut()
        _ = await states.wait(for: 3)
        _ = await events.wait(for: 2)
        #expect(AuthStateText.states(await states.settle()) == ["nil", "\(S.email):signedIn", "nil"])
        #expect(AuthStateText.events(events.values) == ["signedIn \(S.email)", "signedOut \(S.email)"])
    }

    @Test("a native sign-in is the Firebase-style currentUser, and signs out through it")
    func nativeSignInIsTheCurrentUser() async throws {
        let script = ScriptedTransport()
        script.respond(to: "/oauth2/v2.0/initiate", json: #"{"continuation_token":"ct-1"}"#)
        script.respond(to: "/oauth2/v2.0/challenge", json: #"{"continuation_token":"ct-2","challenge_type":"password"}"#)
        script.respond(to: "/oauth2/v2.0/token", with: LatchPreview.tokenResponse(username: S.email))
        let client = try S.client(script)
        let events = StreamRecorder(client.authEvents)
        guard case .completed(let result) = try await client.signIn(username: S.email, password: S.password) else {
            Issue.record("expected a finished sign-in")
            return
        }
        let user = try #require(try await client.firebase.currentUser)
        #expect(user.uid == result.account.id)
        #expect(user.account == result.account)
        #expect(user.email == S.email)
        #expect(user.isAnonymous == false)
        #expect(user.providerData.map(\.providerID) == ["password"])
        #expect(try await user.getIDToken() == result.accessToken)

        try await client.firebase.signOut()
        #expect(try await client.currentAccount == nil)
        _ = await events.wait(for: 2)
        #expect(AuthStateText.events(await events.settle()) == ["signedIn \(S.email)", "signedOut \(S.email)"])
    }

    @Test(
        "userNotFound, userDisabled, invalidUserToken, userTokenExpired from accounts:lookup sign the user out locally",
        arguments: ["USER_NOT_FOUND", "USER_DISABLED", "INVALID_ID_TOKEN", "TOKEN_EXPIRED"])
    func localSignOut(message: String) async throws {
        let script = ScriptedTransport()
        let (client, user, _) = try await S.signedIn(script)
        let states = StreamRecorder(client.authStateChanges)
        let events = StreamRecorder(client.authEvents)
        _ = await states.wait(for: 1)
        script.respond(to: S.v1("lookup"), with: S.error(message))
        script.respond(to: S.v1("lookup"), with: S.error(message))
        _ = try await #require(throws: LatchError.self) { try await user.reload() }
        #expect(try await client.firebase.currentUser == nil)
        #expect(try await client.accounts().isEmpty)
        _ = await states.wait(for: 2)
        _ = await events.wait(for: 1)
        #expect(AuthStateText.states(await states.settle()) == ["\(S.email):signedIn", "nil"])
        #expect(AuthStateText.events(events.values) == ["signedOut \(S.email)"])
    }

    @Test(
        "other errors keep the user signed in",
        arguments: ["TOO_MANY_ATTEMPTS_TRY_LATER", "CREDENTIAL_TOO_OLD_LOGIN_AGAIN", "NEW_CODE"])
    func noLocalSignOut(message: String) async throws {
        let script = ScriptedTransport()
        let (client, user, _) = try await S.signedIn(script)
        script.respond(to: S.v1("lookup"), with: S.error(message))
        _ = try await #require(throws: LatchError.self) { try await user.reload() }
        #expect(try await client.firebase.currentUser?.uid == S.uid)
        #expect(try await client.isSignedIn)
    }

    @Test("a securetoken refresh answered TOKEN_EXPIRED is userTokenExpired (17021) and signs the user out")
    func refreshTokenExpired() async throws {
        let script = ScriptedTransport()
        let (client, user, _) = try await S.signedIn(script)
        let events = StreamRecorder(client.authEvents)
        script.respond(to: S.secureToken, with: S.error("TOKEN_EXPIRED"))
        let error = try await #require(throws: LatchError.self) { try await user.getIDToken(forceRefresh: true) }
        S.expect(error, .userTokenExpired, 17021, "ERROR_USER_TOKEN_EXPIRED")
        #expect(try await client.firebase.currentUser == nil)
        _ = await events.wait(for: 2)
        #expect(AuthStateText.events(await events.settle()).last == "signedOut \(S.email)")
    }

    @Test("INVALID_REFRESH_TOKEN from securetoken is internalError (17999) and keeps the user signed in")
    func refreshUnmapped() async throws {
        let script = ScriptedTransport()
        let (client, user, _) = try await S.signedIn(script)
        script.respond(to: S.secureToken, with: S.error("INVALID_REFRESH_TOKEN"))
        let error = try await #require(throws: LatchError.self) { try await user.getIDToken(forceRefresh: true) }
        S.expect(error, .internalError, 17999, "ERROR_INTERNAL_ERROR")
        #expect(try await client.firebase.currentUser?.uid == S.uid)
    }

    @Test("a Firebase-style session survives a file store: a new client sees the same user and refreshes it at securetoken")
    func persistedSession() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("latch-fb-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("credentials.json").path
        let script = ScriptedTransport()
        script.respond(to: S.v1("signInWithPassword"), json: S.tokens())
        script.respond(to: S.v1("lookup"), json: S.lookup(displayName: "Ada"))
        func client() throws -> LatchClient {
            var configuration = LatchPreview.configuration(transport: script.transport)
            configuration.apiKey = S.apiKey
            configuration.credentialStore = FileCredentialStore(path: path)
            return try LatchClient(configuration: configuration)
        }
        let user = try await client().firebase.signIn(email: S.email, password: S.password)

        let later = try client()
        let restored = try #require(try await later.firebase.currentUser)
        #expect(restored == user)
        #expect(restored.displayName == "Ada")
        script.respond(to: S.secureToken, json: S.refreshed(S.idToken(extra: ["n": 4])))
        _ = try await later.acquireTokenSilent(account: restored.account, forceRefresh: true)
        #expect(script.requests.last?.path == S.secureToken)
        #expect(script.requests(to: "/oauth2/v2.0/token").isEmpty)
    }
}
