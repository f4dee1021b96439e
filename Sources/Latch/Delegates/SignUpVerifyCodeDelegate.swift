import Foundation

/// Receives the outcome of ``SignUpCodeRequiredState/submitCode(_:delegate:)``, on the main actor,
/// exactly once per call. Mirrors MSAL native auth's `SignUpVerifyCodeDelegate`; `onSignUpCompleted`
/// and `onSignUpAttributesRequired` come from ``OnSignUpCompletedDelegate`` and
/// ``OnSignUpAttributesRequiredDelegate``.
@MainActor
public protocol SignUpVerifyCodeDelegate: OnSignUpCompletedDelegate, OnSignUpAttributesRequiredDelegate {
    /// The code was not accepted. `newState` is the same state when it can be used again (a wrong
    /// or expired code, a network error), else `nil`. Mirrors MSAL's `onSignUpVerifyCodeError(error:newState:)`.
    func onSignUpVerifyCodeError(error: LatchError, newState: SignUpCodeRequiredState?)

    /// The account needs a password; submit it with ``SignUpPasswordRequiredState/submitPassword(_:delegate:)``.
    /// Optional: without it, ``onSignUpVerifyCodeError(error:newState:)`` is called.
    /// Mirrors MSAL's `onSignUpPasswordRequired(newState:)`.
    func onSignUpPasswordRequired(newState: SignUpPasswordRequiredState)
}

extension SignUpVerifyCodeDelegate {
    /// Routes to ``onSignUpVerifyCodeError(error:newState:)`` (not implemented).
    public func onSignUpPasswordRequired(newState: SignUpPasswordRequiredState) {
        onSignUpVerifyCodeError(
            error: .delegateMethodNotImplemented("onSignUpPasswordRequired(newState:)"), newState: nil)
    }
}

extension SignUpCodeRequiredState {
    /// Submits the e-mail code and reports to `delegate` on the main actor; see ``submitCode(_:)``.
    /// Mirrors MSAL's `SignUpCodeRequiredState.submitCode(code:delegate:)`.
    /// - Returns: the running work; cancelling it ends in ``LatchError/Code/userCanceled``.
    @discardableResult
    public func submitCode(_ code: String, delegate: any SignUpVerifyCodeDelegate) -> Task<Void, Never> {
        DelegateDispatch.run {
            try await self.submitCode(code)
        } deliver: { outcome in
            let fallback: @MainActor (LatchError) -> Void = { delegate.onSignUpVerifyCodeError(error: $0, newState: nil) }
            switch outcome {
            case .success(.accountCreated(let next)):
                DelegateCallback.deliver(DelegateCallback.signUpCompleted, fallback: fallback) {
                    delegate.onSignUpCompleted(newState: next)
                }
            case .success(.passwordRequired(let next)):
                delegate.onSignUpPasswordRequired(newState: next)
            case .success(.attributesRequired(let next, let required)):
                DelegateCallback.deliver(DelegateCallback.signUpAttributesRequired, fallback: fallback) {
                    delegate.onSignUpAttributesRequired(attributes: required, newState: next)
                }
            case .success(.codeRequired(let next)):
                delegate.onSignUpVerifyCodeError(error: .unexpectedStep(SignUpStep.codeRequired(next)), newState: nil)
            case .failure(let error):
                delegate.onSignUpVerifyCodeError(error: error, newState: error.leavesStateUsable ? self : nil)
            }
        }
    }
}
