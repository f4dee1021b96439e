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
    func signInChallenge(token: String, username: String, scopes: [String]) async throws -> SignInStartResult {
        let reply = try await channel.post(
            "oauth2/v2.0/challenge",
            ["continuation_token": token, "challenge_type": configuration.challengeTypeParameter], .stateChanging)
        let next = try continuation(reply)
        switch reply.challengeType {
        case "password":
            return .passwordRequired(SignInPasswordRequiredState(session: self, token: next, username: username, scopes: scopes))
        case "oob":
            return .codeRequired(
                SignInCodeRequiredState(
                    session: self, token: next, username: username, scopes: scopes, delivery: CodeDelivery(reply)))
        default:
            throw LatchError(
                code: .unexpectedResponse, message: "Unknown challenge type '\(reply.challengeType ?? "")'.")
        }
    }

    /// Asks a flow's `challenge` endpoint for a (new) one-time code.
    /// - Returns: the next continuation token and where the code went.
    func requestCode(_ path: String, token: String) async throws -> (token: String, delivery: CodeDelivery) {
        let reply = try await channel.post(
            path, ["continuation_token": token, "challenge_type": configuration.challengeTypeParameter], .stateChanging)
        return (try continuation(reply), CodeDelivery(reply))
    }

    /// Signs in with the continuation token of a finished sign-up or password reset.
    func signInWithContinuation(token: String, username: String, scopes: [String]?) async throws -> LatchTokenResult {
        try await self.token(
            ["grant_type": "continuation_token", "continuation_token": token, "username": username], username: username,
            scopes: scopes ?? configuration.defaultScopes)
    }

    /// Exchanges a sign-in grant at the token endpoint and stores the tokens, sending the device
    /// token kept for `username`, if any, so the server counts a wrong password on this device
    /// rather than on the account.
    func token(_ form: [String: String?], username: String, scopes: [String]) async throws -> LatchTokenResult {
        var fields = form
        fields["scope"] = scopes.joined(separator: " ")
        fields["client_info"] = "1"
        fields["device_token"] = await tokens.deviceToken(username: username)
        let reply = try await channel.post("oauth2/v2.0/token", fields, .stateChanging)
        return try await tokens.save(reply, username: username)
    }
}

/// Where a one-time code went (`challenge_channel`, `challenge_target_label`, `code_length`).
public struct CodeDelivery: Sendable, Equatable {
    /// The masked address, e.g. `a***@e***.com`.
    public let sentTo: String
    /// `email` (or `sms`).
    public let channel: String
    /// Digits in the code.
    public let codeLength: Int

    init(_ reply: NativeAuthReply) {
        sentTo = reply.challengeTargetLabel ?? ""
        channel = reply.challengeChannel ?? "email"
        codeLength = reply.codeLength ?? 8
    }
}

/// Checks made before any request.
enum Input {
    static func missing(_ what: String) -> LatchError {
        LatchError(code: .missingInput, message: "The \(what) is empty.")
    }

    static func username(_ username: String) throws -> String {
        let email = username.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard !email.isEmpty else { throw missing("username") }
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !email.contains(" ") else {
            throw LatchError(code: .invalidEmail, message: "The username must be an e-mail address.")
        }
        return email
    }

    static func code(_ code: String) throws -> String {
        let trimmed = code.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw missing("code") }
        return trimmed
    }

    static func attributesJSON(_ attributes: [String: String]) throws -> String {
        let data = try JSONSerialization.data(withJSONObject: attributes, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }
}
