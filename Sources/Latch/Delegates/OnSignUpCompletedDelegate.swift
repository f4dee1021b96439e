import Foundation

/// The completion callback the sign-up step delegates share: MSAL's optional `onSignUpCompleted(newState:)`.
///
/// Declared once here, so one class can adopt ``SignUpVerifyCodeDelegate``,
/// ``SignUpPasswordRequiredDelegate`` and ``SignUpAttributesRequiredDelegate`` together. When a
/// delegate does not implement it, the error callback of the delegate protocol the call was made
/// with receives a ``LatchError/Code/internal`` error.
@MainActor
public protocol OnSignUpCompletedDelegate: AnyObject, Sendable {
    /// The account exists; sign in with ``SignInAfterSignUpState/signIn(scopes:delegate:)``.
    /// Mirrors MSAL's `onSignUpCompleted(newState:)`.
    func onSignUpCompleted(newState: SignInAfterSignUpState)
}

extension OnSignUpCompletedDelegate {
    /// Routes to the calling protocol's error callback (not implemented).
    public func onSignUpCompleted(newState: SignInAfterSignUpState) {
        DelegateCallback.notImplemented(DelegateCallback.signUpCompleted)
    }
}
