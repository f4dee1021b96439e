import Foundation

/// Receives the outcome of ``ResetPasswordCodeRequiredState/resendCode(delegate:)``, on the main
/// actor, exactly once per call. Mirrors MSAL native auth's `ResetPasswordResendCodeDelegate`.
@MainActor
public protocol ResetPasswordResendCodeDelegate: AnyObject, Sendable {
    /// No new code was sent. `newState` is the same state when it can be used again, else `nil`.
    /// Mirrors MSAL's `onResetPasswordResendCodeError(error:newState:)`.
    func onResetPasswordResendCodeError(error: LatchError, newState: ResetPasswordCodeRequiredState?)

    /// A new code was sent; the previous one no longer works.
    /// Optional: without it, ``onResetPasswordResendCodeError(error:newState:)`` is called.
    /// Mirrors MSAL's `onResetPasswordResendCodeRequired(newState:sentTo:channelTargetType:codeLength:)`.
    func onResetPasswordResendCodeRequired(
        newState: ResetPasswordCodeRequiredState, sentTo: String, channelTargetType: LatchChannelType, codeLength: Int)
}

extension ResetPasswordResendCodeDelegate {
    /// Routes to ``onResetPasswordResendCodeError(error:newState:)`` (not implemented).
    public func onResetPasswordResendCodeRequired(
        newState: ResetPasswordCodeRequiredState, sentTo: String, channelTargetType: LatchChannelType, codeLength: Int
    ) {
        onResetPasswordResendCodeError(
            error: .delegateMethodNotImplemented(
                "onResetPasswordResendCodeRequired(newState:sentTo:channelTargetType:codeLength:)"),
            newState: nil)
    }
}

extension ResetPasswordCodeRequiredState {
    /// Sends a new code and reports to `delegate` on the main actor; see ``resendCode()``.
    /// Mirrors MSAL's `ResetPasswordCodeRequiredState.resendCode(delegate:)`.
    /// - Returns: the running work; cancelling it ends in ``LatchError/Code/userCanceled``.
    @discardableResult
    public func resendCode(delegate: any ResetPasswordResendCodeDelegate) -> Task<Void, Never> {
        DelegateDispatch.run {
            try await self.resendCode()
        } deliver: { outcome in
            switch outcome {
            case .success(let next):
                delegate.onResetPasswordResendCodeRequired(
                    newState: next, sentTo: next.delivery.sentTo, channelTargetType: next.delivery.channel,
                    codeLength: next.delivery.codeLength)
            case .failure(let error):
                delegate.onResetPasswordResendCodeError(error: error, newState: error.leavesStateUsable ? self : nil)
            }
        }
    }
}
