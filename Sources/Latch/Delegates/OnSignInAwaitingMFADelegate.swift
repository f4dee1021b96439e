import Foundation

/// The second-factor callback every sign-in delegate shares: MSAL's optional
/// `onSignInAwaitingMFA(newState:)`.
///
/// Declared once here, so one class can adopt ``SignInStartDelegate``, ``SignInVerifyCodeDelegate``,
/// ``SignInPasswordRequiredDelegate``, ``SignInAfterSignUpDelegate`` and
/// ``SignInAfterResetPasswordDelegate`` together. When a delegate does not implement it, the error
/// callback of the delegate protocol the call was made with receives a ``LatchError/Code/internal`` error.
@MainActor
public protocol OnSignInAwaitingMFADelegate: AnyObject, Sendable {
    /// The first factor was accepted and a second one is required: request a code with
    /// ``MFARequiredState/requestChallenge(method:delegate:)``. Mirrors MSAL's `onSignInAwaitingMFA(newState:)`.
    func onSignInAwaitingMFA(newState: MFARequiredState)
}

extension OnSignInAwaitingMFADelegate {
    /// Routes to the calling protocol's error callback (not implemented).
    public func onSignInAwaitingMFA(newState: MFARequiredState) {
        DelegateCallback.notImplemented(DelegateCallback.signInAwaitingMFA)
    }
}
