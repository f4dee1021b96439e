import Foundation
import Latch
import LatchSDKTesting
import Testing

/// The Firebase-style account API's sign-in calls on the Identity Toolkit v1 wire: the exact
/// requests, and the user and session they leave.
@Suite("SDK Firebase-style sign-in", .timeLimit(.minutes(1)))
struct FirebaseSignInTests {
    typealias S = FirebaseScript

    @Test("createUser: accounts:signUp with email, password, returnSecureToken and ?key=, then accounts:lookup")
    func createUser() async throws {
        let script = ScriptedTransport()
        let token = S.idToken()
        script.respond(to: S.v1("signUp"), json: S.tokens(token))
        script.respond(to: S.v1("lookup"), json: S.lookup(displayName: "Ada"))
        let client = try S.client(script)

        let user = try await client.firebase.createUser(email: S.email, password: S.password)
        #expect(
            script.requests.map(\.path) == [
                "/identitytoolkit.googleapis.com/v1/accounts:signUp", "/identitytoolkit.googleapis.com/v1/accounts:lookup",
            ])
        #expect(script.requests.allSatisfy { $0.method == "POST" && $0.query == ["key": S.apiKey] })
        #expect(script.requests.allSatisfy { $0.headers["Content-Type"] == "application/json" })
        let body = try #require(script.requests[0].json)
        #expect(Set(body.keys) == ["email", "password", "returnSecureToken"])
        #expect(body["email"] as? String == S.email)
        #expect(body["password"] as? String == S.password)
        #expect(body["returnSecureToken"] as? Bool == true)
        #expect(script.requests[1].json?["idToken"] as? String == token)

        #expect(user.uid == S.uid)
        #expect(user.email == S.email)
        #expect(user.isEmailVerified == false)
        #expect(user.displayName == "Ada")
        #expect(user.isAnonymous == false)
        #expect(user.providerData.map(\.providerID) == ["password"])
        #expect(user.metadata.creationDate == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(user.metadata.lastSignInDate == Date(timeIntervalSince1970: 1_700_000_500))
        #expect(try await client.firebase.currentUser == user)

