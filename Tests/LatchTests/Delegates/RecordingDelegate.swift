import Foundation
import Latch
import LatchTesting
import LatchWire
import Testing

/// One callback a ``RecordingDelegate`` received.
enum DelegateEvent: Sendable {
    case signUpStartError(LatchError)
    case signUpCodeRequired(SignUpCodeRequiredState, sentTo: String, channel: LatchChannelType, codeLength: Int)
    case signUpAttributesInvalid([String])
    case signUpVerifyCodeError(LatchError, newState: SignUpCodeRequiredState?)
    case signUpPasswordRequired(SignUpPasswordRequiredState)
    case signUpAttributesRequired([LatchRequiredAttribute], SignUpAttributesRequiredState)
    case signUpCompleted(SignInAfterSignUpState)
    case signInAfterSignUpError(LatchError)
    case signInStartError(LatchError)
    case signInCodeRequired(SignInCodeRequiredState, sentTo: String, channel: LatchChannelType, codeLength: Int)
    case signInPasswordRequired(SignInPasswordRequiredState)
    case signInPasswordRequiredError(LatchError, newState: SignInPasswordRequiredState?)
    case signInVerifyCodeError(LatchError, newState: SignInCodeRequiredState?)
    case signInResendCodeError(LatchError, newState: SignInCodeRequiredState?)
    case signInResendCodeRequired(SignInCodeRequiredState)
    case signInCompleted(LatchTokenResult)
    case resetPasswordStartError(LatchError)
    case resetPasswordCodeRequired(ResetPasswordCodeRequiredState)
    case resetPasswordVerifyCodeError(LatchError, newState: ResetPasswordCodeRequiredState?)
    case passwordRequired(ResetPasswordRequiredState)
    case resetPasswordRequiredError(LatchError, newState: ResetPasswordRequiredState?)
    case resetPasswordCompleted(SignInAfterResetPasswordState)
    case signInAfterResetPasswordError(LatchError)
}

/// A delegate in the shape apps write for MSAL native auth: one class adopting every flow's
/// delegate protocol, recording each callback and resuming the test waiting for it.
@MainActor
final class RecordingDelegate: SignUpStartDelegate, SignUpVerifyCodeDelegate, SignInAfterSignUpDelegate,
    SignInStartDelegate, SignInPasswordRequiredDelegate, SignInVerifyCodeDelegate, SignInResendCodeDelegate,
    ResetPasswordStartDelegate, ResetPasswordVerifyCodeDelegate, ResetPasswordRequiredDelegate,
    SignInAfterResetPasswordDelegate
{
    /// Every callback so far, in order.
    private(set) var events: [DelegateEvent] = []
    /// Callbacks that ran off the main queue (the main thread on Apple platforms).
    private(set) var offMainThread = 0
    private var waiting: CheckedContinuation<DelegateEvent, Never>?

    /// Makes a call with this delegate and waits for its callback.
    func callback(_ call: (RecordingDelegate) -> Void) async -> DelegateEvent {
        await withCheckedContinuation { continuation in
            waiting = continuation
            call(self)
        }
    }

    private func record(_ event: DelegateEvent) {
        MainActor.assertIsolated()
        if !MainQueue.isCurrent { offMainThread += 1 }
        events.append(event)
        guard let continuation = waiting else {
            Issue.record("a callback nobody waited for: \(event)")
            return
        }
        waiting = nil
        continuation.resume(returning: event)
    }

    func onSignUpStartError(error: LatchError) { record(.signUpStartError(error)) }
    func onSignUpCodeRequired(
        newState: SignUpCodeRequiredState, sentTo: String, channelTargetType: LatchChannelType, codeLength: Int
    ) {
        record(.signUpCodeRequired(newState, sentTo: sentTo, channel: channelTargetType, codeLength: codeLength))
    }
    func onSignUpAttributesInvalid(attributeNames: [String]) { record(.signUpAttributesInvalid(attributeNames)) }
    func onSignUpVerifyCodeError(error: LatchError, newState: SignUpCodeRequiredState?) {
        record(.signUpVerifyCodeError(error, newState: newState))
    }
    func onSignUpPasswordRequired(newState: SignUpPasswordRequiredState) { record(.signUpPasswordRequired(newState)) }
    func onSignUpAttributesRequired(attributes: [LatchRequiredAttribute], newState: SignUpAttributesRequiredState) {
        record(.signUpAttributesRequired(attributes, newState))
    }
    func onSignUpCompleted(newState: SignInAfterSignUpState) { record(.signUpCompleted(newState)) }
    func onSignInAfterSignUpError(error: LatchError) { record(.signInAfterSignUpError(error)) }
    func onSignInStartError(error: LatchError) { record(.signInStartError(error)) }
    func onSignInCodeRequired(
        newState: SignInCodeRequiredState, sentTo: String, channelTargetType: LatchChannelType, codeLength: Int
    ) {
        record(.signInCodeRequired(newState, sentTo: sentTo, channel: channelTargetType, codeLength: codeLength))
    }
    func onSignInPasswordRequired(newState: SignInPasswordRequiredState) { record(.signInPasswordRequired(newState)) }
    func onSignInPasswordRequiredError(error: LatchError, newState: SignInPasswordRequiredState?) {
        record(.signInPasswordRequiredError(error, newState: newState))
    }
    func onSignInVerifyCodeError(error: LatchError, newState: SignInCodeRequiredState?) {
        record(.signInVerifyCodeError(error, newState: newState))
    }
    func onSignInResendCodeError(error: LatchError, newState: SignInCodeRequiredState?) {
        record(.signInResendCodeError(error, newState: newState))
    }
    func onSignInResendCodeCodeRequired(
        newState: SignInCodeRequiredState, sentTo: String, channelTargetType: LatchChannelType, codeLength: Int
    ) {
        record(.signInResendCodeRequired(newState))
    }
    func onSignInCompleted(result: LatchTokenResult) { record(.signInCompleted(result)) }
    func onResetPasswordStartError(error: LatchError) { record(.resetPasswordStartError(error)) }
    func onResetPasswordCodeRequired(
        newState: ResetPasswordCodeRequiredState, sentTo: String, channelTargetType: LatchChannelType, codeLength: Int
    ) {
        record(.resetPasswordCodeRequired(newState))
    }
    func onResetPasswordVerifyCodeError(error: LatchError, newState: ResetPasswordCodeRequiredState?) {
        record(.resetPasswordVerifyCodeError(error, newState: newState))
    }
    func onPasswordRequired(newState: ResetPasswordRequiredState) { record(.passwordRequired(newState)) }
    func onResetPasswordRequiredError(error: LatchError, newState: ResetPasswordRequiredState?) {
        record(.resetPasswordRequiredError(error, newState: newState))
    }
    func onResetPasswordCompleted(newState: SignInAfterResetPasswordState) { record(.resetPasswordCompleted(newState)) }
    func onSignInAfterResetPasswordError(error: LatchError) { record(.signInAfterResetPasswordError(error)) }
}

