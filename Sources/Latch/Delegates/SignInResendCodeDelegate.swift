import Foundation

/// Receives the outcome of ``SignInCodeRequiredState/resendCode(delegate:)``, on the main actor,
/// exactly once per call. Mirrors MSAL native auth's `SignInResendCodeDelegate`.
@MainActor
public protocol SignInResendCodeDelegate: AnyObject, Sendable {
    /// No new code was sent. `newState` is the same state when it can be used again, else `nil`.
    /// Mirrors MSAL's `onSignInResendCodeError(error:newState:)`.
    func onSignInResendCodeError(error: LatchError, newState: SignInCodeRequiredState?)

    /// A new code was sent; the previous one no longer works.
    /// Optional: without it, ``onSignInResendCodeError(error:newState:)`` is called.
    /// Mirrors MSAL's `onSignInResendCodeCodeRequired(newState:sentTo:channelTargetType:codeLength:)`.
    func onSignInResendCodeCodeRequired(
        newState: SignInCodeRequiredState, sentTo: String, channelTargetType: LatchChannelType, codeLength: Int)
}

extension SignInResendCodeDelegate {
    /// Routes to ``onSignInResendCodeError(error:newState:)`` (not implemented).
    public func onSignInResendCodeCodeRequired(
        newState: SignInCodeRequiredState, sentTo: String, channelTargetType: LatchChannelType, codeLength: Int
    ) {
        onSignInResendCodeError(
            error: .delegateMethodNotImplemented(
                "onSignInResendCodeCodeRequired(newState:sentTo:channelTargetType:codeLength:)"),
            newState: nil)
    }
}

extension SignInCodeRequiredState {
    /// Sends a new code and reports to `delegate` on the main actor; see ``resendCode()``.
    /// Mirrors MSAL's `SignInCodeRequiredState.resendCode(delegate:)`.
    /// - Returns: the running work; cancelling it ends in ``LatchError/Code/userCanceled``.
    @discardableResult
    public func resendCode(delegate: any SignInResendCodeDelegate) -> Task<Void, Never> {
        DelegateDispatch.run {
            try await self.resendCode()
        } deliver: { outcome in
            switch outcome {
            case .success(let next):
                delegate.onSignInResendCodeCodeRequired(
                    newState: next, sentTo: next.delivery.sentTo, channelTargetType: next.delivery.channel,
                    codeLength: next.delivery.codeLength)
            case .failure(let error):
                delegate.onSignInResendCodeError(error: error, newState: error.leavesStateUsable ? self : nil)
            }
        }
    }
}
