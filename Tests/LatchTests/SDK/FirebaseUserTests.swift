import Foundation
import Latch
import LatchSDKTesting
import Testing

/// The calls on a ``LatchUser``: ID tokens (cached, refreshed at securetoken), its claims, reload,
/// e-mail and password updates, deletion, reauthentication, linking, and the action-code calls.
@Suite("SDK Firebase-style user", .timeLimit(.minutes(1)))
struct FirebaseUserTests {
    typealias S = FirebaseScript

    @Test("getIDToken: the cached token with no request; forceRefresh posts grantType and refreshToken to securetoken")
    func getIDToken() async throws {
        let script = ScriptedTransport()
        let (client, user, start) = try await S.signedIn(script)
        let first = try await user.getIDToken()
        #expect(S.requests(script, after: start).isEmpty)

        let newer = S.idToken(extra: ["refreshed": true])
        script.respond(to: S.secureToken, json: S.refreshed(newer))
        let refreshed = try await user.getIDToken(forceRefresh: true)
        #expect(refreshed == newer)
        #expect(refreshed != first)
        let sent = S.requests(script, after: start)
        #expect(sent.map(\.path) == ["/securetoken.googleapis.com/v1/token"])
        #expect(sent.first?.query == ["key": S.apiKey])
        let body = try #require(sent.first?.json)
        #expect(Set(body.keys) == ["grantType", "refreshToken"])
        #expect(body["grantType"] as? String == "refresh_token")
        #expect(body["refreshToken"] as? String == "rt-1")

        // The rotated refresh token is the one sent next time; the native API sees the new token.
        #expect(try await client.acquireTokenSilent(account: user.account).accessToken == newer)
        _ = try await user.getIDToken(forceRefresh: true)
        #expect(script.requests(to: S.secureToken).last?.json?["refreshToken"] as? String == "rt-2")
    }

    @Test("getIDTokenResult: claims, dates and the sign-in provider; a token without auth_time is malformedJWT (18000)")
    func getIDTokenResult() async throws {
        let script = ScriptedTransport()
        let (_, user, _) = try await S.signedIn(script)
        let result = try await user.getIDTokenResult()
        #expect(result.signInProvider == "password")
        #expect(result.claims.subject == S.uid)
        #expect(result.claims.email == S.email)
        #expect(result.authDate < result.issuedAtDate)
        #expect(result.expirationDate.timeIntervalSince(result.issuedAtDate) == 3600)
        #expect(result.signInSecondFactor == nil)

        script.respond(to: S.secureToken, json: S.refreshed(S.idToken(firebase: false)))
        let error = try await #require(throws: LatchError.self) { try await user.getIDTokenResult(forceRefresh: true) }
        S.expect(error, .malformedJWT, 18000, "ERROR_MALFORMED_JWT")
    }

    @Test("reload: accounts:lookup with the ID token; the new profile is the current user's")
    func reload() async throws {
        let script = ScriptedTransport()
        let (client, user, start) = try await S.signedIn(script)
        script.respond(to: S.v1("lookup"), json: S.lookup(verified: true, displayName: "Ada L."))
        let reloaded = try await user.reload()
        let sent = S.requests(script, after: start)
        #expect(sent.map(\.path) == [S.v1("lookup")])
        #expect(sent.first?.json?["idToken"] as? String == (try await user.getIDToken()))
        #expect(Set(sent.first?.json?.keys.map { $0 } ?? []) == ["idToken"])
        #expect(reloaded.isEmailVerified)
        #expect(reloaded.displayName == "Ada L.")
        #expect(try await client.firebase.currentUser == reloaded)
    }

