import Foundation

/// Receives the outcome of ``SignInAfterSignUpState/signIn(scopes:delegate:)``, on the main actor,
/// exactly once per call. Mirrors MSAL native auth's `SignInAfterSignUpDelegate`;
/// `onSignInCompleted(result:)`, `onSignInAwaitingMFA(newState:)` and
/// `onSignInStrongAuthMethodRegistration(authMethods:newState:)` come from
/// ``OnSignInCompletedDelegate``, ``OnSignInAwaitingMFADelegate`` and
/// ``OnSignInStrongAuthMethodRegistrationDelegate``.
@MainActor
public protocol SignInAfterSignUpDelegate: OnSignInCompletedDelegate, OnSignInAwaitingMFADelegate,
    OnSignInStrongAuthMethodRegistrationDelegate
{
    /// The sign-in after the sign-up failed. Mirrors MSAL's `onSignInAfterSignUpError(error:)`.
    func onSignInAfterSignUpError(error: LatchError)
}

extension SignInAfterSignUpState {
    /// Signs the new account in and reports to `delegate` on the main actor; see ``signIn(scopes:)``.
    /// Mirrors MSAL's `SignInAfterSignUpState.signIn(scopes:delegate:)`.
    /// - Returns: the running work; cancelling it ends in ``LatchError/Code/userCanceled``.
    @discardableResult
    public func signIn(scopes: [String]? = nil, delegate: any SignInAfterSignUpDelegate) -> Task<Void, Never> {
        DelegateDispatch.signInAfterFlow({ try await self.signIn(scopes: scopes) }, delegate: delegate) {
            delegate.onSignInAfterSignUpError(error: $0)
        }
    }
}
