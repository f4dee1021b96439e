import Foundation

/// The registration callback every sign-in delegate shares: MSAL's optional
/// `onSignInStrongAuthMethodRegistration(authMethods:newState:)`.
///
/// Declared once here, so one class can adopt every sign-in delegate together. When a delegate
/// does not implement it, the error callback of the delegate protocol the call was made with
/// receives a ``LatchError/Code/internal`` error.
@MainActor
public protocol OnSignInStrongAuthMethodRegistrationDelegate: AnyObject, Sendable {
    /// The first factor was accepted, but the user must register a strong authentication method
    /// first: pick one of `authMethods` and call
    /// ``RegisterStrongAuthState/challengeAuthMethod(parameters:delegate:)``. Mirrors MSAL's
    /// `onSignInStrongAuthMethodRegistration(authMethods:newState:)`.
    func onSignInStrongAuthMethodRegistration(authMethods: [LatchAuthMethod], newState: RegisterStrongAuthState)
}

extension OnSignInStrongAuthMethodRegistrationDelegate {
    /// Routes to the calling protocol's error callback (not implemented).
    public func onSignInStrongAuthMethodRegistration(authMethods: [LatchAuthMethod], newState: RegisterStrongAuthState) {
        DelegateCallback.notImplemented(DelegateCallback.signInStrongAuthMethodRegistration)
    }
}
