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
        .completed(
            try await self.token(
                flow, ["grant_type": "continuation_token", "continuation_token": token, "username": username],
                username: username, scopes: scopes ?? configuration.defaultScopes))
    }

    /// Exchanges a sign-in grant at the token endpoint and stores the tokens, sending the device
    /// token kept for `username`, if any, so the server counts a wrong password on this device
    /// rather than on the account.
    func token(_ flow: FlowContext, _ form: [String: String?], username: String, scopes: [String]) async throws
        -> LatchTokenResult
    {
        var fields = form
        fields["scope"] = scopes.joined(separator: " ")
        fields["client_info"] = "1"
        fields["device_token"] = await tokens.deviceToken(username: username)
        let reply = try await flow.post("oauth2/v2.0/token", fields, .stateChanging)
        return try await tokens.save(reply, username: username)
    }
}
