import Foundation
import Latch
import LatchTesting
import LatchWire
import Testing

/// The MSAL-style delegate adapters against a real server, in the flow shape apps write.
@Suite("Delegate adapters", .timeLimit(.minutes(1)))
@MainActor
struct DelegateFlowTests {
    struct UnexpectedCallback: Error {}

    /// Records an issue for a callback the step should not have produced.
    func unexpected(_ event: DelegateEvent, sourceLocation: SourceLocation = #_sourceLocation) -> UnexpectedCallback {
        Issue.record("unexpected callback: \(event)", sourceLocation: sourceLocation)
        return UnexpectedCallback()
    }

    @Test("sign-up: start → onSignUpCodeRequired → submitCode → onSignUpCompleted → signIn → onSignInCompleted")
    func signUpThenSignIn() async throws {
        let fixture = try DelegateFixture()
        defer { fixture.server.stop() }
        let email = DelegateFixture.email("ada")
        let delegate = RecordingDelegate()

        let started = await delegate.callback {
            fixture.client.signUp(username: email, password: DelegateFixture.password, delegate: $0)
        }
        guard case .signUpCodeRequired(let codeState, let sentTo, let channel, let codeLength) = started else {
            throw unexpected(started)
        }
        let code = try fixture.code(to: email)
        #expect(channel.isEmailType && !channel.isSMSType)
        #expect(codeLength == code.count)
        #expect(!sentTo.isEmpty && sentTo != email)

        let verified = await delegate.callback { codeState.submitCode(code, delegate: $0) }
        guard case .signUpCompleted(let afterSignUp) = verified else { throw unexpected(verified) }
        #expect(afterSignUp.username == email)

        let signedIn = await delegate.callback { afterSignUp.signIn(delegate: $0) }
        guard case .signInCompleted(let result) = signedIn else { throw unexpected(signedIn) }
        #expect(result.account.username == email)
        #expect(!result.accessToken.isEmpty)
        #expect(delegate.events.count == 3)
        #expect(delegate.offMainThread == 0)
    }

    @Test("sign-in with password → onSignInCompleted, on the main actor and main queue")
    func signInWithPassword() async throws {
        let fixture = try DelegateFixture()
        defer { fixture.server.stop() }
        let email = DelegateFixture.email("grace")
        try fixture.server.createUser(email: email, password: DelegateFixture.password)
        let delegate = RecordingDelegate()

        let event = await delegate.callback {
            fixture.client.signIn(username: email, password: DelegateFixture.password, delegate: $0)
        }
        guard case .signInCompleted(let result) = event else { throw unexpected(event) }
        #expect(result.account.username == email)
        #expect(try await fixture.client.account(username: email)?.id == result.account.id)
        #expect(delegate.events.count == 1)
        #expect(delegate.offMainThread == 0)
        #expect(await Task.detached { MainQueue.isCurrent }.value == false)  // the check can fail
    }

    @Test("sign-in with a wrong password → onSignInStartError(.wrongPassword)")
    func wrongPassword() async throws {
        let fixture = try DelegateFixture()
        defer { fixture.server.stop() }
        let email = DelegateFixture.email("mallory")
        try fixture.server.createUser(email: email, password: DelegateFixture.password)
        let delegate = RecordingDelegate()

        let event = await delegate.callback {
            fixture.client.signIn(username: email, password: "Not-The-Password-1!", delegate: $0)
        }
        guard case .signInStartError(let error) = event else { throw unexpected(event) }
        #expect(error.code == .wrongPassword)
        #expect(delegate.events.count == 1)
        #expect(delegate.offMainThread == 0)
    }

    @Test("input checked before any request → onSignUpStartError(.invalidEmail)")
    func invalidEmail() async throws {
        let fixture = try DelegateFixture()
        defer { fixture.server.stop() }
        let delegate = RecordingDelegate()

        let event = await delegate.callback { fixture.client.signUp(username: "not-an-address", delegate: $0) }
        guard case .signUpStartError(let error) = event else { throw unexpected(event) }
        #expect(error.code == .invalidEmail)
    }

