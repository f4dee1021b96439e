/// What a sign-in needs next: the one result of every call that starts or continues a sign-in
/// (``LatchClient/signIn(username:password:scopes:correlationID:)``, ``SignInCodeRequiredState/submitCode(_:)``,
/// ``SignInPasswordRequiredState/submitPassword(_:)``, and the sign-in that ends a sign-up or a
/// password reset).
///
/// New steps (a second factor, registering a strong authentication method) will be added as new
/// cases; switch with `@unknown default` so that an app built against this version keeps compiling.
///
/// ```swift
/// switch try await client.signIn(username: email, password: password) {
/// case .completed(let result): show(result.account)
/// case .codeRequired(let state): askForCode(state)
/// case .passwordRequired(let state): askForPassword(state)
/// @unknown default: continueInBrowser()
/// }
/// ```
public enum SignInStep: Sendable {
    /// Signed in; the tokens are stored.
    case completed(LatchTokenResult)
    /// Submit the one-time code sent to the user.
    case codeRequired(SignInCodeRequiredState)
    /// Submit the password.
    case passwordRequired(SignInPasswordRequiredState)
}

extension SignInStep: FlowStepOutcome {
    var outcomeName: String {
        switch self {
        case .completed: "completed"
        case .codeRequired: "code_required"
        case .passwordRequired: "password_required"
        }
    }
}
