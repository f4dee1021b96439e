import Foundation

/// What the client and its flow states share: configuration, the request channel and the token
/// manager.
final class LatchSession: Sendable {
    let configuration: LatchConfiguration
    let channel: NativeAuthChannel
    let tokens: TokenManager

    init(configuration: LatchConfiguration) {
        self.configuration = configuration
        channel = NativeAuthChannel(configuration: configuration)
        tokens = TokenManager(configuration: configuration, channel: channel)
    }

    /// The continuation token of a reply, or an unexpected-response error.
    func continuation(_ reply: NativeAuthReply) throws -> String {
        guard let token = reply.continuationToken, !token.isEmpty else {
            throw LatchError(code: .unexpectedResponse, message: "The server's answer lacks a continuation token.")
        }
        return token
    }

    /// Asks the sign-in challenge: the server chooses password or code.
    func signInChallenge(_ flow: FlowContext, token: String, username: String, scopes: [String]) async throws -> SignInStep {
        let reply = try await flow.post(
            "oauth2/v2.0/challenge",
            ["continuation_token": token, "challenge_type": configuration.challengeTypeParameter], .stateChanging)
        let next = try continuation(reply)
        switch reply.challengeType {
        case "password":
            return .passwordRequired(SignInPasswordRequiredState(flow: flow, token: next, username: username, scopes: scopes))
        case "oob":
            return .codeRequired(
                SignInCodeRequiredState(
                    flow: flow, token: next, username: username, scopes: scopes, delivery: CodeDelivery(reply)))
        default:
            throw LatchError(
                code: .unexpectedResponse, message: "Unknown challenge type '\(reply.challengeType ?? "")'.")
        }
    }

    /// Asks a flow's `challenge` endpoint for a (new) one-time code.
    /// - Returns: the next continuation token and where the code went.
    func requestCode(_ flow: FlowContext, _ path: String, token: String) async throws -> (token: String, delivery: CodeDelivery) {
        let reply = try await flow.post(
            path, ["continuation_token": token, "challenge_type": configuration.challengeTypeParameter], .stateChanging)
        return (try continuation(reply), CodeDelivery(reply))
    }

    /// Signs in with the continuation token of a finished sign-up or password reset.
    func signInWithContinuation(_ flow: FlowContext, token: String, username: String, scopes: [String]?) async throws
        -> SignInStep
    {
        try await signInGrant(
            flow, ["grant_type": "continuation_token", "continuation_token": token, "username": username],
            username: username, scopes: scopes ?? configuration.defaultScopes)
    }

    /// Exchanges a first-factor grant (a password, an e-mail code, the continuation token of a
    /// sign-up or reset) at the token endpoint, sending the device token kept for `username`, if
    /// any, so the server counts a wrong password on this device rather than on the account.
    /// - Returns: ``SignInStep/completed(_:)`` with the stored tokens, or the second step the server
    ///   asks for first.
    func signInGrant(_ flow: FlowContext, _ form: [String: String?], username: String, scopes: [String]) async throws
        -> SignInStep
    {
        var fields = form
        fields["scope"] = scopes.joined(separator: " ")
        fields["client_info"] = "1"
        fields["device_token"] = await tokens.deviceToken(username: username)
        return try await signInToken(flow, fields, username: username, requested: scopes)
    }

    /// Posts `fields` to the token endpoint: ``SignInStep/completed(_:)`` with the stored tokens, or,
    /// when the server answers `mfa_required` or `registration_required` with a continuation token,
    /// the second step (``SignInStep/awaitingMFA(_:)``,
    /// ``SignInStep/strongAuthMethodRegistrationRequired(authMethods:state:)``) after introspecting
    /// the user's methods.
    func signInToken(_ flow: FlowContext, _ fields: [String: String?], username: String, requested: [String])
        async throws -> SignInStep
    {
        do {
            return .completed(try await exchange(flow, fields, username: username, requested: requested))
        } catch let error as LatchError {
            guard let next = try await secondStep(after: error, flow, username: username, scopes: requested) else {
                throw error
            }
            return next
        }
    }

    /// Posts `fields` to the token endpoint, with the flow's claims request, and stores the tokens
    /// as a new session of the account.
    /// - Throws: ``LatchError/Code/serverDeclinedScopes`` — after storing them — when the server
    ///   granted fewer of `requested` than asked.
    func exchange(_ flow: FlowContext, _ fields: [String: String?], username: String, requested: [String]) async throws
        -> LatchTokenResult
    {
        var fields = fields
        if let claims = flow.claims { fields["claims"] = claims }
        let reply = try await flow.post("oauth2/v2.0/token", fields, .stateChanging)
        let result = try await tokens.save(reply, username: username)
        try DeclinedScopes.check(requested: requested, granted: reply.scope)
        return result
    }
}
