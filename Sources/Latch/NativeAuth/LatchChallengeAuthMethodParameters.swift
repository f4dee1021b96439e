/// What ``RegisterStrongAuthState/challengeAuthMethod(parameters:)`` registers: a method and the
/// contact to verify for it. Mirrors MSAL's `MSALNativeAuthChallengeAuthMethodParameters`.
///
/// ```swift
/// let email = authMethods.first { $0.channel.isEmailType }!
/// let parameters = LatchChallengeAuthMethodParameters(authMethod: email, verificationContact: "ada@example.com")
/// ```
public struct LatchChallengeAuthMethodParameters: Sendable, Hashable {
    /// The kind of method to register, one of the ``SignInStep/strongAuthMethodRegistrationRequired(authMethods:state:)``
    /// methods.
    public var authMethod: LatchAuthMethod
    /// The e-mail address or phone number to verify and register (`challenge_target`). Required:
    /// the server has no default, so an empty one is refused before any request
    /// (``LatchError/Code/missingInput``).
    public var verificationContact: String

    /// Names the method and the contact to register.
    public init(authMethod: LatchAuthMethod, verificationContact: String) {
        self.authMethod = authMethod
        self.verificationContact = verificationContact
    }
}