/// Whether code runs on the main dispatch queue, where the main actor runs. On Apple platforms
/// that is the main thread; on Linux `dispatch_main()` ends the main thread and a worker thread
/// drains the main queue, so `Thread.isMainThread` is false there even on the main actor.
enum MainQueue {
    static var isCurrent: Bool {
        #if canImport(Darwin)
            return Thread.isMainThread
        #else
            return DispatchQueue.getSpecific(key: key) == true
        #endif
    }

    #if !canImport(Darwin)
        private static let key: DispatchSpecificKey<Bool> = {
            let key = DispatchSpecificKey<Bool>()
            DispatchQueue.main.setSpecific(key: key, value: true)
            return key
        }()
    #endif
}

/// A delegate implementing only the error callbacks MSAL requires, so every optional callback
/// falls back to its default implementation.
@MainActor
final class ErrorOnlyDelegate: SignInStartDelegate, SignInPasswordRequiredDelegate {
    /// Every error received, with the callback that received it.
    private(set) var errors: [(callback: String, error: LatchError)] = []
    private var waiting: CheckedContinuation<LatchError, Never>?

    /// Makes a call with this delegate and waits for its error callback.
    func error(_ call: (ErrorOnlyDelegate) -> Void) async -> LatchError {
        await withCheckedContinuation { continuation in
            waiting = continuation
            call(self)
        }
    }

    private func record(_ callback: String, _ error: LatchError) {
        MainActor.assertIsolated()
        errors.append((callback, error))
        let continuation = waiting
        waiting = nil
        continuation?.resume(returning: error)
    }

    func onSignInStartError(error: LatchError) { record("onSignInStartError", error) }
    func onSignInPasswordRequiredError(error: LatchError, newState: SignInPasswordRequiredState?) {
        record("onSignInPasswordRequiredError", error)
    }
}

/// A test server and a client of it.
struct DelegateFixture: Sendable {
    /// A password the default policy accepts.
    static let password = "Amber-Falcon-42!"
    /// Another acceptable password.
    static let newPassword = "Cobalt-Meadow-17?"

    let server: LatchTestServer
    let client: LatchClient

    init(challengeTypes: [LatchConfiguration.ChallengeType] = [.oob, .password]) throws {
        server = try LatchTestServer.start()
        client = try LatchClient(
            configuration: LatchConfiguration(
                serverURL: URL(string: server.baseURL)!, clientID: "latch-dev", challengeTypes: challengeTypes,
                credentialStore: InMemoryCredentialStore()))
    }

    /// A fresh address, so tests never share an account.
    static func email(_ prefix: String) -> String {
        "\(prefix)-\(UUID().uuidString.prefix(8).lowercased())@example.com"
    }

    /// The newest code sent to `email`.
    func code(to email: String) throws -> String {
        try #require(try server.latestCode(to: email), "no code was sent to \(email)")
    }
}
