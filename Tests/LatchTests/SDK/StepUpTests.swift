import Foundation
import Latch
import LatchSDKTesting
import Testing

/// Claims challenges and step-up: `interaction_required` with `claims` on a refresh keeps the
/// session, `stepUp(account:claims:scopes:)` turns the refresh token into a second factor whose
/// tokens replace the same account's, and `signIn(…, claims:)` sends the claims on `/token`.
@Suite("Claims challenges and step-up (scripted)")
struct StepUpTests {
    typealias Script = MFAScript

    static let claims = #"{"access_token":{"acrs":{"essential":true,"value":"c1"}}}"#

    /// A client of `script` signed in with a password (refresh token `rt-1`), whose later token
    /// requests get `then` (a script's last answer to a path stays queued, so they are scripted up front).
    func signedIn(
        _ script: ScriptedTransport, then: [ScriptedTransport.Response] = [],
        challenges: [ScriptedTransport.Response] = []
    ) async throws -> (LatchClient, LatchTokenResult)? {
        Script.passwordSignIn(script)
        for response in challenges { script.respond(to: "/oauth2/v2.0/challenge", with: response) }
        script.respond(to: "/oauth2/v2.0/token", with: Script.tokens())
        for response in then { script.respond(to: "/oauth2/v2.0/token", with: response) }
        let client = try Script.client(script)
        guard case .completed(let result) = try await client.signIn(username: Script.email, password: "pw") else {
            Issue.record("not signed in")
            return nil
        }
        return (client, result)
    }

    @Test("a refresh answered interaction_required with claims → interactionRequired with the claims; still signed in")
    func claimsChallengeOnRefresh() async throws {
        let script = ScriptedTransport()
        let challenge = Script.error("interaction_required", codes: [50076], members: ["claims": Self.claims])
        guard case let (client, result)? = try await signedIn(script, then: [challenge]) else { return }

        let error = try await #require(throws: LatchError.self) {
            try await client.acquireTokenSilent(account: result.account, forceRefresh: true)
        }
        #expect(error.code == .interactionRequired)
        #expect(error.claimsChallenge == Self.claims)
        #expect(error.recovery == .signInAgain(claimsChallenge: Self.claims))
        #expect((error as NSError).userInfo[LatchError.UserInfoKey.claimsChallenge] as? String == Self.claims)

        let account = try #require(try await client.currentAccount)
        #expect(account.sessionState == .signedIn, "a claims challenge does not end the session")
        #expect(try await client.isSignedIn)
        let cached = try await client.acquireTokenSilent(account: account)
        #expect(cached.accessToken == result.accessToken, "the access token is kept")
    }

    @Test("stepUp: refresh grant with claims and mfa_required → awaitingMFA → tokens replaced in the same account")
    func stepUp() async throws {
        let script = ScriptedTransport()
        let later = [
            Script.mfaRequired("ct-mfa"), Script.tokens(refreshToken: "rt-2", accessToken: "at-stepped-up"),
            Script.tokens(refreshToken: "rt-3", accessToken: "at-refreshed"),
        ]
        guard case let (client, result)? = try await signedIn(script, then: later, challenges: [Script.codeSent("ct-code")])
        else { return }
        script.respond(to: "/oauth2/v2.0/introspect", with: Script.introspect("ct-introspected"))

        let step = try await client.stepUp(account: result.account, claims: Self.claims, scopes: ["openid", "offline_access"])
        guard case .awaitingMFA(let awaiting) = step else {
            Issue.record("expected awaitingMFA, got \(step)")
            return
        }
        let tokenRequests = script.requests(to: "/oauth2/v2.0/token")
        #expect(
            tokenRequests[1].form == [
                "client_id": Script.clientID, "grant_type": "refresh_token", "refresh_token": "rt-1", "claims": Self.claims,
                "capabilities": "mfa_required", "scope": "openid offline_access",
            ])
        #expect(awaiting.username == Script.email)

        guard case .completed(let stepped) = try await awaiting.requestChallenge().submitChallenge("123456") else {
            Issue.record("the step-up did not complete")
            return
        }
        #expect(stepped.account.id == result.account.id)
        #expect(stepped.account == result.account)
        #expect(stepped.accessToken == "at-stepped-up")
        #expect(script.requests(to: "/oauth2/v2.0/token").last?.form == MFASignInTests.mfaGrant("ct-code", claims: Self.claims))

        let accounts = try await client.accounts()
        #expect(accounts.map(\.id) == [result.account.id], "the same account, not a second one")
        #expect(try await client.acquireTokenSilent(account: result.account).accessToken == "at-stepped-up")
        _ = try await client.acquireTokenSilent(account: result.account, forceRefresh: true)
        #expect(script.requests(to: "/oauth2/v2.0/token").last?.form["refresh_token"] == "rt-2", "the new refresh token is used")
    }

    @Test("stepUp refuses empty claims and an account without a refresh token")
    func stepUpRefusals() async throws {
        let script = ScriptedTransport()
        guard case let (client, result)? = try await signedIn(script) else { return }
        let sent = script.requests.count
        let empty = try await #require(throws: LatchError.self) {
            try await client.stepUp(account: result.account, claims: " ", scopes: [])
        }
        #expect(empty.code == .missingInput)
        try await client.signOut(account: result.account)
        let signedOut = try await #require(throws: LatchError.self) {
            try await client.stepUp(account: result.account, claims: Self.claims, scopes: [])
        }
        #expect(signedOut.code == .interactionRequired)
        #expect(script.requests.count == sent)
    }

    @Test("signIn(…, claims:) sends the claims on each /token call of the sign-in, the second factor's included")
    func signInWithClaims() async throws {
        let script = ScriptedTransport()
        Script.passwordSignIn(script)
        script.respond(to: "/oauth2/v2.0/token", with: Script.mfaRequired("ct-mfa"))
        script.respond(to: "/oauth2/v2.0/introspect", with: Script.introspect("ct-introspected"))
        script.respond(to: "/oauth2/v2.0/challenge", with: Script.codeSent("ct-code"))
        script.respond(to: "/oauth2/v2.0/token", with: Script.tokens())
        let client = try Script.client(script)
        guard
            case .awaitingMFA(let awaiting) = try await client.signIn(
                username: Script.email, password: "pw", claims: Self.claims)
        else {
            Issue.record("no second factor was asked for")
            return
        }
        _ = try await awaiting.requestChallenge().submitChallenge("123456")
        var passwordGrant = Script.passwordGrant
        passwordGrant["claims"] = Self.claims
        #expect(
            script.requests(to: "/oauth2/v2.0/token").map(\.form) == [
                passwordGrant, MFASignInTests.mfaGrant("ct-code", claims: Self.claims),
            ])
        #expect(script.requests(to: "/oauth2/v2.0/initiate").first?.form["claims"] == nil, "only /token carries claims")
        #expect(script.requests(to: "/oauth2/v2.0/challenge").allSatisfy { $0.form["claims"] == nil })
    }
}
