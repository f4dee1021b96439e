import Foundation
import Latch
import LatchSDKTesting
import Testing

// Imports `Latch` alone: registering a strong authentication method as an app sees it, against
// the wire of the protocol reference ("Strong-auth registration"), answered by a script.

/// `registration_required` at sign-in: `register/v1.0/introspect`, `/challenge` (e-mail, SMS,
/// preverified), `/continue`, the sign-in that ends it, and their errors.
@Suite("Strong-auth method registration (scripted)")
struct StrongAuthRegistrationTests {
    typealias Script = MFAScript

    static let emailMethod = LatchAuthMethod(id: "method-email", channel: .email, loginHint: "a***@e***.com")
    static let smsMethod = LatchAuthMethod(id: "method-sms", channel: .sms, loginHint: "+1******42")

    /// The form of `register/v1.0/challenge`.
    static func challengeForm(_ token: String, target: String, channel: String) -> [String: String] {
        [
            "client_id": Script.clientID, "continuation_token": token, "challenge_type": "oob",
            "challenge_target": target, "challenge_channel": channel,
        ]
    }

    /// The form of the sign-in that ends a registration.
    static func signInForm(_ token: String) -> [String: String] {
        [
            "client_id": Script.clientID, "grant_type": "continuation_token", "continuation_token": token,
            "scope": "openid profile offline_access", "client_info": "true", "challenge_type": Script.challengeTypes,
        ]
    }

