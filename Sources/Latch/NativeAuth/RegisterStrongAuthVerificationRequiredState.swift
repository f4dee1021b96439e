import Foundation

/// A strong authentication method being registered, waiting for the code sent to its contact.
/// Mirrors MSAL's `RegisterStrongAuthVerificationRequiredState`.
public struct RegisterStrongAuthVerificationRequiredState: Sendable {
    let flow: FlowContext
    let token: String
    /// The account's username.
    public let username: String
    /// Where the code went: ``CodeDelivery/sentTo`` is the contact being registered.
    public let delivery: CodeDelivery

    /// The flow's correlation id, sent with each of its requests and carried by each of its errors.
    public var correlationID: UUID { flow.correlationID }

    /// Submits the code (`register/v1.0/continue`), which registers the method and signs in; a
    /// wrong code leaves this state usable. Never re-sent automatically.
    /// - Returns: ``SignInStep/completed(_:)`` once signed in.
    /// - Throws: ``LatchError/Code/invalidChallenge`` (ask again, or send a new code with
    ///   ``challengeAuthMethod(parameters:)`` when ``LatchError/recovery`` is
    ///   ``LatchError/Recovery/resendCode``), ``LatchError/Code/unexpectedResponse`` when the
    ///   server asks for another second step, …
    public func submitChallenge(_ code: String) async throws -> SignInStep {
        try await flow.step("submit_challenge") {
            let code = try Input.code(code)
            return .completed(
                try await StrongAuthRegistration.continueAndSignIn(
                    flow, ["continuation_token": token, "grant_type": "oob", "oob": code], username: username))
        }
    }

    /// Sends a new code (the previous one stops working), to the same contact or, with other
    /// parameters, to another one; the same call as ``RegisterStrongAuthState/challengeAuthMethod(parameters:)``,
    /// with this state's continuation token.
    public func challengeAuthMethod(parameters: LatchChallengeAuthMethodParameters) async throws
        -> RegisterStrongAuthStep
    {
        try await flow.step("challenge_auth_method") {
            try await StrongAuthRegistration.challenge(flow, token: token, username: username, parameters: parameters)
        }
    }

    /// The same point of the flow as a ``RegisterStrongAuthState`` (what a failed
    /// ``challengeAuthMethod(parameters:)`` leaves to try again with).
    var registerState: RegisterStrongAuthState {
        RegisterStrongAuthState(flow: flow, token: token, username: username)
    }
}
