import Foundation

/// Receives the outcome of ``MFARequiredState/requestChallenge(method:delegate:)``, on the main
/// actor, exactly once per call. Mirrors MSAL native auth's `MFARequestChallengeDelegate`.
@MainActor
public protocol MFARequestChallengeDelegate: AnyObject, Sendable {
    /// No code was sent. `newState` is the same state when it can be used again (a blocked method:
    /// choose another of ``MFARequiredState/authMethods``; a network error), else `nil`.
    /// Mirrors MSAL's `onMFARequestChallengeError(error:newState:)`.
    func onMFARequestChallengeError(error: LatchError, newState: MFARequiredState?)

    /// A code was sent; submit it with ``MFARequiredState/submitChallenge(challenge:delegate:)`` on
    /// `newState`. Optional: without it, ``onMFARequestChallengeError(error:newState:)`` is called.
    /// Mirrors MSAL's `onMFARequestChallengeVerificationRequired(newState:sentTo:channelTargetType:codeLength:)`.
    func onMFARequestChallengeVerificationRequired(
        newState: MFARequiredState, sentTo: String, channelTargetType: LatchChannelType, codeLength: Int)
}

extension MFARequestChallengeDelegate {
    /// Routes to ``onMFARequestChallengeError(error:newState:)`` (not implemented).
    public func onMFARequestChallengeVerificationRequired(
        newState: MFARequiredState, sentTo: String, channelTargetType: LatchChannelType, codeLength: Int
    ) {
        onMFARequestChallengeError(
            error: .delegateMethodNotImplemented(
                "onMFARequestChallengeVerificationRequired(newState:sentTo:channelTargetType:codeLength:)"),
            newState: nil)
    }
}

extension MFARequiredState {
    /// Sends a second-factor code and reports to `delegate` on the main actor; see
    /// ``requestChallenge(method:)``. Mirrors MSAL's `MFARequiredState.requestChallenge(authMethod:delegate:)`.
    /// - Returns: the running work; cancelling it ends in ``LatchError/Code/userCanceled``.
    @discardableResult
    public func requestChallenge(method: LatchAuthMethod? = nil, delegate: any MFARequestChallengeDelegate)
        -> Task<Void, Never>
    {
        DelegateDispatch.run {
            try await self.requestChallenge(method: method)
        } deliver: { outcome in
            switch outcome {
            case .success(let next):
                let delivery = next.delivery
                delegate.onMFARequestChallengeVerificationRequired(
                    newState: next, sentTo: delivery?.sentTo ?? "", channelTargetType: delivery?.channel ?? .email,
                    codeLength: delivery?.codeLength ?? 0)
            case .failure(let error):
                delegate.onMFARequestChallengeError(error: error, newState: error.leavesStateUsable ? self : nil)
            }
        }
    }
}
