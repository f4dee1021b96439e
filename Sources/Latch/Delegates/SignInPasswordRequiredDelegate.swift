import Foundation

/// Receives the outcome of ``SignInPasswordRequiredState/submitPassword(_:delegate:)``, on the main
/// actor, exactly once per call. Mirrors MSAL native auth's `SignInPasswordRequiredDelegate`;
/// `onSignInCompleted(result:)`, `onSignInAwaitingMFA(newState:)` and
/// `onSignInStrongAuthMethodRegistration(authMethods:newState:)` come from
/// ``OnSignInCompletedDelegate``, ``OnSignInAwaitingMFADelegate`` and
/// ``OnSignInStrongAuthMethodRegistrationDelegate``.
@MainActor
public protocol SignInPasswordRequiredDelegate: OnSignInCompletedDelegate, OnSignInAwaitingMFADelegate,
    OnSignInStrongAuthMethodRegistrationDelegate
{
    /// The password was not accepted (e.g. ``LatchError/Code/wrongPassword``). `newState` is the
    /// state to try again with, else `nil`. Mirrors MSAL's `onSignInPasswordRequiredError(error:newState:)`.
    func onSignInPasswordRequiredError(error: LatchError, newState: SignInPasswordRequiredState?)
}

extension SignInPasswordRequiredState {
    /// Submits the password and reports to `delegate` on the main actor; see ``submitPassword(_:)``.
    /// Mirrors MSAL's `SignInPasswordRequiredState.submitPassword(password:delegate:)`.
    /// - Returns: the running work; cancelling it ends in ``LatchError/Code/userCanceled``.
    @discardableResult
    public func submitPassword(_ password: String, delegate: any SignInPasswordRequiredDelegate) -> Task<Void, Never> {
        DelegateDispatch.run {
            try await self.submitPassword(password)
        } deliver: { outcome in
            switch outcome {
            case .success(let step):
                DelegateCallback.signInOutcome(step, delegate: delegate) {
                    delegate.onSignInPasswordRequiredError(error: $0, newState: nil)
                }
            case .failure(let error):
                delegate.onSignInPasswordRequiredError(error: error, newState: error.leavesStateUsable ? self : nil)
            }
        }
    }
}
