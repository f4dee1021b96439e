import Foundation

/// Receives the outcome of ``SignInAfterResetPasswordState/signIn(scopes:delegate:)``, on the main
/// actor, exactly once per call. Mirrors MSAL native auth's `SignInAfterResetPasswordDelegate`;
/// `onSignInCompleted(result:)`, `onSignInAwaitingMFA(newState:)` and
/// `onSignInStrongAuthMethodRegistration(authMethods:newState:)` come from
/// ``OnSignInCompletedDelegate``, ``OnSignInAwaitingMFADelegate`` and
/// ``OnSignInStrongAuthMethodRegistrationDelegate``.
@MainActor
public protocol SignInAfterResetPasswordDelegate: OnSignInCompletedDelegate, OnSignInAwaitingMFADelegate,
    OnSignInStrongAuthMethodRegistrationDelegate
{
    /// The sign-in after the reset failed. Mirrors MSAL's `onSignInAfterResetPasswordError(error:)`.
    func onSignInAfterResetPasswordError(error: LatchError)
}

extension SignInAfterResetPasswordState {
    /// Signs the account in and reports to `delegate` on the main actor; see ``signIn(scopes:)``.
    /// Mirrors MSAL's `SignInAfterResetPasswordState.signIn(scopes:delegate:)`.
    /// - Returns: the running work; cancelling it ends in ``LatchError/Code/userCanceled``.
    @discardableResult
    public func signIn(scopes: [String]? = nil, delegate: any SignInAfterResetPasswordDelegate) -> Task<Void, Never> {
        DelegateDispatch.signInAfterFlow({ try await self.signIn(scopes: scopes) }, delegate: delegate) {
            delegate.onSignInAfterResetPasswordError(error: $0)
        }
    }
}
