import Foundation

/// Receives the outcome of ``RegisterStrongAuthState/challengeAuthMethod(parameters:delegate:)``
/// and ``RegisterStrongAuthVerificationRequiredState/challengeAuthMethod(parameters:delegate:)``, on
/// the main actor, exactly once per call. Mirrors MSAL native auth's
/// `RegisterStrongAuthChallengeDelegate`; `onSignInCompleted(result:)` (the contact was already
/// verified, so the user is signed in at once) comes from ``OnSignInCompletedDelegate``.
@MainActor
public protocol RegisterStrongAuthChallengeDelegate: OnSignInCompletedDelegate {
    /// No code was sent (e.g. ``LatchError/Code/invalidInput``,
    /// ``LatchError/Code/verificationContactBlocked``). `newState` is the state to try again with
    /// (another contact or method), else `nil`. Mirrors MSAL's
    /// `onRegisterStrongAuthChallengeError(error:newState:)`.
    func onRegisterStrongAuthChallengeError(error: LatchError, newState: RegisterStrongAuthState?)

    /// A code was sent to the contact; submit it with
    /// ``RegisterStrongAuthVerificationRequiredState/submitChallenge(challenge:delegate:)`` on
    /// `result.newState`. Optional: without it, ``onRegisterStrongAuthChallengeError(error:newState:)``
    /// is called. Mirrors MSAL's `onRegisterStrongAuthVerificationRequired(result:)`.
    func onRegisterStrongAuthVerificationRequired(result: RegisterStrongAuthVerificationRequiredResult)
}

extension RegisterStrongAuthChallengeDelegate {
    /// Routes to ``onRegisterStrongAuthChallengeError(error:newState:)`` (not implemented).
    public func onRegisterStrongAuthVerificationRequired(result: RegisterStrongAuthVerificationRequiredResult) {
        onRegisterStrongAuthChallengeError(
            error: .delegateMethodNotImplemented("onRegisterStrongAuthVerificationRequired(result:)"), newState: nil)
    }
}

extension RegisterStrongAuthState {
    /// Registers a strong authentication method and reports to `delegate` on the main actor; see
    /// ``challengeAuthMethod(parameters:)``. Mirrors MSAL's
    /// `RegisterStrongAuthState.challengeAuthMethod(parameters:delegate:)`.
    /// - Returns: the running work; cancelling it ends in ``LatchError/Code/userCanceled``.
    @discardableResult
    public func challengeAuthMethod(
        parameters: LatchChallengeAuthMethodParameters, delegate: any RegisterStrongAuthChallengeDelegate
    ) -> Task<Void, Never> {
        StrongAuthRegistration.deliverChallenge(
            { try await self.challengeAuthMethod(parameters: parameters) }, retryState: self, delegate: delegate)
    }
}

extension RegisterStrongAuthVerificationRequiredState {
    /// Sends a new code, to the same or another contact, and reports to `delegate` on the main
    /// actor; see ``challengeAuthMethod(parameters:)``. Mirrors MSAL's
    /// `RegisterStrongAuthVerificationRequiredState.challengeAuthMethod(parameters:delegate:)`.
    /// - Returns: the running work; cancelling it ends in ``LatchError/Code/userCanceled``.
    @discardableResult
    public func challengeAuthMethod(
        parameters: LatchChallengeAuthMethodParameters, delegate: any RegisterStrongAuthChallengeDelegate
    ) -> Task<Void, Never> {
        StrongAuthRegistration.deliverChallenge(
            { try await self.challengeAuthMethod(parameters: parameters) }, retryState: registerState, delegate: delegate)
    }
}

extension StrongAuthRegistration {
    /// Runs a `register/v1.0/challenge` call and reports it: the state to submit the code on, the
    /// finished sign-in of a preverified contact, or the error with `retryState` when it can be
    /// used again.
    @discardableResult
    static func deliverChallenge(
        _ operation: @escaping @Sendable () async throws -> RegisterStrongAuthStep, retryState: RegisterStrongAuthState,
        delegate: any RegisterStrongAuthChallengeDelegate
    ) -> Task<Void, Never> {
        DelegateDispatch.run(operation) { outcome in
            switch outcome {
            case .success(.verificationRequired(let state)):
                delegate.onRegisterStrongAuthVerificationRequired(
                    result: RegisterStrongAuthVerificationRequiredResult(newState: state))
            case .success(.completed(let result)):
                DelegateCallback.deliver(
                    DelegateCallback.signInCompleted,
                    fallback: { delegate.onRegisterStrongAuthChallengeError(error: $0, newState: nil) }
                ) {
                    delegate.onSignInCompleted(result: result)
                }
            case .failure(let error):
                delegate.onRegisterStrongAuthChallengeError(
                    error: error, newState: error.leavesStateUsable ? retryState : nil)
            }
        }
    }
}
