import Foundation

/// Receives the outcome of ``SignUpCodeRequiredState/resendCode(delegate:)``, on the main actor,
/// exactly once per call. Mirrors MSAL native auth's `SignUpResendCodeDelegate`.
@MainActor
public protocol SignUpResendCodeDelegate: AnyObject, Sendable {
    /// No new code was sent. `newState` is the same state when it can be used again, else `nil`.
    /// Mirrors MSAL's `onSignUpResendCodeError(error:newState:)`.
    func onSignUpResendCodeError(error: LatchError, newState: SignUpCodeRequiredState?)

    /// A new code was sent; the previous one no longer works.
    /// Optional: without it, ``onSignUpResendCodeError(error:newState:)`` is called.
    /// Mirrors MSAL's `onSignUpResendCodeCodeRequired(newState:sentTo:channelTargetType:codeLength:)`.
    func onSignUpResendCodeCodeRequired(
        newState: SignUpCodeRequiredState, sentTo: String, channelTargetType: LatchChannelType, codeLength: Int)
}

extension SignUpResendCodeDelegate {
    /// Routes to ``onSignUpResendCodeError(error:newState:)`` (not implemented).
    public func onSignUpResendCodeCodeRequired(
        newState: SignUpCodeRequiredState, sentTo: String, channelTargetType: LatchChannelType, codeLength: Int
    ) {
        onSignUpResendCodeError(
            error: .delegateMethodNotImplemented(
                "onSignUpResendCodeCodeRequired(newState:sentTo:channelTargetType:codeLength:)"),
            newState: nil)
    }
}

extension SignUpCodeRequiredState {
    /// Sends a new code and reports to `delegate` on the main actor; see ``resendCode()``.
    /// Mirrors MSAL's `SignUpCodeRequiredState.resendCode(delegate:)`.
    /// - Returns: the running work; cancelling it ends in ``LatchError/Code/userCanceled``.
    @discardableResult
    public func resendCode(delegate: any SignUpResendCodeDelegate) -> Task<Void, Never> {
        DelegateDispatch.run {
            try await self.resendCode()
        } deliver: { outcome in
            switch outcome {
            case .success(let next):
                delegate.onSignUpResendCodeCodeRequired(
                    newState: next, sentTo: next.delivery.sentTo, channelTargetType: next.delivery.channel,
                    codeLength: next.delivery.codeLength)
            case .failure(let error):
                delegate.onSignUpResendCodeError(error: error, newState: error.leavesStateUsable ? self : nil)
            }
        }
    }
}
