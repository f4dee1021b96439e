import Foundation
import Latch
import LatchSDKTesting
import Testing

/// A token response granting fewer of the requested scopes than asked: the tokens are stored,
/// `serverDeclinedScopes` says which were granted and which declined, and the granted ones are
/// served from the cache.
@Suite("Declined scopes (scripted)")
struct DeclinedScopesTests {
    typealias Script = MFAScript

    @Test("sign-in: stored, serverDeclinedScopes with both lists, the granted scopes served from the cache")
    func signIn() async throws {
        let script = ScriptedTransport()
        Script.passwordSignIn(script)
        script.respond(to: "/oauth2/v2.0/token", with: Script.tokens(scope: "openid offline_access api.read"))
        let client = try Script.client(script)

        let error = try await #require(throws: LatchError.self) {
            try await client.signIn(
                username: Script.email, password: "pw", scopes: ["openid", "offline_access", "api.read", "api.write"])
        }
        #expect(error.code == .serverDeclinedScopes)
        #expect(error.code.rawValue == -50003)
        #expect(error.name == "ERROR_SERVER_DECLINED_SCOPES")
        #expect(error.grantedScopes == ["openid", "offline_access", "api.read"])
        #expect(error.declinedScopes == ["api.write"])
        #expect(error.recovery == .retryWithScopes(["openid", "offline_access", "api.read"]))
        #expect(!error.isRetryable)
        #expect(error.correlationID != nil)
        let bridged = error as NSError
        #expect(bridged.code == -50003)
        #expect(bridged.userInfo[LatchError.UserInfoKey.grantedScopes] as? [String] == ["openid", "offline_access", "api.read"])
        #expect(bridged.userInfo[LatchError.UserInfoKey.declinedScopes] as? [String] == ["api.write"])
        #expect(LatchError.UserInfoKey.grantedScopes == "LatchGrantedScopesKey")
        #expect(LatchError.UserInfoKey.declinedScopes == "LatchDeclinedScopesKey")

        let account = try #require(try await client.currentAccount)
        #expect(account.sessionState == .signedIn)
        let cached = try await client.acquireTokenSilent(scopes: ["api.read"], account: account)
        #expect(cached.scopes == ["openid", "offline_access", "api.read"])
        #expect(script.requests(to: "/oauth2/v2.0/token").count == 1, "served from the cache")
    }

    @Test("silent refresh: the refreshed tokens are stored, serverDeclinedScopes, then a cache hit for the granted ones")
    func refresh() async throws {
        let script = ScriptedTransport()
        Script.passwordSignIn(script)
        script.respond(to: "/oauth2/v2.0/token", with: Script.tokens(scope: "openid offline_access api.read"))
        script.respond(
            to: "/oauth2/v2.0/token",
            with: Script.tokens(scope: "openid offline_access api.read", refreshToken: "rt-2", accessToken: "at-refreshed"))
        let client = try Script.client(script)
        guard
            case .completed(let signedIn) = try await client.signIn(
                username: Script.email, password: "pw", scopes: ["openid", "offline_access", "api.read"])
        else {
            Issue.record("not signed in")
            return
        }

        let error = try await #require(throws: LatchError.self) {
            try await client.acquireTokenSilent(scopes: ["api.read", "api.write"], account: signedIn.account)
        }
        #expect(error.code == .serverDeclinedScopes)
        #expect(error.grantedScopes == ["openid", "offline_access", "api.read"])
        #expect(error.declinedScopes == ["api.write"])
        let refresh = try #require(script.requests(to: "/oauth2/v2.0/token").last)
        #expect(refresh.form["grant_type"] == "refresh_token")
        #expect(refresh.form["scope"] == "api.read api.write")

        let cached = try await client.acquireTokenSilent(scopes: ["api.read"], account: signedIn.account)
        #expect(cached.accessToken == "at-refreshed", "the refreshed tokens were stored")
        #expect(script.requests(to: "/oauth2/v2.0/token").count == 2, "served from the cache")
        #expect(try await client.isSignedIn)
    }

    @Test("openid, profile and offline_access are never counted as declined")
    func openIDScopesAreNotDeclined() async throws {
        let script = ScriptedTransport()
        Script.passwordSignIn(script)
        script.respond(to: "/oauth2/v2.0/token", with: Script.tokens(scope: "api.read"))
        let client = try Script.client(script)
        let step = try await client.signIn(
            username: Script.email, password: "pw", scopes: ["openid", "profile", "offline_access", "api.read"])
        guard case .completed(let result) = step else {
            Issue.record("expected a finished sign-in, got \(step)")
            return
        }
        #expect(result.scopes == ["api.read"])
    }

    @Test("after a second factor too: the mfa_oob grant's response is checked the same way")
    func afterSecondFactor() async throws {
        let script = ScriptedTransport()
        Script.passwordSignIn(script)
        script.respond(to: "/oauth2/v2.0/token", with: Script.mfaRequired("ct-mfa"))
        script.respond(to: "/oauth2/v2.0/introspect", with: Script.introspect("ct-introspected"))
        script.respond(to: "/oauth2/v2.0/challenge", with: Script.codeSent("ct-code"))
        script.respond(to: "/oauth2/v2.0/token", with: Script.tokens(scope: "openid offline_access profile"))
        let client = try Script.client(script)
        guard
            case .awaitingMFA(let awaiting) = try await client.signIn(
                username: Script.email, password: "pw", scopes: ["openid", "api.write"])
        else {
            Issue.record("no second factor was asked for")
            return
        }
        let sent = try await awaiting.requestChallenge()
        let error = try await #require(throws: LatchError.self) { try await sent.submitChallenge("123456") }
        #expect(error.code == .serverDeclinedScopes)
        #expect(error.declinedScopes == ["api.write"])
        #expect(script.requests(to: "/oauth2/v2.0/token").last?.form["scope"] == "openid api.write profile offline_access")
        #expect(try await client.accounts().count == 1)
    }
}
