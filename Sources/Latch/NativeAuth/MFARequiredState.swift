import Foundation

/// A sign-in waiting for its second factor: the first factor (password, e-mail code, a finished
/// sign-up or reset, or a step-up's refresh token) was accepted and the server asked for more
/// (`mfa_required`). Request a code through one of ``authMethods``, then submit it.
/// Mirrors MSAL's `AwaitingMFAState` and `MFARequiredState` in one value.
///
/// ```swift
/// var state = awaiting  // from SignInStep.awaitingMFA
/// state = try await state.requestChallenge(method: state.authMethods.first { $0.channel.isSMSType })
/// print("code sent to", state.delivery?.sentTo ?? "")
/// let step = try await state.submitChallenge(code)
/// ```
public struct MFARequiredState: Sendable {
    let flow: FlowContext
    let token: String
    /// The account's username.
    public let username: String
    let scopes: [String]
    /// The user's second-factor methods, as the server introspected them (never empty).
    public let authMethods: [LatchAuthMethod]
    /// Where the latest code went; `nil` until ``requestChallenge(method:)`` sent one.
    public let delivery: CodeDelivery?
    /// The method the latest code went through.
    let challengedMethod: LatchAuthMethod?

    init(
        flow: FlowContext, token: String, username: String, scopes: [String], authMethods: [LatchAuthMethod],
        delivery: CodeDelivery? = nil, challengedMethod: LatchAuthMethod? = nil
    ) {
        self.flow = flow
        self.token = token
        self.username = username
        self.scopes = scopes
        self.authMethods = authMethods
        self.delivery = delivery
        self.challengedMethod = challengedMethod
    }

    /// The flow's correlation id, sent with each of its requests and carried by each of its errors.
    public var correlationID: UUID { flow.correlationID }

    /// Sends a second-factor code through `method` (`oauth2/v2.0/challenge` with its `id`). Called
    /// again on the state it returns, it sends a new code (the previous one stops working) or, with
    /// another method, switches to it.
    /// - Parameter method: one of ``authMethods``; `nil` for the method the latest code went
    ///   through, or the first one before any.
    /// - Returns: the state to submit the code on, whose ``delivery`` says where it went.
    /// - Throws: ``LatchError/Code/authMethodBlocked`` (the method is blocked; this state stays
    ///   usable with another one), ``LatchError/Code/browserRequired``,
    ///   ``LatchError/Code/unexpectedResponse`` when the server asks for a password instead, …
    public func requestChallenge(method: LatchAuthMethod? = nil) async throws -> MFARequiredState {
        try await flow.step("request_challenge", outcome: { _ in "code_sent" }) {
            guard let chosen = method ?? challengedMethod ?? authMethods.first else {
                throw Input.missing("authentication method")
            }
            let reply = try await flow.post(
                "oauth2/v2.0/challenge",
                [
                    "continuation_token": token, "challenge_type": flow.configuration.challengeTypeParameter,
                    "id": chosen.id,
                ], .stateChanging)
            guard reply.challengeType == "oob" else {
                throw LatchError(
                    code: .unexpectedResponse,
                    message: "The server answered the second-factor challenge with '\(reply.challengeType ?? "")', not a code.")
            }
            return MFARequiredState(
                flow: flow, token: try flow.session.continuation(reply), username: username, scopes: scopes,
                authMethods: authMethods, delivery: CodeDelivery(reply), challengedMethod: chosen)
        }
    }

    /// Submits the second-factor code (the `mfa_oob` grant); a wrong code leaves this state usable.
    /// Never re-sent automatically.
    /// - Returns: ``SignInStep/completed(_:)`` once signed in (after a step-up: the account's
    ///   tokens replaced).
    /// - Throws: ``LatchError/Code/invalidChallenge`` (ask again, or request a new code when
    ///   ``LatchError/recovery`` is ``LatchError/Recovery/resendCode``),
    ///   ``LatchError/Code/unexpectedResponse`` when the server asks for another second step, …
    public func submitChallenge(_ code: String) async throws -> SignInStep {
        try await flow.step("submit_challenge") {
            let code = try Input.code(code)
            do {
                return .completed(
                    try await flow.session.exchange(
                        flow,
                        [
                            "grant_type": "mfa_oob", "continuation_token": token, "oob": code,
                            "scope": DeclinedScopes.withOpenID(scopes).joined(separator: " "), "client_info": "true",
                        ], username: username, requested: scopes))
            } catch let error as LatchError where error.asksForSecondStep {
                throw error.secondStepAgain()
            }
        }
    }
}
