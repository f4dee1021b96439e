import Foundation
import Latch
import LatchSDKTesting

/// Scripted native-auth answers for the second-step suites (MFA, strong-auth registration,
/// step-up, declined scopes, protection policies), in the wire shapes of the protocol reference.
enum MFAScript {
    static let email = "ada@example.com"
    static let subject = "user-ada"
    /// The `challenge_type` every request of a client configured with `.oob, .password` sends.
    static let challengeTypes = "oob password redirect"
    /// The `capabilities` of a client configured with both.
    static let capabilities = "mfa_required registration_required"
    /// The client id of ``LatchPreview/configuration(transport:)``.
    static let clientID = "preview"

    /// A client of `script` announcing `capabilities`, with an in-memory store and no retries.
    static func client(
        _ script: ScriptedTransport,
        capabilities: [LatchConfiguration.Capability] = [.mfaRequired, .registrationRequired],
        configure: (inout LatchConfiguration) -> Void = { _ in }
    ) throws -> LatchClient {
        var configuration = LatchPreview.configuration(transport: script.transport)
        configuration.capabilities = capabilities
        configure(&configuration)
        return try LatchClient(configuration: configuration)
    }

    /// A native-auth error envelope.
    static func error(
        _ error: String, suberror: String? = nil, codes: [Int] = [], continuationToken: String? = nil,
        members: [String: String] = [:], status: Int = 400
    ) -> ScriptedTransport.Response {
        var object: [String: Any] = ["error": error, "error_description": "Scripted \(error)."]
        if let suberror { object["suberror"] = suberror }
        if !codes.isEmpty { object["error_codes"] = codes }
        if let continuationToken { object["continuation_token"] = continuationToken }
        for (name, value) in members { object[name] = value }
        return ScriptedTransport.Response(status: status, body: json(object))
    }

    /// `invalid_grant` + `mfa_required` with a continuation token.
    static func mfaRequired(_ token: String) -> ScriptedTransport.Response {
        error("invalid_grant", suberror: "mfa_required", codes: [50076], continuationToken: token)
    }

    /// `invalid_grant` + `registration_required` with a continuation token.
    static func registrationRequired(_ token: String) -> ScriptedTransport.Response {
        error("invalid_grant", suberror: "registration_required", codes: [50079], continuationToken: token)
    }

    /// One `methods[]` entry.
    struct Method {
        var id: String
        var type = "oob"
        var channel: String
        var hint: String?
    }

    static let emailMethod = Method(id: "method-email", channel: "email", hint: "a***@e***.com")
    static let smsMethod = Method(id: "method-sms", channel: "sms", hint: "+1******42")

    /// An introspection answer.
    static func introspect(_ token: String, methods: [Method] = [emailMethod, smsMethod]) -> ScriptedTransport.Response {
        let entries: [[String: Any]] = methods.map { method in
            var entry: [String: Any] = ["id": method.id, "challenge_type": method.type, "challenge_channel": method.channel]
            if let hint = method.hint { entry["login_hint"] = hint }
            return entry
        }
        return ScriptedTransport.Response(body: json(["continuation_token": token, "methods": entries]))
    }

    /// An `oauth2/v2.0/challenge` answer: a code sent (`challenge_target_label`).
    static func codeSent(_ token: String, to label: String = "a***@e***.com", channel: String = "email", length: Int = 6)
        -> ScriptedTransport.Response
    {
        ScriptedTransport.Response(
            body: json([
                "continuation_token": token, "challenge_type": "oob", "challenge_target_label": label,
                "challenge_channel": channel, "code_length": length, "binding_method": "prompt",
            ]))
    }

    /// A `register/v1.0/challenge` answer: a code sent to the contact (`challenge_target`).
    static func registrationCodeSent(_ token: String, to contact: String, channel: String, length: Int = 6)
        -> ScriptedTransport.Response
    {
        ScriptedTransport.Response(
            body: json([
                "continuation_token": token, "challenge_type": "oob", "challenge_target": contact,
                "challenge_channel": channel, "code_length": length,
            ]))
    }

    /// An answer with only a continuation token (and optional members).
    static func continuation(_ token: String, members: [String: Any] = [:]) -> ScriptedTransport.Response {
        var object: [String: Any] = ["continuation_token": token]
        for (name, value) in members { object[name] = value }
        return ScriptedTransport.Response(body: json(object))
    }

    /// The `redirect` answer any endpoint may give.
    static let redirect = ScriptedTransport.Response.json(#"{"challenge_type":"redirect","redirect_reason":"scripted"}"#)

    /// A token response for ``subject``, granting `scope`.
    static func tokens(
        scope: String = "openid offline_access", refreshToken: String = "rt-1", accessToken: String? = nil,
        expiresIn: Int = 3600
    ) -> ScriptedTransport.Response {
        let idToken = LatchPreview.idToken(subject: subject, username: email, lifetime: TimeInterval(expiresIn))
        return ScriptedTransport.Response(
            body: json([
                "token_type": "Bearer", "scope": scope, "expires_in": expiresIn, "access_token": accessToken ?? idToken,
                "id_token": idToken, "refresh_token": refreshToken,
                "client_info": "eyJ1aWQiOiJ1c2VyLWFkYSIsInV0aWQiOiJkZWZhdWx0In0",
            ]))
    }

    /// Scripts the start of a password sign-in: initiate, then the password challenge.
    static func passwordSignIn(_ script: ScriptedTransport) {
        script.respond(to: "/oauth2/v2.0/initiate", with: continuation("ct-initiate"))
        script.respond(
            to: "/oauth2/v2.0/challenge",
            with: .json(#"{"continuation_token":"ct-password","challenge_type":"password"}"#))
    }

    /// The form a password grant sends after ``passwordSignIn(_:)``.
    static let passwordGrant: [String: String] = [
        "client_id": clientID, "grant_type": "password", "continuation_token": "ct-password", "password": "pw",
        "scope": "openid offline_access", "client_info": "1",
    ]

    private static func json(_ object: [String: Any]) -> Data {
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
    }
}
