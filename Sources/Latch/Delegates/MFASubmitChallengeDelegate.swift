import Foundation

/// Receives the outcome of ``MFARequiredState/submitChallenge(challenge:delegate:)``, on the main
/// actor, exactly once per call. Mirrors MSAL native auth's `MFASubmitChallengeDelegate`;
/// `onSignInCompleted(result:)` comes from ``OnSignInCompletedDelegate``.
@MainActor
public protocol MFASubmitChallengeDelegate: OnSignInCompletedDelegate {
    /// The code was not accepted (e.g. ``LatchError/Code/invalidChallenge``). `newState` is the same
    /// state when it can be used again, else `nil`. Mirrors MSAL's `onMFASubmitChallengeError(error:newState:)`.
    func onMFASubmitChallengeError(error: LatchError, newState: MFARequiredState?)
}

extension MFARequiredState {
    /// Submits the second-factor code and reports to `delegate` on the main actor; see
    /// ``submitChallenge(_:)``. Mirrors MSAL's `MFARequiredState.submitChallenge(challenge:delegate:)`.
    /// - Returns: the running work; cancelling it ends in ``LatchError/Code/userCanceled``.
    @discardableResult
    public func submitChallenge(challenge: String, delegate: any MFASubmitChallengeDelegate) -> Task<Void, Never> {
        DelegateDispatch.run {
            try await self.submitChallenge(challenge)
        } deliver: { outcome in
            switch outcome {
            case .success(.completed(let result)):
                DelegateCallback.deliver(
                    DelegateCallback.signInCompleted, fallback: { delegate.onMFASubmitChallengeError(error: $0, newState: nil) }
                ) {
                    delegate.onSignInCompleted(result: result)
                }
            case .success(let step):
                delegate.onMFASubmitChallengeError(error: .unexpectedStep(step), newState: nil)
            case .failure(let error):
                delegate.onMFASubmitChallengeError(error: error, newState: error.leavesStateUsable ? self : nil)
            }
        }
    }
}
