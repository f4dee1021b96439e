import Foundation

/// Receives the outcome of ``LatchClient/signIn(username:password:scopes:claims:correlationID:delegate:)``,
/// on the main actor, exactly once per call. Mirrors MSAL native auth's `SignInStartDelegate`;
/// `onSignInCompleted(result:)`, `onSignInAwaitingMFA(newState:)` and
/// `onSignInStrongAuthMethodRegistration(authMethods:newState:)` come from
/// ``OnSignInCompletedDelegate``, ``OnSignInAwaitingMFADelegate`` and
/// ``OnSignInStrongAuthMethodRegistrationDelegate``.
@MainActor
public protocol SignInStartDelegate: OnSignInCompletedDelegate, OnSignInAwaitingMFADelegate,
    OnSignInStrongAuthMethodRegistrationDelegate
{
    /// The sign-in failed (``LatchError/Code/userNotFound``, ``LatchError/Code/wrongPassword``, …).
    /// Mirrors MSAL's `onSignInStartError(error:)`.
    func onSignInStartError(error: LatchError)

    /// A code was sent; submit it with ``SignInCodeRequiredState/submitCode(_:delegate:)``.
    /// Optional: without it, ``onSignInStartError(error:)`` is called.
    /// Mirrors MSAL's `onSignInCodeRequired(newState:sentTo:channelTargetType:codeLength:)`.
    func onSignInCodeRequired(
        newState: SignInCodeRequiredState, sentTo: String, channelTargetType: LatchChannelType, codeLength: Int)

    /// The password is needed (none was passed); submit it with
    /// ``SignInPasswordRequiredState/submitPassword(_:delegate:)``.
    /// Optional: without it, ``onSignInStartError(error:)`` is called.
    /// Mirrors MSAL's `onSignInPasswordRequired(newState:)`.
    func onSignInPasswordRequired(newState: SignInPasswordRequiredState)
}

extension SignInStartDelegate {
    /// Routes to ``onSignInStartError(error:)`` (not implemented).
    public func onSignInCodeRequired(
        newState: SignInCodeRequiredState, sentTo: String, channelTargetType: LatchChannelType, codeLength: Int
    ) {
        onSignInStartError(
            error: .delegateMethodNotImplemented("onSignInCodeRequired(newState:sentTo:channelTargetType:codeLength:)"))
    }

    /// Routes to ``onSignInStartError(error:)`` (not implemented).
    public func onSignInPasswordRequired(newState: SignInPasswordRequiredState) {
        onSignInStartError(error: .delegateMethodNotImplemented("onSignInPasswordRequired(newState:)"))
    }
}

extension LatchClient {
    /// Starts a sign-in and reports to `delegate` on the main actor; see
    /// ``signIn(username:password:scopes:claims:correlationID:)`` for the parameters.
    /// Mirrors MSAL's `signIn(username:password:scopes:delegate:)`.
    /// - Returns: the running work; cancelling it ends in ``LatchError/Code/userCanceled``. The
    ///   delegate is held until its callback has run.
    @discardableResult
    public func signIn(
        username: String, password: String? = nil, scopes: [String]? = nil, claims: String? = nil,
        correlationID: UUID? = nil, delegate: any SignInStartDelegate
    ) -> Task<Void, Never> {
        DelegateDispatch.run {
            try await self.signIn(
                username: username, password: password, scopes: scopes, claims: claims, correlationID: correlationID)
        } deliver: { outcome in
            switch outcome {
            case .success(.codeRequired(let state)):
                delegate.onSignInCodeRequired(
                    newState: state, sentTo: state.delivery.sentTo,
                    channelTargetType: state.delivery.channel, codeLength: state.delivery.codeLength)
            case .success(.passwordRequired(let state)):
                delegate.onSignInPasswordRequired(newState: state)
            case .success(let step):
                DelegateCallback.signInOutcome(step, delegate: delegate) { delegate.onSignInStartError(error: $0) }
            case .failure(let error):
                delegate.onSignInStartError(error: error)
            }
        }
    }
}
