/// What a password reset needs next: the one result of every call that starts or continues a
/// reset (``LatchClient/resetPassword(username:correlationID:)`` and the `submit…` calls of its states).
///
/// New steps will be added as new cases; switch with `@unknown default` so that an app built
/// against this version keeps compiling.
public enum ResetPasswordStep: Sendable {
    /// Submit the one-time code sent to the address.
    case codeRequired(ResetPasswordCodeRequiredState)
    /// Submit the new password.
    case passwordRequired(ResetPasswordRequiredState)
    /// The password is changed (every other session of the account ended) but the user is not
    /// signed in yet: sign in with ``SignInAfterResetPasswordState/signIn(scopes:)``, which asks for
    /// nothing again.
    case passwordReset(SignInAfterResetPasswordState)
}

extension ResetPasswordStep: FlowStepOutcome {
    var outcomeName: String {
        switch self {
        case .codeRequired: "code_required"
        case .passwordRequired: "password_required"
        case .passwordReset: "password_reset"
        }
    }
}
