import Foundation

/// The completion callback every sign-in delegate shares: MSAL's optional `onSignInCompleted(result:)`.
///
/// Declared once here, so one class can adopt ``SignInStartDelegate``, ``SignInVerifyCodeDelegate``,
/// ``SignInPasswordRequiredDelegate``, ``SignInAfterSignUpDelegate`` and
/// ``SignInAfterResetPasswordDelegate`` together. When a delegate does not implement it, the error
/// callback of the delegate protocol the call was made with receives a ``LatchError/Code/internal`` error.
@MainActor
public protocol OnSignInCompletedDelegate: AnyObject, Sendable {
    /// The user is signed in; the tokens are stored. Mirrors MSAL's `onSignInCompleted(result:)`.
    func onSignInCompleted(result: LatchTokenResult)
}

extension OnSignInCompletedDelegate {
    /// Routes to the calling protocol's error callback (not implemented).
    public func onSignInCompleted(result: LatchTokenResult) {
        DelegateCallback.notImplemented(DelegateCallback.signInCompleted)
    }
}
