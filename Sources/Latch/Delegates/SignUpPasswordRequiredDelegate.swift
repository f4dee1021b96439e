import Foundation

/// Receives the outcome of ``SignUpPasswordRequiredState/submitPassword(_:delegate:)``, on the main
/// actor, exactly once per call. Mirrors MSAL native auth's `SignUpPasswordRequiredDelegate`;
/// `onSignUpCompleted` and `onSignUpAttributesRequired` come from ``OnSignUpCompletedDelegate`` and
/// ``OnSignUpAttributesRequiredDelegate``.
@MainActor
public protocol SignUpPasswordRequiredDelegate: OnSignUpCompletedDelegate, OnSignUpAttributesRequiredDelegate {
    /// The password was not accepted (e.g. ``LatchError/Code/weakPassword``). `newState` is the state
    /// to submit another password with, else `nil`. Mirrors MSAL's `onSignUpPasswordRequiredError(error:newState:)`.
    func onSignUpPasswordRequiredError(error: LatchError, newState: SignUpPasswordRequiredState?)
}

extension SignUpPasswordRequiredState {
    /// Submits the password and reports to `delegate` on the main actor; see ``submitPassword(_:)``.
    /// Mirrors MSAL's `SignUpPasswordRequiredState.submitPassword(password:delegate:)`.
    /// - Returns: the running work; cancelling it ends in ``LatchError/Code/userCanceled``.
    @discardableResult
    public func submitPassword(_ password: String, delegate: any SignUpPasswordRequiredDelegate) -> Task<Void, Never> {
        DelegateDispatch.run {
            try await self.submitPassword(password)
        } deliver: { outcome in
            let fallback: @MainActor (LatchError) -> Void = {
                delegate.onSignUpPasswordRequiredError(error: $0, newState: nil)
            }
            switch outcome {
            case .success(.accountCreated(let next)):
                DelegateCallback.deliver(DelegateCallback.signUpCompleted, fallback: fallback) {
                    delegate.onSignUpCompleted(newState: next)
                }
            case .success(.attributesRequired(let next, let required)):
                DelegateCallback.deliver(DelegateCallback.signUpAttributesRequired, fallback: fallback) {
                    delegate.onSignUpAttributesRequired(attributes: required, newState: next)
                }
            case .success(.passwordRequired(let next)):
                delegate.onSignUpPasswordRequiredError(error: .unexpectedStep(SignUpStep.passwordRequired(next)), newState: next)
            case .success(.codeRequired(let next)):
                delegate.onSignUpPasswordRequiredError(error: .unexpectedStep(SignUpStep.codeRequired(next)), newState: nil)
            case .failure(let error):
                delegate.onSignUpPasswordRequiredError(error: error, newState: error.leavesStateUsable ? self : nil)
            }
        }
    }
}
