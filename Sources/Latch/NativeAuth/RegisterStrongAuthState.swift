import Foundation

/// A sign-in waiting for the user to register a strong authentication method (the server answered
/// `registration_required`; ``SignInStep/strongAuthMethodRegistrationRequired(authMethods:state:)``
/// lists the kinds of method). Mirrors MSAL's `RegisterStrongAuthState`.
///
/// ```swift
/// let email = authMethods.first { $0.channel.isEmailType }!
/// let step = try await state.challengeAuthMethod(
///     parameters: LatchChallengeAuthMethodParameters(authMethod: email, verificationContact: "ada@example.com"))
/// ```
public struct RegisterStrongAuthState: Sendable {
    let flow: FlowContext
    let token: String
    /// The account's username.
    public let username: String

    /// The flow's correlation id, sent with each of its requests and carried by each of its errors.
    public var correlationID: UUID { flow.correlationID }

    /// Sends a code to the contact to register it for the method (`register/v1.0/challenge`).
    /// - Returns: ``RegisterStrongAuthStep/verificationRequired(_:)`` with where the code went, or
    ///   ``RegisterStrongAuthStep/completed(_:)`` when the server already trusts the contact.
    /// - Throws: ``LatchError/Code/missingInput`` for an empty contact (before any request),
    ///   ``LatchError/Code/invalidInput`` (the contact is not valid),
    ///   ``LatchError/Code/verificationContactBlocked``, ``LatchError/Code/browserRequired``, … This
    ///   state stays usable after each of them.
    public func challengeAuthMethod(parameters: LatchChallengeAuthMethodParameters) async throws
        -> RegisterStrongAuthStep
    {
        try await flow.step("challenge_auth_method") {
            try await StrongAuthRegistration.challenge(flow, token: token, username: username, parameters: parameters)
        }
    }
}