    /// A password sign-in answered with `registration_required`, its methods introspected; the
    /// token endpoint answers `signIn` to the sign-in that ends the registration (a script's last
    /// answer to a path stays queued, so it is scripted up front).
    func registrationStep(
        _ script: ScriptedTransport, signIn: ScriptedTransport.Response = MFAScript.tokens(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> (methods: [LatchAuthMethod], state: RegisterStrongAuthState, client: LatchClient)? {
        Script.passwordSignIn(script)
        script.respond(to: "/oauth2/v2.0/token", with: Script.registrationRequired("ct-reg"))
        script.respond(to: "/oauth2/v2.0/token", with: signIn)
        script.respond(to: "/register/v1.0/introspect", with: Script.introspect("ct-reg-introspected"))
        let client = try Script.client(script)
        let step = try await client.signIn(
            username: Script.email, password: "pw", scopes: ["openid", "offline_access", "api.read"])
        guard case .strongAuthMethodRegistrationRequired(let methods, let state) = step else {
            Issue.record("expected a registration step, got \(step)", sourceLocation: sourceLocation)
            return nil
        }
        #expect(
            script.requests(to: "/register/v1.0/introspect").map(\.form) == [
                ["client_id": Script.clientID, "continuation_token": "ct-reg"]
            ], sourceLocation: sourceLocation)
        #expect(script.requests(to: "/oauth2/v2.0/introspect").isEmpty, sourceLocation: sourceLocation)
        return (methods, state, client)
    }

    @Test(
        "register an e-mail or a phone: challenge (no id, no redirect) → code → continue → sign-in",
        arguments: [("email", "ada.work@example.com"), ("sms", "+15551234567")])
    func register(channel: String, contact: String) async throws {
        let script = ScriptedTransport()
        guard case let (methods, state, client)? = try await registrationStep(script) else { return }
        #expect(methods == [Self.emailMethod, Self.smsMethod])
        script.respond(
            to: "/register/v1.0/challenge", with: Script.registrationCodeSent("ct-reg-code", to: contact, channel: channel))
        script.respond(to: "/register/v1.0/continue", with: Script.continuation("ct-reg-done"))

        let method = try #require(methods.first { $0.channel.value == channel })
        let step = try await state.challengeAuthMethod(
            parameters: LatchChallengeAuthMethodParameters(authMethod: method, verificationContact: contact))
        guard case .verificationRequired(let verification) = step else {
            Issue.record("expected a code to be sent, got \(step)")
            return
        }
        #expect(verification.delivery.sentTo == contact)
        #expect(verification.delivery.channel == LatchChannelType(value: channel))
        #expect(verification.delivery.codeLength == 6)
        guard case .completed(let result) = try await verification.submitChallenge("654321") else {
            Issue.record("the registration did not sign in")
            return
        }
        #expect(result.account.id == Script.subject)
        #expect(try await client.accounts().map(\.id) == [Script.subject])

        #expect(
            script.requests(to: "/register/v1.0/challenge").map(\.form) == [
                Self.challengeForm("ct-reg-introspected", target: contact, channel: channel)
            ])
        #expect(
            script.requests(to: "/register/v1.0/continue").map(\.form) == [
                ["client_id": Script.clientID, "continuation_token": "ct-reg-code", "grant_type": "oob", "oob": "654321"]
            ])
        #expect(script.requests(to: "/oauth2/v2.0/token").last?.form == Self.signInForm("ct-reg-done"))
        #expect(Set(script.requests.compactMap(\.correlationID)).count == 1)
    }

    @Test("preverified: continue with grant_type=continuation_token and no oob, then the sign-in")
    func preverified() async throws {
        let script = ScriptedTransport()
        guard case let (methods, state, _)? = try await registrationStep(script) else { return }
        script.respond(to: "/register/v1.0/challenge", json: #"{"continuation_token":"ct-pre","challenge_type":"preverified"}"#)
        script.respond(to: "/register/v1.0/continue", with: Script.continuation("ct-reg-done"))

        let step = try await state.challengeAuthMethod(
            parameters: LatchChallengeAuthMethodParameters(authMethod: methods[0], verificationContact: Script.email))
        guard case .completed(let result) = step else {
            Issue.record("a preverified contact should sign in at once, got \(step)")
            return
        }
        #expect(result.account.id == Script.subject)
        #expect(
            script.requests(to: "/register/v1.0/continue").map(\.form) == [
                ["client_id": Script.clientID, "continuation_token": "ct-pre", "grant_type": "continuation_token"]
            ])
        let signIn = try #require(script.requests(to: "/oauth2/v2.0/token").last?.form)
        #expect(signIn == Self.signInForm("ct-reg-done"))
        #expect(signIn["username"] == nil)
        #expect(signIn["scope"] == "openid profile offline_access", "the app's scopes are dropped on this path")
    }

    @Test("a wrong registration code → invalidChallenge; the same state registers with the right one")
    func wrongThenRightCode() async throws {
        let script = ScriptedTransport()
        guard case let (methods, state, _)? = try await registrationStep(script) else { return }
        script.respond(
            to: "/register/v1.0/challenge", with: Script.registrationCodeSent("ct-reg-code", to: Script.email, channel: "email"))
        script.respond(to: "/register/v1.0/continue", with: Script.error("invalid_grant", suberror: "invalid_oob_value"))
        script.respond(to: "/register/v1.0/continue", with: Script.continuation("ct-reg-done"))

        guard
            case .verificationRequired(let verification) = try await state.challengeAuthMethod(
                parameters: LatchChallengeAuthMethodParameters(authMethod: methods[0], verificationContact: Script.email))
        else {
            Issue.record("no code was sent")
            return
        }
        let error = try await #require(throws: LatchError.self) { try await verification.submitChallenge("000000") }
        #expect(error.code == .invalidChallenge)
        #expect(error.recovery == .correctInput)
        guard case .completed = try await verification.submitChallenge("654321") else {
            Issue.record("the retry did not sign in")
            return
        }
        #expect(script.requests(to: "/register/v1.0/continue").map { $0.form["oob"] } == ["000000", "654321"])
        #expect(script.requests(to: "/register/v1.0/continue").allSatisfy { $0.form["continuation_token"] == "ct-reg-code" })
    }

    @Test("resending or changing the contact repeats the challenge with the newest continuation token")
    func resendAndChangeContact() async throws {
        let script = ScriptedTransport()
        guard case let (methods, state, _)? = try await registrationStep(script) else { return }
        script.respond(
            to: "/register/v1.0/challenge", with: Script.registrationCodeSent("ct-reg-code-1", to: Script.email, channel: "email")
        )
        script.respond(
            to: "/register/v1.0/challenge", with: Script.registrationCodeSent("ct-reg-code-2", to: "+15551234567", channel: "sms")
        )
        script.respond(to: "/register/v1.0/continue", with: Script.continuation("ct-reg-done"))

        guard
            case .verificationRequired(let first) = try await state.challengeAuthMethod(
                parameters: LatchChallengeAuthMethodParameters(authMethod: methods[0], verificationContact: Script.email)),
            case .verificationRequired(let second) = try await first.challengeAuthMethod(
                parameters: LatchChallengeAuthMethodParameters(authMethod: methods[1], verificationContact: "+15551234567"))
        else {
            Issue.record("no code was sent")
            return
        }
        #expect(second.delivery.channel == .sms)
        _ = try await second.submitChallenge("654321")
        #expect(
            script.requests(to: "/register/v1.0/challenge").map(\.form) == [
                Self.challengeForm("ct-reg-introspected", target: Script.email, channel: "email"),
                Self.challengeForm("ct-reg-code-1", target: "+15551234567", channel: "sms"),
            ])
        #expect(script.requests(to: "/register/v1.0/continue").first?.form["continuation_token"] == "ct-reg-code-2")
    }

    @Test("an invalid contact (901001 anywhere in error_codes) → invalidInput; the state stays usable")
    func invalidInput() async throws {
        let script = ScriptedTransport()
        guard case let (methods, state, _)? = try await registrationStep(script) else { return }
        script.respond(to: "/register/v1.0/challenge", with: Script.error("invalid_request", codes: [90100, 901001]))
        script.respond(
            to: "/register/v1.0/challenge", with: Script.registrationCodeSent("ct-reg-code", to: Script.email, channel: "email"))
        let parameters = LatchChallengeAuthMethodParameters(authMethod: methods[0], verificationContact: "not-an-address")
        let error = try await #require(throws: LatchError.self) { try await state.challengeAuthMethod(parameters: parameters) }
        #expect(error.code == .invalidInput)
        #expect(error.code.rawValue == 19015)
        #expect(error.name == "ERROR_INVALID_INPUT")
        #expect(error.recovery == .correctInput)
        #expect(error.serverErrorCodes == [90100, 901001])

        let corrected = LatchChallengeAuthMethodParameters(authMethod: methods[0], verificationContact: Script.email)
        guard case .verificationRequired = try await state.challengeAuthMethod(parameters: corrected) else {
            Issue.record("the corrected contact got no code")
            return
        }
    }

    @Test("a blocked contact → verificationContactBlocked")
    func blockedContact() async throws {
        let script = ScriptedTransport()
        guard case let (methods, state, _)? = try await registrationStep(script) else { return }
        script.respond(to: "/register/v1.0/challenge", with: Script.error("access_denied", suberror: "provider_blocked_by_rep"))
        let error = try await #require(throws: LatchError.self) {
            try await state.challengeAuthMethod(
                parameters: LatchChallengeAuthMethodParameters(authMethod: methods[1], verificationContact: "+15550000000"))
        }
        #expect(error.code == .verificationContactBlocked)
        #expect(error.code.rawValue == 19016)
        #expect(error.name == "ERROR_VERIFICATION_CONTACT_BLOCKED")
        #expect(error.recovery == .chooseAnotherMethod)
    }

    @Test("an empty contact is refused before any request (missingInput)", arguments: ["", "   "])
    func emptyContact(contact: String) async throws {
        let script = ScriptedTransport()
        guard case let (methods, state, _)? = try await registrationStep(script) else { return }
        let error = try await #require(throws: LatchError.self) {
            try await state.challengeAuthMethod(
                parameters: LatchChallengeAuthMethodParameters(authMethod: methods[0], verificationContact: contact))
        }
        #expect(error.code == .missingInput)
        #expect(script.requests(to: "/register/v1.0/challenge").isEmpty)
    }

    @Test("an unknown challenge type in the registration challenge answer → unexpectedResponse")
    func unknownChallengeType() async throws {
        let script = ScriptedTransport()
        guard case let (methods, state, _)? = try await registrationStep(script) else { return }
        script.respond(to: "/register/v1.0/challenge", json: #"{"continuation_token":"ct-x","challenge_type":"password"}"#)
        let error = try await #require(throws: LatchError.self) {
            try await state.challengeAuthMethod(
                parameters: LatchChallengeAuthMethodParameters(authMethod: methods[0], verificationContact: Script.email))
        }
        #expect(error.code == .unexpectedResponse)
        #expect(script.requests(to: "/register/v1.0/continue").isEmpty)
    }

    @Test("the sign-in after the registration answered mfa_required again → unexpectedResponse")
    func secondStepAgain() async throws {
        let script = ScriptedTransport()
        guard case let (methods, state, client)? = try await registrationStep(script, signIn: Script.mfaRequired("ct-mfa"))
        else { return }
        script.respond(to: "/register/v1.0/challenge", json: #"{"continuation_token":"ct-pre","challenge_type":"preverified"}"#)
        script.respond(to: "/register/v1.0/continue", with: Script.continuation("ct-reg-done"))
        let error = try await #require(throws: LatchError.self) {
            try await state.challengeAuthMethod(
                parameters: LatchChallengeAuthMethodParameters(authMethod: methods[0], verificationContact: Script.email))
        }
        #expect(error.code == .unexpectedResponse)
        #expect(try await client.accounts().isEmpty)
    }

    /// Where a `redirect` answer is given in the registration.
    enum RedirectPoint: String, CaseIterable, Sendable {
        case introspect, challenge, `continue`, token
    }

    @Test("a redirect answer → browserRequired", arguments: RedirectPoint.allCases)
    func redirect(at point: RedirectPoint) async throws {
        let script = ScriptedTransport()
        Script.passwordSignIn(script)
        script.respond(to: "/oauth2/v2.0/token", with: Script.registrationRequired("ct-reg"))
        script.respond(
            to: "/register/v1.0/introspect",
            with: point == .introspect ? Script.redirect : Script.introspect("ct-reg-introspected"))
        script.respond(
            to: "/register/v1.0/challenge",
            with: point == .challenge
                ? Script.redirect : Script.registrationCodeSent("ct-reg-code", to: Script.email, channel: "email"))
        script.respond(
            to: "/register/v1.0/continue", with: point == .continue ? Script.redirect : Script.continuation("ct-reg-done"))
        script.respond(to: "/oauth2/v2.0/token", with: Script.redirect)
        let client = try Script.client(script)

        let error = try await #require(throws: LatchError.self) {
            guard
                case .strongAuthMethodRegistrationRequired(let methods, let state) = try await client.signIn(
                    username: Script.email, password: "pw"),
                case .verificationRequired(let verification) = try await state.challengeAuthMethod(
                    parameters: LatchChallengeAuthMethodParameters(authMethod: methods[0], verificationContact: Script.email))
            else { return }
            _ = try await verification.submitChallenge("654321")
        }
        #expect(error.code == .browserRequired)
        #expect(error.recovery == .useBrowser)
    }
}
