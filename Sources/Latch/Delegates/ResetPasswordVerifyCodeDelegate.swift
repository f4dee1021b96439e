import Foundation

/// Receives the outcome of ``ResetPasswordCodeRequiredState/submitCode(_:delegate:)``, on the main
/// actor, exactly once per call. Mirrors MSAL native auth's `ResetPasswordVerifyCodeDelegate`.
@MainActor
public protocol ResetPasswordVerifyCodeDelegate: AnyObject, Sendable {
    /// The code was not accepted. `newState` is the same state when it can be used again (a wrong
    /// or expired code, a network error), else `nil`.
    /// Mirrors MSAL's `onResetPasswordVerifyCodeError(error:newState:)`.
    func onResetPasswordVerifyCodeError(error: LatchError, newState: ResetPasswordCodeRequiredState?)

    /// The code is verified; submit the new password with
    /// ``ResetPasswordRequiredState/submitPassword(_:delegate:)``.
    /// Optional: without it, ``onResetPasswordVerifyCodeError(error:newState:)`` is called.
    /// Mirrors MSAL's `onPasswordRequired(newState:)`.
    func onPasswordRequired(newState: ResetPasswordRequiredState)
}

extension ResetPasswordVerifyCodeDelegate {
    /// Routes to ``onResetPasswordVerifyCodeError(error:newState:)`` (not implemented).
    public func onPasswordRequired(newState: ResetPasswordRequiredState) {
        onResetPasswordVerifyCodeError(
            error: .delegateMethodNotImplemented("onPasswordRequired(newState:)"), newState: nil)
    }
}

extension ResetPasswordCodeRequiredState {
    /// Submits the e-mail code and reports to `delegate` on the main actor; see ``submitCode(_:)``.
    /// Mirrors MSAL's `ResetPasswordCodeRequiredState.submitCode(code:delegate:)`.
    /// - Returns: the running work; cancelling it ends in ``LatchError/Code/userCanceled``.
    @discardableResult
    public func submitCode(_ code: String, delegate: any ResetPasswordVerifyCodeDelegate) -> Task<Void, Never> {
        DelegateDispatch.run {
            try await self.submitCode(code)
        } deliver: { outcome in
            switch outcome {
            case .success(.passwordRequired(let next)):
                delegate.onPasswordRequired(newState: next)
            case .success(let step):
                delegate.onResetPasswordVerifyCodeError(error: .unexpectedStep(step), newState: nil)
            case .failure(let error):
                delegate.onResetPasswordVerifyCodeError(error: error, newState: error.leavesStateUsable ? self : nil)
            }
        }
    }
}
