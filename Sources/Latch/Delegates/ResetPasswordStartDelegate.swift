import Foundation

/// Receives the outcome of ``LatchClient/resetPassword(username:delegate:)``, on the main actor,
/// exactly once per call. Mirrors MSAL native auth's `ResetPasswordStartDelegate`.
@MainActor
public protocol ResetPasswordStartDelegate: AnyObject, Sendable {
    /// The reset could not start (``LatchError/Code/userNotFound``, …).
    /// Mirrors MSAL's `onResetPasswordStartError(error:)`.
    func onResetPasswordStartError(error: LatchError)

    /// A code was sent; submit it with ``ResetPasswordCodeRequiredState/submitCode(_:delegate:)``.
    /// Optional: without it, ``onResetPasswordStartError(error:)`` is called.
    /// Mirrors MSAL's `onResetPasswordCodeRequired(newState:sentTo:channelTargetType:codeLength:)`.
    func onResetPasswordCodeRequired(
        newState: ResetPasswordCodeRequiredState, sentTo: String, channelTargetType: LatchChannelType, codeLength: Int)
}

extension ResetPasswordStartDelegate {
    /// Routes to ``onResetPasswordStartError(error:)`` (not implemented).
    public func onResetPasswordCodeRequired(
        newState: ResetPasswordCodeRequiredState, sentTo: String, channelTargetType: LatchChannelType, codeLength: Int
    ) {
        onResetPasswordStartError(
            error: .delegateMethodNotImplemented(
                "onResetPasswordCodeRequired(newState:sentTo:channelTargetType:codeLength:)"))
    }
}

extension LatchClient {
    /// Starts a password reset and reports to `delegate` on the main actor; see
    /// ``resetPassword(username:correlationID:)``.
    /// Mirrors MSAL's `resetPassword(username:delegate:)`.
    /// - Returns: the running work; cancelling it ends in ``LatchError/Code/userCanceled``. The
    ///   delegate is held until its callback has run.
    @discardableResult
    public func resetPassword(
        username: String, correlationID: UUID? = nil, delegate: any ResetPasswordStartDelegate
    ) -> Task<Void, Never> {
        DelegateDispatch.run {
            try await self.resetPassword(username: username, correlationID: correlationID)
        } deliver: { outcome in
            switch outcome {
            case .success(.codeRequired(let state)):
                delegate.onResetPasswordCodeRequired(
                    newState: state, sentTo: state.delivery.sentTo,
                    channelTargetType: state.delivery.channel, codeLength: state.delivery.codeLength)
            case .success(let step):
                delegate.onResetPasswordStartError(error: .unexpectedStep(step))
            case .failure(let error):
                delegate.onResetPasswordStartError(error: error)
            }
        }
    }
}
