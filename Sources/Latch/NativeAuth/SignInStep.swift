/// What a sign-in needs next: the one result of every call that starts or continues a sign-in
/// (``LatchClient/signIn(username:password:scopes:claims:correlationID:)``,
/// ``SignInCodeRequiredState/submitCode(_:)``, ``SignInPasswordRequiredState/submitPassword(_:)``,
/// the sign-in that ends a sign-up or a password reset, the second factor and the step-up).
///
/// New steps will be added as new cases; switch with `@unknown default` so that an app built
/// against this version keeps compiling.
///
/// ```swift
/// switch try await client.signIn(username: email, password: password) {
/// case .completed(let result): show(result.account)
/// case .codeRequired(let state): askForCode(state)
/// case .passwordRequired(let state): askForPassword(state)
/// case .awaitingMFA(let state): askForSecondFactor(try await state.requestChallenge())
/// case .strongAuthMethodRegistrationRequired(let methods, let state): askForContact(methods, state)
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
    /// The first factor was accepted; a second one is required (the server answered `mfa_required`,
    /// which it does only for a client configured with ``LatchConfiguration/Capability/mfaRequired``).
    /// Request a code with ``MFARequiredState/requestChallenge(method:)``, then submit it with
    /// ``MFARequiredState/submitChallenge(_:)``. Mirrors MSAL's `onSignInAwaitingMFA`.
    case awaitingMFA(MFARequiredState)
    /// The first factor was accepted, but the user has no strong authentication method yet and must
    /// register one of `authMethods` (the server answered `registration_required`, which it does
    /// only for a client configured with ``LatchConfiguration/Capability/registrationRequired``):
    /// ``RegisterStrongAuthState/challengeAuthMethod(parameters:)``. Mirrors MSAL's
    /// `onSignInStrongAuthMethodRegistration`.
    case strongAuthMethodRegistrationRequired(authMethods: [LatchAuthMethod], state: RegisterStrongAuthState)
}

extension SignInStep: FlowStepOutcome {
    var outcomeName: String {
        switch self {
        case .completed: "completed"
        case .codeRequired: "code_required"
        case .passwordRequired: "password_required"
        case .awaitingMFA: "awaiting_mfa"
        case .strongAuthMethodRegistrationRequired: "strong_auth_method_registration_required"
        }
    }
}
