import Foundation

/// Receives the outcome of ``RegisterStrongAuthVerificationRequiredState/submitChallenge(challenge:delegate:)``,
/// on the main actor, exactly once per call. Mirrors MSAL native auth's
/// `RegisterStrongAuthSubmitChallengeDelegate`; `onSignInCompleted(result:)` comes from
/// ``OnSignInCompletedDelegate``.
@MainActor
public protocol RegisterStrongAuthSubmitChallengeDelegate: OnSignInCompletedDelegate {
    /// The code was not accepted (e.g. ``LatchError/Code/invalidChallenge``). `newState` is the
    /// same state when it can be used again, else `nil`. Mirrors MSAL's
    /// `onRegisterStrongAuthSubmitChallengeError(error:newState:)`.
    func onRegisterStrongAuthSubmitChallengeError(error: LatchError, newState: RegisterStrongAuthVerificationRequiredState?)
}

extension RegisterStrongAuthVerificationRequiredState {
    /// Submits the code, which registers the method and signs in, and reports to `delegate` on the
    /// main actor; see ``submitChallenge(_:)``. Mirrors MSAL's
    /// `RegisterStrongAuthVerificationRequiredState.submitChallenge(challenge:delegate:)`.
    /// - Returns: the running work; cancelling it ends in ``LatchError/Code/userCanceled``.
    @discardableResult
    public func submitChallenge(challenge: String, delegate: any RegisterStrongAuthSubmitChallengeDelegate)
        -> Task<Void, Never>
    {
        DelegateDispatch.run {
            try await self.submitChallenge(challenge)
        } deliver: { outcome in
            switch outcome {
            case .success(.completed(let result)):
                DelegateCallback.deliver(
                    DelegateCallback.signInCompleted,
                    fallback: { delegate.onRegisterStrongAuthSubmitChallengeError(error: $0, newState: nil) }
                ) {
                    delegate.onSignInCompleted(result: result)
                }
            case .success(let step):
                delegate.onRegisterStrongAuthSubmitChallengeError(error: .unexpectedStep(step), newState: nil)
            case .failure(let error):
                delegate.onRegisterStrongAuthSubmitChallengeError(
                    error: error, newState: error.leavesStateUsable ? self : nil)
            }
        }
    }
}