    @Test("password asked later: a wrong one keeps the state (newState) for the retry")
    func passwordRequiredRetry() async throws {
        let fixture = try DelegateFixture()
        defer { fixture.server.stop() }
        let email = DelegateFixture.email("retry")
        try fixture.server.createUser(email: email, password: DelegateFixture.password)
        let delegate = RecordingDelegate()

        let started = await delegate.callback { fixture.client.signIn(username: email, delegate: $0) }
        guard case .signInPasswordRequired(let state) = started else { throw unexpected(started) }

        let failed = await delegate.callback { state.submitPassword("Wrong-Password-9!", delegate: $0) }
        guard case .signInPasswordRequiredError(let error, let newState?) = failed else { throw unexpected(failed) }
        #expect(error.code == .wrongPassword)

        let retried = await delegate.callback { newState.submitPassword(DelegateFixture.password, delegate: $0) }
        guard case .signInCompleted(let result) = retried else { throw unexpected(retried) }
        #expect(result.account.username == email)
        #expect(delegate.events.count == 3)
    }

    @Test("e-mail code sign-in: wrong code → newState, resendCode → new code, submitCode → completed")
    func codeSignIn() async throws {
        let fixture = try DelegateFixture(challengeTypes: [.oob])
        defer { fixture.server.stop() }
        let email = DelegateFixture.email("otp")
        try fixture.server.createUser(email: email, password: nil)
        let delegate = RecordingDelegate()

        let started = await delegate.callback { fixture.client.signIn(username: email, delegate: $0) }
        guard case .signInCodeRequired(let state, _, let channel, _) = started else { throw unexpected(started) }
        #expect(channel == .email)

        let wrong = await delegate.callback { state.submitCode("00000000", delegate: $0) }
        guard case .signInVerifyCodeError(let error, let sameState?) = wrong else { throw unexpected(wrong) }
        #expect(error.code == .invalidCode)

        let resent = await delegate.callback { sameState.resendCode(delegate: $0) }
        guard case .signInResendCodeRequired(let newState) = resent else { throw unexpected(resent) }

        let newCode = try fixture.code(to: email)
        let verified = await delegate.callback { newState.submitCode(newCode, delegate: $0) }
        guard case .signInCompleted(let result) = verified else { throw unexpected(verified) }
        #expect(result.account.username == email)
        #expect(delegate.events.count == 4)
        #expect(delegate.offMainThread == 0)
    }

    @Test("password reset: code → onPasswordRequired → onResetPasswordCompleted → onSignInCompleted")
    func resetPassword() async throws {
        let fixture = try DelegateFixture()
        defer { fixture.server.stop() }
        let email = DelegateFixture.email("reset")
        try fixture.server.createUser(email: email, password: DelegateFixture.password)
        let delegate = RecordingDelegate()

        let started = await delegate.callback { fixture.client.resetPassword(username: email, delegate: $0) }
        guard case .resetPasswordCodeRequired(let codeState) = started else { throw unexpected(started) }
        let code = try fixture.code(to: email)

        let verified = await delegate.callback { codeState.submitCode(code, delegate: $0) }
        guard case .passwordRequired(let passwordState) = verified else { throw unexpected(verified) }

        let reset = await delegate.callback { passwordState.submitPassword(DelegateFixture.newPassword, delegate: $0) }
        guard case .resetPasswordCompleted(let afterReset) = reset else { throw unexpected(reset) }

        let signedIn = await delegate.callback { afterReset.signIn(delegate: $0) }
        guard case .signInCompleted(let result) = signedIn else { throw unexpected(signedIn) }
        #expect(result.account.username == email)

        let withNewPassword = await delegate.callback {
            fixture.client.signIn(username: email, password: DelegateFixture.newPassword, delegate: $0)
        }
        guard case .signInCompleted = withNewPassword else { throw unexpected(withNewPassword) }
        #expect(delegate.events.count == 5)
    }

