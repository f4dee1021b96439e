import Foundation
import Latch
import LatchSDKTesting
import Testing

// Imports `Latch` alone (no `@testable`): the second factor as an app sees it, against the wire of
// the protocol reference ("MFA"), answered by a script.

/// The second factor at sign-in: `mfa_required` from every sign-in path, introspection, the
/// challenge with the method id, the `mfa_oob` grant, and their errors.
@Suite("MFA at sign-in (scripted)")
struct MFASignInTests {
    typealias Script = MFAScript

    /// The methods of ``MFAScript/introspect(_:methods:)``, as the SDK names them.
    static let methods = [
        LatchAuthMethod(id: "method-email", challengeType: "oob", channel: .email, loginHint: "a***@e***.com"),
        LatchAuthMethod(id: "method-sms", challengeType: "oob", channel: .sms, loginHint: "+1******42"),
    ]

    /// The form of the `mfa_oob` grant for the code `code` on the continuation token `token`.
    static func mfaGrant(_ token: String, code: String = "123456", claims: String? = nil) -> [String: String] {
        var form = [
            "client_id": Script.clientID, "grant_type": "mfa_oob", "continuation_token": token, "oob": code,
            "scope": "openid offline_access profile", "client_info": "true",
        ]
        if let claims { form["claims"] = claims }
        return form
    }

    /// The form of the MFA challenge with the method `id` on the continuation token `token`.
    static func mfaChallenge(_ token: String, id: String = "method-email") -> [String: String] {
        ["client_id": Script.clientID, "continuation_token": token, "challenge_type": Script.challengeTypes, "id": id]
    }

    /// Scripts what follows the first factor: introspection, a code sent, the tokens.
    static func scriptSecondFactor(_ script: ScriptedTransport) {
        script.respond(to: "/oauth2/v2.0/introspect", with: Script.introspect("ct-introspected"))
        script.respond(to: "/oauth2/v2.0/challenge", with: Script.codeSent("ct-code"))
        script.respond(to: "/oauth2/v2.0/token", with: Script.tokens())
    }

