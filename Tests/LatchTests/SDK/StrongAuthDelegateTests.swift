import Foundation
import Latch
import LatchSDKTesting
import Testing

/// The delegate adapters of the second steps, in the shape of the strong-auth registration seed
/// (an MSAL tutorial's `ViewController`), against a script: `onSignInStrongAuthMethodRegistration`
/// → `challengeAuthMethod(parameters:delegate:)` → `onRegisterStrongAuthVerificationRequired` →
/// `submitChallenge(challenge:delegate:)` → `onSignInCompleted`; and the MFA pair.
@Suite("Second-step delegate adapters (scripted)", .timeLimit(.minutes(1)))
@MainActor
struct StrongAuthDelegateTests {
    typealias Script = MFAScript

    /// The seed's view controller, nearly line for line; it drives the whole flow itself and
    /// reports where it ended.
    final class ViewController: SignInStartDelegate, RegisterStrongAuthChallengeDelegate,
        RegisterStrongAuthSubmitChallengeDelegate
    {
        var verificationContact = ""
        var authMethod: LatchAuthMethod?
        var code = "000000"
        var resultText = ""
        /// The state the latest challenge error left to try again with.
        private(set) var retryState: RegisterStrongAuthState?
        private(set) var callbacks: [String] = []
        private(set) var offMainQueue = 0
        private var finished: CheckedContinuation<LatchTokenResult?, Never>?

        /// Starts the sign-in and waits until the flow ends (signed in, or an error with nothing to retry).
        func signIn(_ client: LatchClient, username: String, password: String) async -> LatchTokenResult? {
            await withCheckedContinuation { continuation in
                finished = continuation
                client.signIn(username: username, password: password, delegate: self)
            }
        }

        private func record(_ callback: String) {
            MainActor.assertIsolated()
            if !MainQueue.isCurrent { offMainQueue += 1 }
            callbacks.append(callback)
        }

        private func finish(_ result: LatchTokenResult?) {
            finished?.resume(returning: result)
            finished = nil
        }

        func onSignInStartError(error: LatchError) {
            record("onSignInStartError")
            resultText = "Error signing in: \(error.errorDescription ?? "no description")"
            finish(nil)
        }

        func onSignInStrongAuthMethodRegistration(authMethods: [LatchAuthMethod], newState: RegisterStrongAuthState) {
            record("onSignInStrongAuthMethodRegistration")
            // You can select the first authMethod which has a challengeChannel of type email
            // Or use "authMethods" to let the user pick the authentication method to use.
            authMethod = authMethods.first { $0.channelTargetType.isEmailType }
            if verificationContact.isEmpty {
                verificationContact = "user@contoso.com"  // the address given at sign-up, or another one
            }
            guard let authMethod else { return finish(nil) }
            let parameter = LatchChallengeAuthMethodParameters(authMethod: authMethod, verificationContact: verificationContact)
            newState.challengeAuthMethod(parameters: parameter, delegate: self)
        }

        func onRegisterStrongAuthChallengeError(error: LatchError, newState: RegisterStrongAuthState?) {
            record("onRegisterStrongAuthChallengeError")
            retryState = newState
            resultText = "Error registering strong authentication method: \(error.errorDescription ?? "no description")"
            finish(nil)
        }

        func onRegisterStrongAuthVerificationRequired(result: RegisterStrongAuthVerificationRequiredResult) {
            record("onRegisterStrongAuthVerificationRequired")
            let newState = result.newState
            newState.submitChallenge(challenge: code, delegate: self)
        }

        func onRegisterStrongAuthSubmitChallengeError(
            error: LatchError, newState: RegisterStrongAuthVerificationRequiredState?
        ) {
            record("onRegisterStrongAuthSubmitChallengeError")
            resultText = "Error submitting challenge: \(error.errorDescription ?? "no description")"
            guard let newState else { return finish(nil) }
            newState.submitChallenge(challenge: "newCode", delegate: self)
        }

        func onSignInCompleted(result: LatchTokenResult) {
            record("onSignInCompleted")
            resultText = "Signed in as: \(result.account.username)"
            finish(result)
        }
    }