        // The same session as a native sign-in: the current account, and its token from the cache.
        let account = try #require(try await client.currentAccount)
        #expect(account.id == S.uid)
        #expect(account == user.account)
        #expect(account.sessionState == .signedIn)
        let silent = try await client.acquireTokenSilent(account: account)
        #expect(silent.accessToken == token)
        #expect(silent.idToken == token)
        #expect(script.requests.count == 2, "a cache hit sends nothing")
    }

    @Test("signIn(email:password:): accounts:signInWithPassword with email, password, returnSecureToken")
    func signIn() async throws {
        let script = ScriptedTransport()
        script.respond(to: S.v1("signInWithPassword"), json: S.tokens())
        script.respond(to: S.v1("lookup"), json: S.lookup(verified: true))
        let client = try S.client(script)

        let user = try await client.firebase.signIn(email: S.email, password: S.password)
        #expect(script.requests.map(\.path).first == S.v1("signInWithPassword"))
        #expect(script.requests.first?.query == ["key": S.apiKey])
        let body = try #require(script.requests.first?.json)
        #expect(Set(body.keys) == ["email", "password", "returnSecureToken"])
        #expect(body["email"] as? String == S.email)
        #expect(body["password"] as? String == S.password)
        #expect(body["returnSecureToken"] as? Bool == true)
        #expect(user.uid == S.uid)
        #expect(user.isEmailVerified)
        #expect(try await client.accounts().map(\.id) == [S.uid])
    }

    @Test("an empty password is wrongPassword (17009) before any request")
    func emptyPassword() async throws {
        let script = ScriptedTransport()
        let client = try S.client(script)
        let error = try await #require(throws: LatchError.self) { try await client.firebase.signIn(email: S.email, password: "") }
        S.expect(error, .wrongPassword, 17009, "ERROR_WRONG_PASSWORD")
        #expect(script.requests.isEmpty)
    }

    @Test("signInAnonymously: accounts:signUp with only returnSecureToken; again while anonymous sends nothing")
    func anonymous() async throws {
        let script = ScriptedTransport()
        script.respond(
            to: S.v1("signUp"), json: S.tokens(S.idToken(uid: "anon-1", email: nil, provider: "anonymous"), uid: "anon-1"))
        script.respond(to: S.v1("lookup"), json: S.lookup(uid: "anon-1", email: nil, password: false))
        let client = try S.client(script)

        let user = try await client.firebase.signInAnonymously()
        let body = try #require(script.requests.first?.json)
        #expect(Set(body.keys) == ["returnSecureToken"])
        #expect(body["returnSecureToken"] as? Bool == true)
        #expect(script.requests.first?.path == S.v1("signUp"))
        #expect(user.uid == "anon-1")
        #expect(user.isAnonymous)
        #expect(user.email == nil)
        #expect(user.providerData.isEmpty)
        #expect(try await client.currentAccount?.id == "anon-1")

        let again = try await client.firebase.signInAnonymously()
        #expect(again.uid == "anon-1")
        #expect(script.requests.count == 2, "the current user is anonymous already")
    }

    @Test("fetchSignInMethods: accounts:createAuthUri with identifier and continueUri")
    func fetchSignInMethods() async throws {
        let script = ScriptedTransport()
        script.respond(to: S.v1("createAuthUri"), json: #"{"signinMethods":["password"],"registered":true}"#)
        script.respond(to: S.v1("createAuthUri"), json: #"{"registered":false}"#)
        let client = try S.client(script)

        #expect(try await client.firebase.fetchSignInMethods(forEmail: S.email) == ["password"])
        let body = try #require(script.requests.first?.json)
        #expect(Set(body.keys) == ["identifier", "continueUri"])
        #expect(body["identifier"] as? String == S.email)
        #expect(script.requests.first?.query == ["key": S.apiKey])
        #expect(try await client.firebase.fetchSignInMethods(forEmail: "nobody@example.com") == [])
    }

    @Test("signOut sends nothing; currentUser and currentAccount are nil after it")
    func signOut() async throws {
        let script = ScriptedTransport()
        let (client, _, start) = try await S.signedIn(script)
        try await client.firebase.signOut()
        #expect(S.requests(script, after: start).isEmpty)
        #expect(try await client.firebase.currentUser == nil)
        #expect(try await client.currentAccount == nil)
        try await client.firebase.signOut()
    }

    @Test("without an API key: invalidAPIKey (17023) before any request")
    func noAPIKey() async throws {
        let script = ScriptedTransport()
        let client = try LatchPreview.client(script)
        let error = try await #require(throws: LatchError.self) {
            try await client.firebase.createUser(email: S.email, password: S.password)
        }
        S.expect(error, .invalidAPIKey, 17023, "ERROR_INVALID_API_KEY")
        #expect(script.requests.isEmpty)
    }

    @Test("a sign-in answer without refreshToken is invalidUserToken (17017); nothing is stored")
    func missingRefreshToken() async throws {
        let script = ScriptedTransport()
        script.respond(to: S.v1("signInWithPassword"), json: #"{"idToken":"\#(S.idToken())","expiresIn":"3600"}"#)
        let client = try S.client(script)
        let error = try await #require(throws: LatchError.self) {
            try await client.firebase.signIn(email: S.email, password: S.password)
        }
        S.expect(error, .invalidUserToken, 17017, "ERROR_INVALID_USER_TOKEN")
        #expect(try await client.currentAccount == nil)
    }

    @Test("accounts:lookup must answer exactly one user, else internalError (17999)")
    func lookupNotOne() async throws {
        let script = ScriptedTransport()
        script.respond(to: S.v1("signInWithPassword"), json: S.tokens())
        script.respond(to: S.v1("lookup"), json: #"{"users":[]}"#)
        let client = try S.client(script)
        let error = try await #require(throws: LatchError.self) {
            try await client.firebase.signIn(email: S.email, password: S.password)
        }
        S.expect(error, .internalError, 17999, "ERROR_INTERNAL_ERROR")
        #expect(try await client.currentAccount == nil)
    }

    @Test("the API key comes from settings: api_key in a file, LATCH_API_KEY in the environment")
    func apiKeySettings() throws {
        let file = try LatchSettings.json(Data(#"{"server":"https://id.example.com","client_id":"app","api_key":"k1"}"#.utf8))
        #expect(file.apiKey == "k1")
        let environment = try LatchSettings.environment(["LATCH_API_KEY": "k2"])
        #expect(environment.apiKey == "k2")
        let configuration = try LatchConfiguration(settings: file.overriding(environment))
        #expect(configuration.apiKey == "k2")
    }
}