    /// Checks an ``SignInStep/awaitingMFA(_:)`` step, requests a code and submits it; checks the
    /// introspection, challenge and `mfa_oob` forms, and that the account is stored.
    func completeSecondFactor(
        _ step: SignInStep, script: ScriptedTransport, client: LatchClient, mfaToken: String = "ct-mfa",
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        guard case .awaitingMFA(let awaiting) = step else {
            Issue.record("expected awaitingMFA, got \(step)", sourceLocation: sourceLocation)
            return
        }
        #expect(awaiting.authMethods == Self.methods, sourceLocation: sourceLocation)
        #expect(awaiting.delivery == nil, "no code was sent yet", sourceLocation: sourceLocation)
        #expect(awaiting.username == Script.email, sourceLocation: sourceLocation)

        let sent = try await awaiting.requestChallenge()
        let delivery = try #require(sent.delivery, sourceLocation: sourceLocation)
        #expect(delivery.sentTo == "a***@e***.com" && delivery.channel == .email, sourceLocation: sourceLocation)
        #expect(delivery.codeLength == 6, sourceLocation: sourceLocation)

        guard case .completed(let result) = try await sent.submitChallenge("123456") else {
            Issue.record("the second factor did not complete the sign-in", sourceLocation: sourceLocation)
            return
        }
        #expect(result.account.id == Script.subject, sourceLocation: sourceLocation)
        #expect(try await client.accounts().map(\.id) == [Script.subject], sourceLocation: sourceLocation)
        #expect(try await client.isSignedIn, sourceLocation: sourceLocation)

        #expect(
            script.requests(to: "/oauth2/v2.0/introspect").map(\.form) == [
                ["client_id": Script.clientID, "continuation_token": mfaToken]
            ], sourceLocation: sourceLocation)
        #expect(
            script.requests(to: "/oauth2/v2.0/challenge").last?.form == Self.mfaChallenge("ct-introspected"),
            sourceLocation: sourceLocation)
        #expect(
            script.requests(to: "/oauth2/v2.0/token").last?.form == Self.mfaGrant("ct-code"), sourceLocation: sourceLocation)
        #expect(Set(script.requests.compactMap(\.correlationID)).count == 1, "one flow, one correlation id")
    }

    @Test("password sign-in → mfa_required → introspect → challenge with the method id → mfa_oob")
    func afterPassword() async throws {
        let script = ScriptedTransport()
        Script.passwordSignIn(script)
        script.respond(to: "/oauth2/v2.0/token", with: Script.mfaRequired("ct-mfa"))
        Self.scriptSecondFactor(script)
        let client = try Script.client(script)

        let step = try await client.signIn(username: Script.email, password: "pw")
        try await completeSecondFactor(step, script: script, client: client)
        #expect(
            script.requests.map(\.path) == [
                "/default/oauth2/v2.0/initiate", "/default/oauth2/v2.0/challenge", "/default/oauth2/v2.0/token",
                "/default/oauth2/v2.0/introspect", "/default/oauth2/v2.0/challenge", "/default/oauth2/v2.0/token",
            ])
        #expect(
            script.requests(to: "/oauth2/v2.0/initiate").map(\.form) == [
                [
                    "client_id": Script.clientID, "username": Script.email, "challenge_type": Script.challengeTypes,
                    "capabilities": Script.capabilities,
                ]
            ])
        #expect(script.requests(to: "/oauth2/v2.0/token").first?.form == Script.passwordGrant)
    }

    @Test("e-mail code sign-in → mfa_required → second factor")
    func afterCode() async throws {
        let script = ScriptedTransport()
        script.respond(to: "/oauth2/v2.0/initiate", with: Script.continuation("ct-initiate"))
        script.respond(to: "/oauth2/v2.0/challenge", with: Script.codeSent("ct-signin-code", length: 8))
        script.respond(to: "/oauth2/v2.0/token", with: Script.mfaRequired("ct-mfa"))
        Self.scriptSecondFactor(script)
        let client = try Script.client(script)

        guard case .codeRequired(let state) = try await client.signIn(username: Script.email) else {
            Issue.record("no code was asked for")
            return
        }
        let step = try await state.submitCode("11111111")
        try await completeSecondFactor(step, script: script, client: client)
        #expect(
            script.requests(to: "/oauth2/v2.0/token").first?.form == [
                "client_id": Script.clientID, "grant_type": "oob", "continuation_token": "ct-signin-code", "oob": "11111111",
                "scope": "openid offline_access", "client_info": "1",
            ])
    }

    @Test("sign-in after sign-up → mfa_required → second factor")
    func afterSignUp() async throws {
        let script = ScriptedTransport()
        script.respond(to: "/signup/v1.0/start", with: Script.continuation("ct-signup"))
        script.respond(to: "/signup/v1.0/challenge", with: Script.codeSent("ct-signup-code", length: 8))
        script.respond(to: "/signup/v1.0/continue", with: Script.continuation("ct-signed-up"))
        script.respond(to: "/oauth2/v2.0/token", with: Script.mfaRequired("ct-mfa"))
        Self.scriptSecondFactor(script)
        let client = try Script.client(script)

        guard case .codeRequired(let code) = try await client.signUp(username: Script.email, password: "pw") else {
            Issue.record("no code was asked for")
            return
        }
        guard case .accountCreated(let created) = try await code.submitCode("22222222") else {
            Issue.record("the account was not created")
            return
        }
        try await completeSecondFactor(try await created.signIn(), script: script, client: client)
        #expect(
            script.requests(to: "/oauth2/v2.0/token").first?.form == [
                "client_id": Script.clientID, "grant_type": "continuation_token", "continuation_token": "ct-signed-up",
                "username": Script.email, "scope": "openid offline_access", "client_info": "1",
            ])
        #expect(script.requests(to: "/signup/v1.0/start").first?.form["capabilities"] == Script.capabilities)
    }

    @Test("sign-in after a password reset → mfa_required → second factor")
    func afterReset() async throws {
        let script = ScriptedTransport()
        script.respond(to: "/resetpassword/v1.0/start", with: Script.continuation("ct-reset"))
        script.respond(to: "/resetpassword/v1.0/challenge", with: Script.codeSent("ct-reset-code", length: 8))
        script.respond(to: "/resetpassword/v1.0/continue", with: Script.continuation("ct-reset-verified"))
        script.respond(to: "/resetpassword/v1.0/submit", with: Script.continuation("ct-submitted", members: ["poll_interval": 1]))
        script.respond(
            to: "/resetpassword/v1.0/poll_completion",
            with: Script.continuation("ct-reset-done", members: ["status": "succeeded"]))
        script.respond(to: "/oauth2/v2.0/token", with: Script.mfaRequired("ct-mfa"))
        Self.scriptSecondFactor(script)
        let client = try Script.client(script)

        guard case .codeRequired(let code) = try await client.resetPassword(username: Script.email),
            case .passwordRequired(let password) = try await code.submitCode("33333333"),
            case .passwordReset(let reset) = try await password.submitPassword("New-Password-1!")
        else {
            Issue.record("the reset did not finish")
            return
        }
        try await completeSecondFactor(try await reset.signIn(), script: script, client: client)
        #expect(script.requests(to: "/oauth2/v2.0/token").first?.form["continuation_token"] == "ct-reset-done")
        #expect(script.requests(to: "/resetpassword/v1.0/start").first?.form["capabilities"] == Script.capabilities)
    }

    @Test("a wrong second-factor code → invalidChallenge, the same state signs in with the right one")
    func wrongThenRightCode() async throws {
        let script = ScriptedTransport()
        Script.passwordSignIn(script)
        script.respond(to: "/oauth2/v2.0/token", with: Script.mfaRequired("ct-mfa"))
        script.respond(
            to: "/oauth2/v2.0/token", with: Script.error("invalid_grant", suberror: "invalid_oob_value", codes: [50181]))
        Self.scriptSecondFactor(script)
        let client = try Script.client(script)
        guard case .awaitingMFA(let awaiting) = try await client.signIn(username: Script.email, password: "pw") else {
            Issue.record("no second factor was asked for")
            return
        }
        let sent = try await awaiting.requestChallenge()

        let error = try await #require(throws: LatchError.self) { try await sent.submitChallenge("000000") }
        #expect(error.code == .invalidChallenge)
        #expect(error.name == "ERROR_INVALID_CHALLENGE")
        #expect(error.recovery == .correctInput)
        #expect(error.correlationID == sent.correlationID.uuidString.lowercased())
        #expect(try await client.accounts().isEmpty)

        guard case .completed = try await sent.submitChallenge("123456") else {
            Issue.record("the retry did not sign in")
            return
        }
        let grants = script.requests(to: "/oauth2/v2.0/token").dropFirst().map(\.form)
        #expect(grants == [Self.mfaGrant("ct-code", code: "000000"), Self.mfaGrant("ct-code")])
    }

    @Test("an expired second-factor code → invalidChallenge whose recovery is to send a new code")
    func expiredCode() async throws {
        let script = ScriptedTransport()
        Script.passwordSignIn(script)
        script.respond(to: "/oauth2/v2.0/token", with: Script.mfaRequired("ct-mfa"))
        script.respond(
            to: "/oauth2/v2.0/token", with: Script.error("invalid_grant", suberror: "invalid_oob_value", codes: [552003]))
        Self.scriptSecondFactor(script)
        let client = try Script.client(script)
        guard case .awaitingMFA(let awaiting) = try await client.signIn(username: Script.email, password: "pw") else {
            Issue.record("no second factor was asked for")
            return
        }
        let sent = try await awaiting.requestChallenge()
        let error = try await #require(throws: LatchError.self) { try await sent.submitChallenge("123456") }
        #expect(error.code == .invalidChallenge)
        #expect(error.recovery == .resendCode)
    }

    @Test("resending and switching method repeat the challenge with the newest continuation token")
    func resendAndSwitch() async throws {
        let script = ScriptedTransport()
        Script.passwordSignIn(script)
        script.respond(to: "/oauth2/v2.0/token", with: Script.mfaRequired("ct-mfa"))
        script.respond(to: "/oauth2/v2.0/introspect", with: Script.introspect("ct-introspected"))
        script.respond(to: "/oauth2/v2.0/challenge", with: Script.codeSent("ct-code-1"))
        script.respond(to: "/oauth2/v2.0/challenge", with: Script.codeSent("ct-code-2"))
        script.respond(to: "/oauth2/v2.0/challenge", with: Script.codeSent("ct-code-3", to: "+1******42", channel: "sms"))
        script.respond(to: "/oauth2/v2.0/token", with: Script.tokens())
        let client = try Script.client(script)
        guard case .awaitingMFA(let awaiting) = try await client.signIn(username: Script.email, password: "pw") else {
            Issue.record("no second factor was asked for")
            return
        }

        let first = try await awaiting.requestChallenge()
        let resent = try await first.requestChallenge()
        let sms = try #require(awaiting.authMethods.first { $0.channel.isSMSType })
        let switched = try await resent.requestChallenge(method: sms)
        #expect(switched.delivery?.channel == .sms)
        #expect(switched.delivery?.sentTo == "+1******42")
        #expect(switched.authMethods == Self.methods)
        guard case .completed = try await switched.submitChallenge("123456") else {
            Issue.record("the switched method did not sign in")
            return
        }
        #expect(
            script.requests(to: "/oauth2/v2.0/challenge").dropFirst().map(\.form) == [
                Self.mfaChallenge("ct-introspected"), Self.mfaChallenge("ct-code-1"),
                Self.mfaChallenge("ct-code-2", id: "method-sms"),
            ])
        #expect(script.requests(to: "/oauth2/v2.0/token").last?.form == Self.mfaGrant("ct-code-3"))
    }

    @Test("a blocked method → authMethodBlocked; the same state requests through another method")
    func blockedMethod() async throws {
        let script = ScriptedTransport()
        Script.passwordSignIn(script)
        script.respond(to: "/oauth2/v2.0/token", with: Script.mfaRequired("ct-mfa"))
        script.respond(to: "/oauth2/v2.0/introspect", with: Script.introspect("ct-introspected"))
        script.respond(to: "/oauth2/v2.0/challenge", with: Script.error("access_denied", suberror: "provider_blocked_by_rep"))
        script.respond(to: "/oauth2/v2.0/challenge", with: Script.codeSent("ct-code", to: "+1******42", channel: "sms"))
        let client = try Script.client(script)
        guard case .awaitingMFA(let awaiting) = try await client.signIn(username: Script.email, password: "pw") else {
            Issue.record("no second factor was asked for")
            return
        }
        let error = try await #require(throws: LatchError.self) { try await awaiting.requestChallenge() }
        #expect(error.code == .authMethodBlocked)
        #expect(error.code.rawValue == 19013)
        #expect(error.name == "ERROR_AUTH_METHOD_BLOCKED")
        #expect(error.recovery == .chooseAnotherMethod)

        let sent = try await awaiting.requestChallenge(method: Self.methods[1])
        #expect(sent.delivery?.channel == .sms)
        #expect(
            script.requests(to: "/oauth2/v2.0/challenge").last?.form == Self.mfaChallenge("ct-introspected", id: "method-sms"))
    }

    /// Where a `redirect` answer is given in the second factor.
    enum RedirectPoint: String, CaseIterable, Sendable {
        case introspect, challenge, token
    }

    @Test("a redirect answer → browserRequired", arguments: RedirectPoint.allCases)
    func redirect(at point: RedirectPoint) async throws {
        let script = ScriptedTransport()
        Script.passwordSignIn(script)
        script.respond(to: "/oauth2/v2.0/token", with: Script.mfaRequired("ct-mfa"))
        script.respond(
            to: "/oauth2/v2.0/introspect", with: point == .introspect ? Script.redirect : Script.introspect("ct-introspected"))
        script.respond(to: "/oauth2/v2.0/challenge", with: point == .challenge ? Script.redirect : Script.codeSent("ct-code"))
        script.respond(to: "/oauth2/v2.0/token", with: Script.redirect)
        let client = try Script.client(script)

        let error = try await #require(throws: LatchError.self) {
            guard case .awaitingMFA(let awaiting) = try await client.signIn(username: Script.email, password: "pw") else {
                return
            }
            _ = try await awaiting.requestChallenge().submitChallenge("123456")
        }
        #expect(error.code == .browserRequired)
        #expect(error.recovery == .useBrowser)
        #expect(error.failureReason == "scripted")
        #expect(try await client.accounts().isEmpty)
    }

    @Test("a password answer to the second-factor challenge → unexpectedResponse")
    func passwordAnswer() async throws {
        let script = ScriptedTransport()
        Script.passwordSignIn(script)
        script.respond(to: "/oauth2/v2.0/token", with: Script.mfaRequired("ct-mfa"))
        script.respond(to: "/oauth2/v2.0/introspect", with: Script.introspect("ct-introspected"))
        script.respond(to: "/oauth2/v2.0/challenge", with: .json(#"{"continuation_token":"ct-x","challenge_type":"password"}"#))
        let client = try Script.client(script)
        guard case .awaitingMFA(let awaiting) = try await client.signIn(username: Script.email, password: "pw") else {
            Issue.record("no second factor was asked for")
            return
        }
        let error = try await #require(throws: LatchError.self) { try await awaiting.requestChallenge() }
        #expect(error.code == .unexpectedResponse)
    }

    @Test(
        "the second factor answered with mfa_required or registration_required again → unexpectedResponse",
        arguments: ["mfa_required", "registration_required"])
    func secondStepAgain(suberror: String) async throws {
        let script = ScriptedTransport()
        Script.passwordSignIn(script)
        script.respond(to: "/oauth2/v2.0/token", with: Script.mfaRequired("ct-mfa"))
        script.respond(
            to: "/oauth2/v2.0/token", with: Script.error("invalid_grant", suberror: suberror, continuationToken: "ct-z"))
        Self.scriptSecondFactor(script)
        let client = try Script.client(script)
        guard case .awaitingMFA(let awaiting) = try await client.signIn(username: Script.email, password: "pw") else {
            Issue.record("no second factor was asked for")
            return
        }
        let error = try await #require(throws: LatchError.self) {
            try await awaiting.requestChallenge().submitChallenge("123456")
        }
        #expect(error.code == .unexpectedResponse)
        #expect(error.suberror == suberror)
        #expect(script.requests(to: "/oauth2/v2.0/introspect").count == 1, "no second introspection")
    }

    @Test("mfa_required without a continuation token stays a general error, with nothing introspected")
    func mfaRequiredWithoutToken() async throws {
        let script = ScriptedTransport()
        Script.passwordSignIn(script)
        script.respond(to: "/oauth2/v2.0/token", with: Script.error("invalid_grant", suberror: "mfa_required"))
        let client = try Script.client(script)
        let error = try await #require(throws: LatchError.self) {
            try await client.signIn(username: Script.email, password: "pw")
        }
        #expect(error.code == .internal)
        #expect(script.requests(to: "/oauth2/v2.0/introspect").isEmpty)
    }

    @Test(
        "an introspection with no method, or a method of an unknown challenge type → unexpectedResponse",
        arguments: [[], [MFAScript.Method(id: "m", type: "totp", channel: "email")], nil])
    func badIntrospection(methods: [MFAScript.Method]?) async throws {
        let script = ScriptedTransport()
        Script.passwordSignIn(script)
        script.respond(to: "/oauth2/v2.0/token", with: Script.mfaRequired("ct-mfa"))
        script.respond(
            to: "/oauth2/v2.0/introspect",
            with: methods.map { Script.introspect("ct-introspected", methods: $0) }
                ?? .json(#"{"continuation_token":"ct-i","methods":[{"id":"m","challenge_type":"oob"}]}"#))
        let client = try Script.client(script)
        let error = try await #require(throws: LatchError.self) {
            try await client.signIn(username: Script.email, password: "pw")
        }
        #expect(error.code == .unexpectedResponse)
    }

    @Test("an empty second-factor code is refused before any request")
    func emptyCode() async throws {
        let script = ScriptedTransport()
        Script.passwordSignIn(script)
        script.respond(to: "/oauth2/v2.0/token", with: Script.mfaRequired("ct-mfa"))
        Self.scriptSecondFactor(script)
        let client = try Script.client(script)
        guard case .awaitingMFA(let awaiting) = try await client.signIn(username: Script.email, password: "pw") else {
            Issue.record("no second factor was asked for")
            return
        }
        let before = script.requests.count
        let error = try await #require(throws: LatchError.self) { try await awaiting.submitChallenge("  ") }
        #expect(error.code == .missingInput)
        #expect(script.requests.count == before)
    }
}
