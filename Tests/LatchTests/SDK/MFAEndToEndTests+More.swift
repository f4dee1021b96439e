import Foundation
import Latch
import LatchServer
import LatchTesting
import Testing

extension MFAEndToEndTests {
    @Test("SMS registration; a wrong code, a resend that voids it, then the right code")
    func smsRegistrationWithResend() async throws {
        try await Self.environment { server, client in
            let email = SDKTest.email("sms-reg")
            _ = try server.createUser(email: email, password: Self.password)
            let (methods, state) = try Self.registration(try await client.signIn(username: email, password: Self.password))
            let sms = try #require(methods.first { $0.channel == .sms })
            let parameters = LatchChallengeAuthMethodParameters(authMethod: sms, verificationContact: "+44 7700 900321")
            guard case .verificationRequired(let first) = try await state.challengeAuthMethod(parameters: parameters) else {
                Issue.record("no code was sent")
                return
            }
            #expect(first.delivery.channel == .sms)
            let oldCode = try #require(try server.latestCode(to: "+447700900321"))
            do {
                _ = try await first.submitChallenge(oldCode == "00000000" ? "11111111" : "00000000")
                Issue.record("a wrong code was accepted")
            } catch let error as LatchError {
                #expect(error.code == .invalidChallenge)
            }
            guard case .verificationRequired(let resent) = try await first.challengeAuthMethod(parameters: parameters) else {
                Issue.record("no code was re-sent")
                return
            }
            let newCode = try #require(try server.latestCode(to: "+447700900321"))
            if newCode != oldCode {
                await #expect(throws: LatchError.self) { _ = try await resent.submitChallenge(oldCode) }
            }
            let result = try SDKTest.completed(try await resent.submitChallenge(newCode))
            #expect(try Self.amr(result) == ["pwd", "sms", "mfa"])
        }
    }

    @Test("an expired second-factor code (test clock): invalidChallenge; a new code completes")
    func expiredSecondFactorCode() async throws {
        try await Self.environment { server, client in
            try server.updateTenant { $0.codeLifetime = 300 }
            let email = SDKTest.email("expired-mfa")
            let user = try server.createUser(email: email, password: Self.password)
            try Self.addMethod(.email, "late-\(user.id.prefix(6))@example.org", to: user, in: server)
            let target = "late-\(user.id.prefix(6))@example.org"
            let state = try Self.awaitingMFA(try await client.signIn(username: email, password: Self.password))
            let sent = try await state.requestChallenge(method: nil)
            let code = try #require(try server.latestCode(to: target))
            server.clock.advance(by: 301)
            do {
                _ = try await sent.submitChallenge(code)
                Issue.record("an expired code was accepted")
            } catch let error as LatchError {
                #expect(error.code == .invalidChallenge)
                #expect(error.recovery == .resendCode)
            }
            let again = try await sent.requestChallenge(method: nil)
            _ = try SDKTest.completed(try await again.submitChallenge(try #require(try server.latestCode(to: target))))
        }
    }

    /// The seed's view controller (an MSAL tutorial's), against the real server: it reads each code
    /// from the server's outbox when the SDK asks for it.
    @MainActor
    final class SeedViewController: SignInStartDelegate, RegisterStrongAuthChallengeDelegate,
        RegisterStrongAuthSubmitChallengeDelegate
    {
        let server: LatchTestServer
        var verificationContact = ""
        var authMethod: LatchAuthMethod?
        var resultText = ""
        private(set) var callbacks: [String] = []
        private var finished: CheckedContinuation<LatchTokenResult?, Never>?

        init(server: LatchTestServer) { self.server = server }

        func signIn(_ client: LatchClient, username: String, password: String) async -> LatchTokenResult? {
            await withCheckedContinuation { continuation in
                finished = continuation
                client.signIn(username: username, password: password, delegate: self)
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

        func onSignInStrongAuthMethodRegistration(authMethods: [LatchAuthMethod], newState: RegisterStrongAuthState) {
            callbacks.append("onSignInStrongAuthMethodRegistration")
            // You can select the first authMethod which has a challengeChannel of type email
            authMethod = authMethods.first { $0.channelTargetType.isEmailType }
            if verificationContact.isEmpty {
                verificationContact = "user@contoso.com"  // or the address given at sign-up
            }
            guard let authMethod else { return finish(nil) }
            let parameter = LatchChallengeAuthMethodParameters(authMethod: authMethod, verificationContact: verificationContact)
            newState.challengeAuthMethod(parameters: parameter, delegate: self)
        }

        func onRegisterStrongAuthChallengeError(error: LatchError, newState: RegisterStrongAuthState?) {
            callbacks.append("onRegisterStrongAuthChallengeError")
            resultText = "Error registering strong authentication method: \(error.errorDescription ?? "no description")"
            finish(nil)
        }

        func onRegisterStrongAuthVerificationRequired(result: RegisterStrongAuthVerificationRequiredResult) {
            callbacks.append("onRegisterStrongAuthVerificationRequired")
            let newState = result.newState
            let code = (try? server.latestCode(to: verificationContact)) ?? nil
            newState.submitChallenge(challenge: code ?? "", delegate: self)
        }

        func onRegisterStrongAuthSubmitChallengeError(
            error: LatchError, newState: RegisterStrongAuthVerificationRequiredState?
        ) {
            callbacks.append("onRegisterStrongAuthSubmitChallengeError")
            resultText = "Error submitting challenge: \(error.errorDescription ?? "no description")"
            finish(nil)
        }

        func onSignInCompleted(result: LatchTokenResult) {
            callbacks.append("onSignInCompleted")
            resultText = "Signed in as: \(result.account.username)"
            finish(result)
        }
    }

    @Test("the seed's delegate flow against the real server: registration → challenge → verification → signed in")
    @MainActor
    func seedDelegateFlow() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        try server.updateTenant { $0.mfa.policy = .required }
        let client = try server.makeClient { $0.capabilities = [.registrationRequired] }
        let email = SDKTest.email("seed")
        _ = try server.createUser(email: email, password: Self.password)
        let controller = SeedViewController(server: server)
        let result = await controller.signIn(client, username: email, password: Self.password)
        #expect(result?.account.username == email)
        #expect(
            controller.callbacks == [
                "onSignInStrongAuthMethodRegistration", "onRegisterStrongAuthVerificationRequired", "onSignInCompleted",
            ])
        #expect(controller.resultText == "Signed in as: \(email)")
    }
}
