/// What registering a strong authentication method needs next: the result of
/// ``RegisterStrongAuthState/challengeAuthMethod(parameters:)`` and
/// ``RegisterStrongAuthVerificationRequiredState/challengeAuthMethod(parameters:)``.
///
/// New steps will be added as new cases; switch with `@unknown default` so that an app built
/// against this version keeps compiling.
public enum RegisterStrongAuthStep: Sendable {
    /// A code was sent to the contact; submit it with
    /// ``RegisterStrongAuthVerificationRequiredState/submitChallenge(_:)``.
    case verificationRequired(RegisterStrongAuthVerificationRequiredState)
    /// The server already trusted the contact (`preverified`): the method is registered and the
    /// user signed in; the tokens are stored.
    case completed(LatchTokenResult)
}

extension RegisterStrongAuthStep: FlowStepOutcome {
    var outcomeName: String {
        switch self {
        case .verificationRequired: "verification_required"
        case .completed: "completed"
        }
    }
}