    @Test("the seed's registration flow: registration → challenge → verification → submit (wrong, then right) → signed in")
    func seedRegistrationFlow() async throws {
        let script = ScriptedTransport()
        Script.passwordSignIn(script)
        script.respond(to: "/oauth2/v2.0/token", with: Script.registrationRequired("ct-reg"))
        script.respond(to: "/register/v1.0/introspect", with: Script.introspect("ct-reg-introspected"))
        script.respond(
            to: "/register/v1.0/challenge",
            with: Script.registrationCodeSent("ct-reg-code", to: "user@contoso.com", channel: "email"))
        script.respond(to: "/register/v1.0/continue", with: Script.error("invalid_grant", suberror: "invalid_oob_value"))
        script.respond(to: "/register/v1.0/continue", with: Script.continuation("ct-reg-done"))
        script.respond(to: "/oauth2/v2.0/token", with: Script.tokens())
        let client = try Script.client(script, capabilities: [.registrationRequired])
        let controller = ViewController()

        let result = await controller.signIn(client, username: Script.email, password: "pw")
        #expect(result?.account.id == Script.subject)
        #expect(
            controller.callbacks == [
                "onSignInStrongAuthMethodRegistration", "onRegisterStrongAuthVerificationRequired",
                "onRegisterStrongAuthSubmitChallengeError", "onSignInCompleted",
            ])
        #expect(controller.resultText == "Signed in as: \(Script.email)")
        #expect(controller.offMainQueue == 0)
        #expect(script.requests(to: "/register/v1.0/challenge").first?.form["challenge_target"] == "user@contoso.com")
        #expect(script.requests(to: "/register/v1.0/continue").map { $0.form["oob"] } == ["000000", "newCode"])
        #expect(script.requests(to: "/oauth2/v2.0/initiate").first?.form["capabilities"] == "registration_required")
    }

    @Test("a preverified contact ends in onSignInCompleted straight from the challenge delegate")
    func preverified() async throws {
        let script = ScriptedTransport()
        Script.passwordSignIn(script)
        script.respond(to: "/oauth2/v2.0/token", with: Script.registrationRequired("ct-reg"))
        script.respond(to: "/register/v1.0/introspect", with: Script.introspect("ct-reg-introspected"))
        script.respond(to: "/register/v1.0/challenge", json: #"{"continuation_token":"ct-pre","challenge_type":"preverified"}"#)
        script.respond(to: "/register/v1.0/continue", with: Script.continuation("ct-reg-done"))
        script.respond(to: "/oauth2/v2.0/token", with: Script.tokens())
        let controller = ViewController()

        let result = await controller.signIn(try Script.client(script), username: Script.email, password: "pw")
        #expect(result != nil)
        #expect(controller.callbacks == ["onSignInStrongAuthMethodRegistration", "onSignInCompleted"])
    }

    @Test("a blocked contact → onRegisterStrongAuthChallengeError with the state to try again with")
    func blockedContact() async throws {
        let script = ScriptedTransport()
        Script.passwordSignIn(script)
        script.respond(to: "/oauth2/v2.0/token", with: Script.registrationRequired("ct-reg"))
        script.respond(to: "/register/v1.0/introspect", with: Script.introspect("ct-reg-introspected"))
        script.respond(to: "/register/v1.0/challenge", with: Script.error("access_denied", suberror: "provider_blocked_by_rep"))
        let controller = ViewController()
        let result = await controller.signIn(try Script.client(script), username: Script.email, password: "pw")
        #expect(result == nil)
        #expect(controller.callbacks == ["onSignInStrongAuthMethodRegistration", "onRegisterStrongAuthChallengeError"])
        #expect(controller.resultText.hasPrefix("Error registering strong authentication method"))
        #expect(controller.retryState?.username == Script.email, "the state stays usable for another contact")
    }

    /// The MFA pair: awaiting → request a code → submit it.
    final class MFAController: SignInStartDelegate, MFARequestChallengeDelegate, MFASubmitChallengeDelegate {
        private(set) var callbacks: [String] = []
        private(set) var sentTo = ""
        private(set) var blockedStateKept = false
        private var finished: CheckedContinuation<LatchTokenResult?, Never>?

        func signIn(_ client: LatchClient) async -> LatchTokenResult? {
            await withCheckedContinuation { continuation in
                finished = continuation
                client.signIn(username: Script.email, password: "pw", delegate: self)
            }
        }

        private func finish(_ result: LatchTokenResult?) {
            finished?.resume(returning: result)
            finished = nil
        }

        func onSignInStartError(error: LatchError) {
            callbacks.append("onSignInStartError")
            finish(nil)
        }
        func onSignInAwaitingMFA(newState: MFARequiredState) {
            callbacks.append("onSignInAwaitingMFA")
            newState.requestChallenge(delegate: self)
        }
        func onMFARequestChallengeError(error: LatchError, newState: MFARequiredState?) {
            callbacks.append("onMFARequestChallengeError")
            guard error.code == .authMethodBlocked, let newState else { return finish(nil) }
            blockedStateKept = true
            newState.requestChallenge(method: newState.authMethods.last, delegate: self)
        }
        func onMFARequestChallengeVerificationRequired(
            newState: MFARequiredState, sentTo: String, channelTargetType: LatchChannelType, codeLength: Int
        ) {
            callbacks.append("onMFARequestChallengeVerificationRequired")
            self.sentTo = sentTo
            newState.submitChallenge(challenge: "123456", delegate: self)
        }
        func onMFASubmitChallengeError(error: LatchError, newState: MFARequiredState?) {
            callbacks.append("onMFASubmitChallengeError")
            finish(nil)
        }
        func onSignInCompleted(result: LatchTokenResult) {
            callbacks.append("onSignInCompleted")
            finish(result)
        }
    }

    @Test("MFA: onSignInAwaitingMFA → requestChallenge (blocked, then another method) → submitChallenge → onSignInCompleted")
    func mfaFlow() async throws {
        let script = ScriptedTransport()
        Script.passwordSignIn(script)
        script.respond(to: "/oauth2/v2.0/token", with: Script.mfaRequired("ct-mfa"))
        script.respond(to: "/oauth2/v2.0/introspect", with: Script.introspect("ct-introspected"))
        script.respond(to: "/oauth2/v2.0/challenge", with: Script.error("access_denied", suberror: "provider_blocked_by_rep"))
        script.respond(to: "/oauth2/v2.0/challenge", with: Script.codeSent("ct-code", to: "+1******42", channel: "sms"))
        script.respond(to: "/oauth2/v2.0/token", with: Script.tokens())
        let controller = MFAController()

        let result = await controller.signIn(try Script.client(script))
        #expect(result?.account.id == Script.subject)
        #expect(
            controller.callbacks == [
                "onSignInAwaitingMFA", "onMFARequestChallengeError", "onMFARequestChallengeVerificationRequired",
                "onSignInCompleted",
            ])
        #expect(controller.blockedStateKept)
        #expect(controller.sentTo == "+1******42")
        #expect(script.requests(to: "/oauth2/v2.0/challenge").last?.form["id"] == "method-sms")
    }

    /// Implements only the required callbacks of ``SignInStartDelegate``.
    final class ErrorOnly: SignInStartDelegate {
        private var waiting: CheckedContinuation<LatchError, Never>?

        func error(_ client: LatchClient) async -> LatchError {
            await withCheckedContinuation { continuation in
                waiting = continuation
                client.signIn(username: Script.email, password: "pw", delegate: self)
            }
        }

        func onSignInStartError(error: LatchError) {
            waiting?.resume(returning: error)
            waiting = nil
        }
    }

    @Test(
        "a delegate without the second-step callback gets its error callback (.internal), naming the callback",
        arguments: ["mfa_required", "registration_required"])
    func optionalCallbacks(suberror: String) async throws {
        let script = ScriptedTransport()
        Script.passwordSignIn(script)
        script.respond(
            to: "/oauth2/v2.0/token",
            with: suberror == "mfa_required" ? Script.mfaRequired("ct-mfa") : Script.registrationRequired("ct-reg"))
        script.respond(to: "/oauth2/v2.0/introspect", with: Script.introspect("ct-introspected"))
        script.respond(to: "/register/v1.0/introspect", with: Script.introspect("ct-reg-introspected"))
        let error = await ErrorOnly().error(try Script.client(script))
        #expect(error.code == .internal)
        let callback =
            suberror == "mfa_required"
            ? "onSignInAwaitingMFA(newState:)" : "onSignInStrongAuthMethodRegistration(authMethods:newState:)"
        #expect(error.message.contains("\(callback) not implemented by the delegate"))
    }
}
