import Foundation

/// Receives the outcome of ``SignUpAttributesRequiredState/submitAttributes(_:delegate:)``, on the
/// main actor, exactly once per call. Mirrors MSAL native auth's `SignUpAttributesRequiredDelegate`;
/// `onSignUpCompleted` and `onSignUpAttributesRequired` (more attributes needed) come from
/// ``OnSignUpCompletedDelegate`` and ``OnSignUpAttributesRequiredDelegate``.
@MainActor
public protocol SignUpAttributesRequiredDelegate: OnSignUpCompletedDelegate, OnSignUpAttributesRequiredDelegate {
    /// The attributes could not be submitted. Mirrors MSAL's `onSignUpAttributesRequiredError(error:)`.
    func onSignUpAttributesRequiredError(error: LatchError)

    /// Some attributes failed validation; correct them and submit again on `newState`.
    /// Optional: without it, ``onSignUpAttributesRequiredError(error:)`` is called.
    /// Mirrors MSAL's `onSignUpAttributesInvalid(attributeNames:newState:)`.
    func onSignUpAttributesInvalid(attributeNames: [String], newState: SignUpAttributesRequiredState)
}

extension SignUpAttributesRequiredDelegate {
    /// Routes to ``onSignUpAttributesRequiredError(error:)`` (not implemented).
    public func onSignUpAttributesInvalid(attributeNames: [String], newState: SignUpAttributesRequiredState) {
        onSignUpAttributesRequiredError(
            error: .delegateMethodNotImplemented("onSignUpAttributesInvalid(attributeNames:newState:)"))
    }
}

extension SignUpAttributesRequiredState {
    /// Submits attributes and reports to `delegate` on the main actor; see ``submitAttributes(_:)``.
    /// Mirrors MSAL's `SignUpAttributesRequiredState.submitAttributes(attributes:delegate:)`.
    /// - Returns: the running work; cancelling it ends in ``LatchError/Code/userCanceled``.
    @discardableResult
    public func submitAttributes(_ attributes: [String: String], delegate: any SignUpAttributesRequiredDelegate)
        -> Task<Void, Never>
    {
        DelegateDispatch.run {
            try await self.submitAttributes(attributes)
        } deliver: { outcome in
            let fallback: @MainActor (LatchError) -> Void = { delegate.onSignUpAttributesRequiredError(error: $0) }
            switch outcome {
            case .success(.accountCreated(let next)):
                DelegateCallback.deliver(DelegateCallback.signUpCompleted, fallback: fallback) {
                    delegate.onSignUpCompleted(newState: next)
                }
            case .success(.attributesRequired(let next, let required)):
                DelegateCallback.deliver(DelegateCallback.signUpAttributesRequired, fallback: fallback) {
                    delegate.onSignUpAttributesRequired(attributes: required, newState: next)
                }
            case .success(let step):
                delegate.onSignUpAttributesRequiredError(error: .unexpectedStep(step))
            case .failure(let error) where error.code == .invalidAttributes:
                delegate.onSignUpAttributesInvalid(attributeNames: error.invalidAttributes, newState: self)
            case .failure(let error):
                delegate.onSignUpAttributesRequiredError(error: error)
            }
        }
    }
}