    @Test("updateEmail: accounts:update with idToken, email, returnSecureToken; the answer's tokens replace the stored ones")
    func updateEmail() async throws {
        let script = ScriptedTransport()
        let (client, user, start) = try await S.signedIn(script)
        let old = try await user.getIDToken()
        let newer = S.idToken(email: "ada@new.example")
        script.respond(to: S.v1("update"), json: S.tokens(newer, refresh: "rt-new"))
        script.respond(to: S.v1("lookup"), json: S.lookup(email: "ada@new.example"))
        let updated = try await user.updateEmail(to: "ada@new.example")
        let sent = S.requests(script, after: start)
        #expect(sent.map(\.path) == [S.v1("update"), S.v1("lookup")])
        let body = try #require(sent.first?.json)
        #expect(Set(body.keys) == ["idToken", "email", "returnSecureToken"])
        #expect(body["idToken"] as? String == old)
        #expect(body["email"] as? String == "ada@new.example")
        #expect(body["returnSecureToken"] as? Bool == true)
        #expect(sent.last?.json?["idToken"] as? String == newer)
        #expect(updated.email == "ada@new.example")
        #expect(try await client.acquireTokenSilent(account: user.account).accessToken == newer)
        script.respond(to: S.secureToken, json: S.refreshed(S.idToken()))
        _ = try await updated.getIDToken(forceRefresh: true)
        #expect(script.requests(to: S.secureToken).last?.json?["refreshToken"] as? String == "rt-new")
    }

    @Test("updatePassword: accounts:update with idToken, password, returnSecureToken")
    func updatePassword() async throws {
        let script = ScriptedTransport()
        let (_, user, start) = try await S.signedIn(script)
        script.respond(to: S.v1("update"), json: S.tokens(S.idToken(extra: ["n": 2]), refresh: "rt-3"))
        script.respond(to: S.v1("lookup"), json: S.lookup())
        _ = try await user.updatePassword(to: "a newer password")
        let body = try #require(S.requests(script, after: start).first?.json)
        #expect(Set(body.keys) == ["idToken", "password", "returnSecureToken"])
        #expect(body["password"] as? String == "a newer password")
        #expect(body["returnSecureToken"] as? Bool == true)
    }

