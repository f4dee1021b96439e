import Foundation

/// Receives the outcome of ``SignInCodeRequiredState/submitCode(_:delegate:)``, on the main actor,
/// exactly once per call. Mirrors MSAL native auth's `SignInVerifyCodeDelegate`;
/// `onSignInCompleted(result:)`, `onSignInAwaitingMFA(newState:)` and
/// `onSignInStrongAuthMethodRegistration(authMethods:newState:)` come from
/// ``OnSignInCompletedDelegate``, ``OnSignInAwaitingMFADelegate`` and
/// ``OnSignInStrongAuthMethodRegistrationDelegate``.
@MainActor
public protocol SignInVerifyCodeDelegate: OnSignInCompletedDelegate, OnSignInAwaitingMFADelegate,
    OnSignInStrongAuthMethodRegistrationDelegate
{
    /// The code was not accepted. `newState` is the same state when it can be used again (a wrong
    /// or expired code, a network error), else `nil`. Mirrors MSAL's `onSignInVerifyCodeError(error:newState:)`.
    func onSignInVerifyCodeError(error: LatchError, newState: SignInCodeRequiredState?)
}

extension SignInCodeRequiredState {
    /// Submits the e-mail code and reports to `delegate` on the main actor; see ``submitCode(_:)``.
    /// Mirrors MSAL's `SignInCodeRequiredState.submitCode(code:delegate:)`.
    /// - Returns: the running work; cancelling it ends in ``LatchError/Code/userCanceled``.
    @discardableResult
    public func submitCode(_ code: String, delegate: any SignInVerifyCodeDelegate) -> Task<Void, Never> {
        DelegateDispatch.run {
            try await self.submitCode(code)
        } deliver: { outcome in
            switch outcome {
            case .success(let step):
                DelegateCallback.signInOutcome(step, delegate: delegate) {
                    delegate.onSignInVerifyCodeError(error: $0, newState: nil)
                }
            case .failure(let error):
                delegate.onSignInVerifyCodeError(error: error, newState: error.leavesStateUsable ? self : nil)
            }
        }
    }
}
