import Foundation

/// The requests of registering a strong authentication method (`register/v1.0/…`), shared by its
/// states.
enum StrongAuthRegistration {
    /// The scope of the sign-in that ends a registration: the app's requested scopes are dropped on
    /// this path, as MSAL does.
    static let signInScope = DeclinedScopes.openID.joined(separator: " ")

    /// `register/v1.0/challenge`: the method's one challenge type (no `redirect`), its channel and
    /// the contact; no `id`.
    static func challenge(
        _ flow: FlowContext, token: String, username: String, parameters: LatchChallengeAuthMethodParameters
    ) async throws -> RegisterStrongAuthStep {
        let contact = parameters.verificationContact.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !contact.isEmpty else { throw Input.missing("verification contact") }
        let method = parameters.authMethod
        let reply = try await flow.post(
            "register/v1.0/challenge",
            [
                "continuation_token": token, "challenge_type": method.challengeType, "challenge_target": contact,
                "challenge_channel": method.channel.value,
            ], .stateChanging)
        switch reply.challengeType {
        case "oob":
            return .verificationRequired(
                RegisterStrongAuthVerificationRequiredState(
                    flow: flow, token: try flow.session.continuation(reply), username: username,
                    delivery: CodeDelivery(registration: reply)))
        case "preverified":
            return .completed(
                try await continueAndSignIn(
                    flow,
                    ["continuation_token": try flow.session.continuation(reply), "grant_type": "continuation_token"],
                    username: username))
        default:
            throw LatchError(
                code: .unexpectedResponse, message: "Unexpected challenge type '\(reply.challengeType ?? "")'.")
        }
    }

    /// `register/v1.0/continue` with `form`, then the sign-in with its continuation token
    /// (`grant_type=continuation_token`, scope `openid profile offline_access`, no username).
    static func continueAndSignIn(_ flow: FlowContext, _ form: [String: String?], username: String) async throws
        -> LatchTokenResult
    {
        let reply = try await flow.post("register/v1.0/continue", form, .stateChanging)
        let next = try flow.session.continuation(reply)
        do {
            return try await flow.session.exchange(
                flow,
                [
                    "grant_type": "continuation_token", "continuation_token": next, "scope": signInScope,
                    "client_info": "true", "challenge_type": flow.configuration.challengeTypeParameter,
                ], username: username, requested: [])
        } catch let error as LatchError where error.asksForSecondStep {
            throw error.secondStepAgain()
        }
    }
}
