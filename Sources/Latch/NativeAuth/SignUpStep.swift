/// What a sign-up needs next: the one result of every call that starts or continues a sign-up
/// (``LatchClient/signUp(username:password:attributes:correlationID:)`` and the `submit…` calls of
/// its states).
///
/// New steps will be added as new cases; switch with `@unknown default` so that an app built
/// against this version keeps compiling.
public enum SignUpStep: Sendable {
    /// Submit the one-time code sent to the address (always the first step: the address is verified).
    case codeRequired(SignUpCodeRequiredState)
    /// Submit a password.
    case passwordRequired(SignUpPasswordRequiredState)
    /// Submit these attributes.
    case attributesRequired(SignUpAttributesRequiredState, required: [LatchRequiredAttribute])
    /// The account exists but is not signed in yet: sign in with ``SignInAfterSignUpState/signIn(scopes:)``,
    /// which asks for nothing again.
    case accountCreated(SignInAfterSignUpState)
}

extension SignUpStep: FlowStepOutcome {
    var outcomeName: String {
        switch self {
        case .codeRequired: "code_required"
        case .passwordRequired: "password_required"
        case .attributesRequired: "attributes_required"
        case .accountCreated: "account_created"
        }
    }
}