    @Test("an optional callback the delegate lacks routes to its error callback (.internal), once")
    func optionalCallbackNotImplemented() async throws {
        let fixture = try DelegateFixture()
        defer { fixture.server.stop() }
        let email = DelegateFixture.email("partial")
        try fixture.server.createUser(email: email, password: DelegateFixture.password)
        let delegate = ErrorOnlyDelegate()

        let completed = await delegate.error {
            fixture.client.signIn(username: email, password: DelegateFixture.password, delegate: $0)
        }
        #expect(completed.code == .internal)
        #expect(completed.message.contains("onSignInCompleted(result:) not implemented by the delegate"))

        let passwordRequired = await delegate.error { fixture.client.signIn(username: email, delegate: $0) }
        #expect(passwordRequired.code == .internal)
        #expect(passwordRequired.message.contains("onSignInPasswordRequired(newState:)"))
        #expect(delegate.errors.map(\.callback) == ["onSignInStartError", "onSignInStartError"])
    }

    @Test("the delegate is held until its callback has run, then released")
    func delegateRetained() async throws {
        let fixture = try DelegateFixture()
        defer { fixture.server.stop() }
        let email = DelegateFixture.email("held")
        try fixture.server.createUser(email: email, password: DelegateFixture.password)

        weak var released: RecordingDelegate?
        let event = await {
            let delegate = RecordingDelegate()  // nothing else keeps it alive
            released = delegate
            return await delegate.callback {
                fixture.client.signIn(username: email, password: DelegateFixture.password, delegate: $0)
            }
        }()
        guard case .signInCompleted = event else { throw unexpected(event) }
        try await Task.sleep(nanoseconds: 100_000_000)
        #expect(released == nil)
    }

    @Test("cancelling the returned task calls the error callback once with .userCanceled")
    func cancelled() async throws {
        let fixture = try DelegateFixture()
        defer { fixture.server.stop() }
        let email = DelegateFixture.email("cancel")
        try fixture.server.createUser(email: email, password: DelegateFixture.password)
        fixture.server.faults.inject(.delay(seconds: 1), on: "/oauth2/v2.0/initiate")
        let delegate = RecordingDelegate()

        let event = await delegate.callback {
            let call = fixture.client.signIn(username: email, password: DelegateFixture.password, delegate: $0)
            Task {
                try await Task.sleep(nanoseconds: 100_000_000)
                call.cancel()
            }
        }
        guard case .signInStartError(let error) = event else { throw unexpected(event) }
        #expect(error.code == .userCanceled)
        try await Task.sleep(nanoseconds: 1_500_000_000)  // the delayed answer must not cause a second callback
        #expect(delegate.events.count == 1)
    }

    @Test("cancelling during a delayed password submission (a state-changing /token) → .userCanceled, once")
    func cancelledStateChanging() async throws {
        let fixture = try DelegateFixture()
        defer { fixture.server.stop() }
        let email = DelegateFixture.email("cancel-token")
        try fixture.server.createUser(email: email, password: DelegateFixture.password)
        let delegate = RecordingDelegate()
        let started = await delegate.callback { fixture.client.signIn(username: email, delegate: $0) }
        guard case .signInPasswordRequired(let state) = started else { throw unexpected(started) }
        // Held far longer than the bound below, so a loaded machine cannot blur the two.
        fixture.server.faults.inject(.delay(seconds: 6, times: 1), on: "/oauth2/v2.0/token")

        let began = Date()
        let event = await delegate.callback {
            let call = state.submitPassword(DelegateFixture.password, delegate: $0)
            Task {
                try await Task.sleep(nanoseconds: 200_000_000)
                call.cancel()
            }
        }
        guard case .signInPasswordRequiredError(let error, _) = event else { throw unexpected(event) }
        #expect(error.code == .userCanceled, "\(error)")
        #expect(Date().timeIntervalSince(began) < 4.5, "the callback waited for the delayed answer")
        try await Task.sleep(nanoseconds: 6_200_000_000)  // the delayed answer must not cause a second callback
        #expect(delegate.events.count == 2)
    }
}
