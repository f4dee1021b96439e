import Foundation

/// The attributes callback the sign-up step delegates share: MSAL's optional
/// `onSignUpAttributesRequired(attributes:newState:)`.
///
/// Declared once here, so one class can adopt ``SignUpVerifyCodeDelegate``,
/// ``SignUpPasswordRequiredDelegate`` and ``SignUpAttributesRequiredDelegate`` together. When a
/// delegate does not implement it, the error callback of the delegate protocol the call was made
/// with receives a ``LatchError/Code/internal`` error.
@MainActor
public protocol OnSignUpAttributesRequiredDelegate: AnyObject, Sendable {
    /// The tenant needs these attributes; submit them with
    /// ``SignUpAttributesRequiredState/submitAttributes(_:delegate:)``.
    /// Mirrors MSAL's `onSignUpAttributesRequired(attributes:newState:)`.
    func onSignUpAttributesRequired(attributes: [LatchRequiredAttribute], newState: SignUpAttributesRequiredState)
}

extension OnSignUpAttributesRequiredDelegate {
    /// Routes to the calling protocol's error callback (not implemented).
    public func onSignUpAttributesRequired(attributes: [LatchRequiredAttribute], newState: SignUpAttributesRequiredState) {
        DelegateCallback.notImplemented(DelegateCallback.signUpAttributesRequired)
    }
}
