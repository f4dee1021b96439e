import Foundation
import Latch

/// Ready-made values for SwiftUI previews and app tests: real states and results, produced by a
/// ``LatchClient`` that talks to a ``ScriptedTransport`` instead of a server. No network, no
/// server libraries.
///
/// ```swift
/// let state = try await LatchPreview.signInCodeRequired()
/// // show the code-entry view with `state.codeLength`, `state.sentTo`, …
/// let tokens = try await LatchPreview.signedIn(username: "ada@example.com")
/// ```
public enum LatchPreview {
    /// The server origin previews pretend to talk to.
    public static let serverURL = URL(string: "https://latch.preview")!

    /// A configuration for a client of `transport`, with an in-memory store and no retries.
    public static func configuration(transport: HTTPTransport) -> LatchConfiguration {
        LatchConfiguration(
            serverURL: serverURL, clientID: "preview", credentialStore: InMemoryCredentialStore(), retryPolicy: .none,
            transport: transport)
    }

    /// A client of `script`.
    /// - Throws: never for the preview configuration; the signature follows ``LatchClient/init(configuration:)``.
    public static func client(_ script: ScriptedTransport) throws -> LatchClient {
        try LatchClient(configuration: configuration(transport: script.transport))
    }

    /// An unsigned JWT (no signature: the SDK reads claims, it does not verify them) for `username`.
    public static func idToken(subject: String = "preview-user", username: String, lifetime: TimeInterval = 3600)
        -> String
    {
        func encode(_ object: [String: Any]) -> String {
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
            return data.base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        let now = Int(Date().timeIntervalSince1970)
        let claims: [String: Any] = [
            "sub": subject, "preferred_username": username, "email": username, "iat": now, "exp": now + Int(lifetime),
            "aud": "preview", "iss": serverURL.absoluteString + "/default/v2.0",
        ]
        return encode(["alg": "none", "typ": "JWT"]) + "." + encode(claims) + ".preview"
    }

    /// A token response (RFC 6749 § 5.1) for `username`.
    public static func tokenResponse(username: String, expiresIn: Int = 3600) -> ScriptedTransport.Response {
        let token = idToken(username: username, lifetime: TimeInterval(expiresIn))
        let object: [String: Any] = [
            "token_type": "Bearer", "scope": "openid offline_access", "expires_in": expiresIn,
            "access_token": token, "id_token": token, "refresh_token": "preview-refresh-token",
        ]
        return ScriptedTransport.Response(body: (try? JSONSerialization.data(withJSONObject: object)) ?? Data())
    }

    /// A challenge response asking for an e-mailed code.
    public static func codeChallenge(sentTo: String = "a***@example.com", codeLength: Int = 8) -> ScriptedTransport.Response {
        .json(
            #"{"continuation_token":"preview-ct","challenge_type":"oob","challenge_channel":"email","#
                + #""challenge_target_label":"\#(sentTo)","code_length":\#(codeLength),"binding_method":"prompt"}"#)
    }

    /// A sign-in waiting for the e-mailed code.
    public static func signInCodeRequired(username: String = "ada@example.com") async throws -> SignInCodeRequiredState {
        let script = ScriptedTransport()
        script.respond(to: "/oauth2/v2.0/initiate", json: #"{"continuation_token":"preview-ct"}"#)
        script.respond(to: "/oauth2/v2.0/challenge", with: codeChallenge())
        guard case .codeRequired(let state) = try await client(script).signIn(username: username) else {
            throw LatchError(code: .unexpectedResponse, message: "The scripted sign-in did not ask for a code.")
        }
        return state
    }

    /// A sign-in waiting for the password.
    public static func signInPasswordRequired(username: String = "ada@example.com") async throws
        -> SignInPasswordRequiredState
    {
        let script = ScriptedTransport()
        script.respond(to: "/oauth2/v2.0/initiate", json: #"{"continuation_token":"preview-ct"}"#)
        script.respond(to: "/oauth2/v2.0/challenge", json: #"{"continuation_token":"preview-ct","challenge_type":"password"}"#)
        guard case .passwordRequired(let state) = try await client(script).signIn(username: username) else {
            throw LatchError(code: .unexpectedResponse, message: "The scripted sign-in did not ask for a password.")
        }
        return state
    }

    /// A sign-up waiting for the code that verifies the address.
    public static func signUpCodeRequired(username: String = "ada@example.com") async throws -> SignUpCodeRequiredState {
        let script = ScriptedTransport()
        script.respond(to: "/signup/v1.0/start", json: #"{"continuation_token":"preview-ct"}"#)
        script.respond(to: "/signup/v1.0/challenge", with: codeChallenge())
        guard case .codeRequired(let state) = try await client(script).signUp(username: username) else {
            throw LatchError(code: .unexpectedResponse, message: "The scripted sign-up did not ask for a code.")
        }
        return state
    }

    /// The result of a finished sign-in of `username`, with its account, kept by a client of
    /// `script` (a new one when `nil`) whose later token requests `script` answers.
    public static func signedIn(username: String = "ada@example.com", script: ScriptedTransport? = nil) async throws
        -> LatchTokenResult
    {
        let script = script ?? ScriptedTransport()
        script.respond(to: "/oauth2/v2.0/initiate", json: #"{"continuation_token":"preview-ct"}"#)
        script.respond(to: "/oauth2/v2.0/challenge", json: #"{"continuation_token":"preview-ct","challenge_type":"password"}"#)
        script.respond(to: "/oauth2/v2.0/token", with: tokenResponse(username: username))
        guard case .completed(let tokens) = try await client(script).signIn(username: username, password: "preview") else {
            throw LatchError(code: .unexpectedResponse, message: "The scripted sign-in did not complete.")
        }
        return tokens
    }
}
