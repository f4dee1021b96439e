import Foundation

/// Receives the outcome of ``ResetPasswordRequiredState/submitPassword(_:delegate:)``, on the main
/// actor, exactly once per call. Mirrors MSAL native auth's `ResetPasswordRequiredDelegate`.
@MainActor
public protocol ResetPasswordRequiredDelegate: AnyObject, Sendable {
    /// The new password was not accepted (e.g. ``LatchError/Code/weakPassword``). `newState` is the
    /// state to try again with, else `nil`. Mirrors MSAL's `onResetPasswordRequiredError(error:newState:)`.
    func onResetPasswordRequiredError(error: LatchError, newState: ResetPasswordRequiredState?)

    /// The password is reset; sign in with ``SignInAfterResetPasswordState/signIn(scopes:delegate:)``.
    /// Optional: without it, ``onResetPasswordRequiredError(error:newState:)`` is called.
    /// Mirrors MSAL's `onResetPasswordCompleted(newState:)`.
    func onResetPasswordCompleted(newState: SignInAfterResetPasswordState)
}

extension ResetPasswordRequiredDelegate {
    /// Routes to ``onResetPasswordRequiredError(error:newState:)`` (not implemented).
    public func onResetPasswordCompleted(newState: SignInAfterResetPasswordState) {
        onResetPasswordRequiredError(
            error: .delegateMethodNotImplemented("onResetPasswordCompleted(newState:)"), newState: nil)
    }
}

extension ResetPasswordRequiredState {
    /// Sets the new password and reports to `delegate` on the main actor; see ``submitPassword(_:)``.
    /// Mirrors MSAL's `ResetPasswordRequiredState.submitPassword(password:delegate:)`.
    /// - Returns: the running work; cancelling it ends in ``LatchError/Code/userCanceled``.
    @discardableResult
    public func submitPassword(_ newPassword: String, delegate: any ResetPasswordRequiredDelegate) -> Task<Void, Never> {
        DelegateDispatch.run {
            try await self.submitPassword(newPassword)
        } deliver: { outcome in
            switch outcome {
            case .success(.passwordReset(let next)):
                delegate.onResetPasswordCompleted(newState: next)
            case .success(let step):
                delegate.onResetPasswordRequiredError(error: .unexpectedStep(step), newState: nil)
            case .failure(let error):
                delegate.onResetPasswordRequiredError(error: error, newState: error.leavesStateUsable ? self : nil)
            }
        }
    }
}
