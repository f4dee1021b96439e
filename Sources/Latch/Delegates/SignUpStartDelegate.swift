import Foundation

/// Receives the outcome of ``LatchClient/signUp(username:password:attributes:delegate:)``, on the
/// main actor, exactly once per call. Mirrors MSAL native auth's `SignUpStartDelegate`.
@MainActor
public protocol SignUpStartDelegate: AnyObject, Sendable {
    /// The sign-up could not start (``LatchError/Code/userAlreadyExists``, ``LatchError/Code/weakPassword``, …).
    /// Mirrors MSAL's `onSignUpStartError(error:)`.
    func onSignUpStartError(error: LatchError)

    /// A code was sent; submit it with ``SignUpCodeRequiredState/submitCode(_:delegate:)``.
    /// Optional: without it, ``onSignUpStartError(error:)`` is called.
    /// Mirrors MSAL's `onSignUpCodeRequired(newState:sentTo:channelTargetType:codeLength:)`.
    func onSignUpCodeRequired(
        newState: SignUpCodeRequiredState, sentTo: String, channelTargetType: LatchChannelType, codeLength: Int)

    /// The attributes passed to the sign-up failed validation.
    /// Optional: without it, ``onSignUpStartError(error:)`` is called.
    /// Mirrors MSAL's `onSignUpAttributesInvalid(attributeNames:)`.
    func onSignUpAttributesInvalid(attributeNames: [String])
}

extension SignUpStartDelegate {
    /// Routes to ``onSignUpStartError(error:)`` (not implemented).
    public func onSignUpCodeRequired(
        newState: SignUpCodeRequiredState, sentTo: String, channelTargetType: LatchChannelType, codeLength: Int
    ) {
        onSignUpStartError(
            error: .delegateMethodNotImplemented("onSignUpCodeRequired(newState:sentTo:channelTargetType:codeLength:)"))
    }

    /// Routes to ``onSignUpStartError(error:)`` (not implemented).
    public func onSignUpAttributesInvalid(attributeNames: [String]) {
        onSignUpStartError(error: .delegateMethodNotImplemented("onSignUpAttributesInvalid(attributeNames:)"))
    }
}

extension LatchClient {
    /// Starts a sign-up and reports to `delegate` on the main actor; see
    /// ``signUp(username:password:attributes:correlationID:)`` for the parameters.
    /// Mirrors MSAL's `signUp(username:password:attributes:delegate:)`.
    /// - Returns: the running work; cancelling it ends in ``LatchError/Code/userCanceled``. The
    ///   delegate is held until its callback has run.
    @discardableResult
    public func signUp(
        username: String, password: String? = nil, attributes: [String: String] = [:], correlationID: UUID? = nil,
        delegate: any SignUpStartDelegate
    ) -> Task<Void, Never> {
        DelegateDispatch.run {
            try await self.signUp(username: username, password: password, attributes: attributes, correlationID: correlationID)
        } deliver: { outcome in
            switch outcome {
            case .success(.codeRequired(let state)):
                delegate.onSignUpCodeRequired(
                    newState: state, sentTo: state.delivery.sentTo,
                    channelTargetType: state.delivery.channel, codeLength: state.delivery.codeLength)
            case .success(let step):
                delegate.onSignUpStartError(error: .unexpectedStep(step))
            case .failure(let error) where error.code == .invalidAttributes:
                delegate.onSignUpAttributesInvalid(attributeNames: error.invalidAttributes)
            case .failure(let error):
                delegate.onSignUpStartError(error: error)
            }
        }
    }
}
