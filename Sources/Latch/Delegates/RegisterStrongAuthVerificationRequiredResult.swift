/// What ``RegisterStrongAuthChallengeDelegate/onRegisterStrongAuthVerificationRequired(result:)``
/// receives: the state to submit the code on, and where the code went. Mirrors MSAL's
/// `MSALNativeAuthRegisterStrongAuthVerificationRequiredResult`.
public struct RegisterStrongAuthVerificationRequiredResult: Sendable {
    /// Submit the code with ``RegisterStrongAuthVerificationRequiredState/submitChallenge(challenge:delegate:)``.
    public let newState: RegisterStrongAuthVerificationRequiredState

    /// The contact the code went to.
    public var sentTo: String { newState.delivery.sentTo }
    /// The channel the code went through.
    public var channelTargetType: LatchChannelType { newState.delivery.channel }
    /// Digits in the code.
    public var codeLength: Int { newState.delivery.codeLength }
}