    @Test("delete: accounts:delete with idToken and localId, then signed out here")
    func delete() async throws {
        let script = ScriptedTransport()
        let (client, user, start) = try await S.signedIn(script)
        script.respond(to: S.v1("delete"), json: #"{"kind":"identitytoolkit#DeleteAccountResponse"}"#)
        try await user.delete()
        let sent = S.requests(script, after: start)
        #expect(sent.map(\.path) == [S.v1("delete")])
        let body = try #require(sent.first?.json)
        #expect(Set(body.keys) == ["idToken", "localId"])
        #expect(body["localId"] as? String == S.uid)
        #expect(try await client.firebase.currentUser == nil)
        #expect(try await client.accounts().isEmpty)
    }

    @Test("reauthenticate: accounts:signInWithPassword with the credential; the same account with a new session")
    func reauthenticate() async throws {
        let script = ScriptedTransport()
        let (client, user, start) = try await S.signedIn(script)
        script.respond(to: S.v1("signInWithPassword"), json: S.tokens(S.idToken(extra: ["n": 3]), refresh: "rt-re"))
        script.respond(to: S.v1("lookup"), json: S.lookup())
        let again = try await user.reauthenticate(with: .email(S.email, password: S.password))
        let sent = S.requests(script, after: start)
        #expect(sent.map(\.path) == [S.v1("signInWithPassword"), S.v1("lookup")])
        let body = try #require(sent.first?.json)
        #expect(Set(body.keys) == ["email", "password", "returnSecureToken"])
        #expect(again.uid == user.uid)
        #expect(try await client.accounts().count == 1)
    }

    @Test("reauthenticate as another user: userMismatch (17024), by localId or by EMAIL_NOT_FOUND; still signed in")
    func reauthenticateMismatch() async throws {
        let script = ScriptedTransport()
        let (client, user, _) = try await S.signedIn(script)
        script.respond(to: S.v1("signInWithPassword"), json: S.tokens(S.idToken(uid: "someone-else"), uid: "someone-else"))
        script.respond(to: S.v1("signInWithPassword"), with: S.error("EMAIL_NOT_FOUND"))
        let other = try await #require(throws: LatchError.self) {
            try await user.reauthenticate(with: .email("grace@example.com", password: S.password))
        }
        S.expect(other, .userMismatch, 17024, "ERROR_USER_MISMATCH")
        let unknown = try await #require(throws: LatchError.self) {
            try await user.reauthenticate(with: .email("nobody@example.com", password: S.password))
        }
        S.expect(unknown, .userMismatch, 17024, "ERROR_USER_MISMATCH")
        #expect(try await client.firebase.currentUser?.uid == S.uid)
    }

    @Test("link an e-mail credential to an anonymous user: accounts:signUp with idToken, email, password")
    func link() async throws {
        let script = ScriptedTransport()
        script.respond(to: S.v1("signUp"), json: S.tokens(S.idToken(uid: "anon", email: nil, provider: "anonymous"), uid: "anon"))
        script.respond(to: S.v1("signUp"), json: S.tokens(S.idToken(uid: "anon"), refresh: "rt-linked", uid: "anon"))
        script.respond(to: S.v1("lookup"), json: S.lookup(uid: "anon", email: nil, password: false))
        script.respond(to: S.v1("lookup"), json: S.lookup(uid: "anon"))
        let client = try S.client(script)
        let anonymous = try await client.firebase.signInAnonymously()
        let token = try await anonymous.getIDToken()
        let linked = try await anonymous.link(with: .email(S.email, password: S.password))
        let body = try #require(script.requests(to: S.v1("signUp")).last?.json)
        #expect(Set(body.keys) == ["idToken", "email", "password", "returnSecureToken"])
        #expect(body["idToken"] as? String == token)
        #expect(linked.uid == "anon")
        #expect(linked.isAnonymous == false)
        #expect(linked.providerData.map(\.providerID) == ["password"])

        let count = script.requests.count
        let already = try await #require(throws: LatchError.self) {
            try await linked.link(with: .email(S.email, password: S.password))
        }
        S.expect(already, .providerAlreadyLinked, 17015, "ERROR_PROVIDER_ALREADY_LINKED")
        let none = try await #require(throws: LatchError.self) { try await linked.unlink(fromProvider: "google.com") }
        S.expect(none, .noSuchProvider, 17016, "ERROR_NO_SUCH_PROVIDER")
        #expect(script.requests.count == count, "both before any request")
    }

    @Test("unlink: accounts:update with idToken, deleteProvider and returnSecureToken")
    func unlink() async throws {
        let script = ScriptedTransport()
        let (_, user, start) = try await S.signedIn(script)
        script.respond(to: S.v1("update"), json: #"{"localId":"\#(S.uid)"}"#)
        script.respond(to: S.v1("lookup"), json: S.lookup())
        _ = try await user.unlink(fromProvider: "password")
        let body = try #require(S.requests(script, after: start).first?.json)
        #expect(Set(body.keys) == ["idToken", "deleteProvider", "returnSecureToken"])
        #expect(body["deleteProvider"] as? [String] == ["password"])
    }

    @Test("sendEmailVerification: accounts:sendOobCode with requestType VERIFY_EMAIL and idToken")
    func sendEmailVerification() async throws {
        let script = ScriptedTransport()
        let (_, user, start) = try await S.signedIn(script)
        script.respond(to: S.v1("sendOobCode"), json: #"{"email":"\#(S.email)"}"#)
        try await user.sendEmailVerification()
        let body = try #require(S.requests(script, after: start).first?.json)
        #expect(Set(body.keys) == ["requestType", "idToken"])
        #expect(body["requestType"] as? String == "VERIFY_EMAIL")
    }

    @Test("action codes: sendPasswordReset, confirmPasswordReset and applyActionCode send the reference's bodies")
    func actionCodes() async throws {
        let script = ScriptedTransport()
        script.respond(to: S.v1("sendOobCode"), json: #"{"email":"\#(S.email)"}"#)
        script.respond(to: S.v1("resetPassword"), json: #"{"email":"\#(S.email)","requestType":"PASSWORD_RESET"}"#)
        script.respond(to: S.v1("update"), json: #"{"email":"\#(S.email)"}"#)
        let client = try S.client(script)
        try await client.firebase.sendPasswordReset(withEmail: S.email)
        try await client.firebase.confirmPasswordReset(code: "oob-1", newPassword: "another password")
        try await client.firebase.applyActionCode("oob-2")
        #expect(script.requests.map(\.path) == [S.v1("sendOobCode"), S.v1("resetPassword"), S.v1("update")])
        let bodies = script.requests.compactMap(\.json)
        #expect(bodies[0] as? [String: String] == ["requestType": "PASSWORD_RESET", "email": S.email])
        #expect(bodies[1] as? [String: String] == ["oobCode": "oob-1", "newPassword": "another password"])
        #expect(bodies[2] as? [String: String] == ["oobCode": "oob-2"])
        #expect(script.requests.allSatisfy { $0.query == ["key": S.apiKey] })
    }
}
