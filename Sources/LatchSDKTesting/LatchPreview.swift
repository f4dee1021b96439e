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
            serverURL: serverURL, clientID: "preview", capabilities: [.mfaRequired, .registrationRequired],
            credentialStore: InMemoryCredentialStore(), retryPolicy: .none, transport: transport)
    }

    /// A client of `script`.
    /// - Throws: never for the preview configuration; the signature follows ``LatchClient/init(configuration:)``.
    public static func client(_ script: ScriptedTransport) throws -> LatchClient {
        try LatchClient(configuration: configuration(transport: script.transport))
    }

    /// An unsigned JWT (no signature: the SDK reads claims, it does not verify them) for `username`,
    /// with the `nonce` of an interactive sign-in when given (OpenID Connect Core § 2).
    public static func idToken(
        subject: String = "preview-user", username: String, lifetime: TimeInterval = 3600, nonce: String? = nil
    ) -> String {
        func encode(_ object: [String: Any]) -> String {
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
            return data.base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        let now = Int(Date().timeIntervalSince1970)
        var claims: [String: Any] = [
            "sub": subject, "preferred_username": username, "email": username, "iat": now, "exp": now + Int(lifetime),
            "aud": "preview", "iss": serverURL.absoluteString + "/default/v2.0",
        ]
        if let nonce { claims["nonce"] = nonce }
        return encode(["alg": "none", "typ": "JWT"]) + "." + encode(claims) + ".preview"
    }

    /// A token response (RFC 6749 § 5.1) for `username`; its ID token carries `nonce` when given.
    public static func tokenResponse(username: String, expiresIn: Int = 3600, nonce: String? = nil)
        -> ScriptedTransport.Response
    {
        let token = idToken(username: username, lifetime: TimeInterval(expiresIn), nonce: nonce)
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

    /// A sign-in whose password passed and that waits for a second factor, with an e-mail and an
    /// SMS method to choose from.
    public static func awaitingMFA(username: String = "ada@example.com") async throws -> MFARequiredState {
        let script = passwordSignIn(then: secondStep("mfa_required"))
        script.respond(to: "/oauth2/v2.0/introspect", json: methods)
        guard case .awaitingMFA(let state) = try await client(script).signIn(username: username, password: "preview") else {
            throw LatchError(code: .unexpectedResponse, message: "The scripted sign-in did not ask for a second factor.")
        }
        return state
    }

    /// A sign-in whose password passed by a user who must register a strong authentication method
    /// first, with the e-mail and SMS channels offered.
    public static func strongAuthMethodRegistration(username: String = "ada@example.com") async throws
        -> (authMethods: [LatchAuthMethod], state: RegisterStrongAuthState)
    {
        let script = passwordSignIn(then: secondStep("registration_required"))
        script.respond(to: "/register/v1.0/introspect", json: methods)
        let step = try await client(script).signIn(username: username, password: "preview")
        guard case .strongAuthMethodRegistrationRequired(let authMethods, let state) = step else {
            throw LatchError(code: .unexpectedResponse, message: "The scripted sign-in did not ask for a registration.")
        }
        return (authMethods, state)
    }

    /// The introspect answer of the second-step previews.
    private static let methods =
        #"{"continuation_token":"preview-ct","methods":[{"id":"email","challenge_type":"oob","challenge_channel":"email","#
        + #""login_hint":"a***@e***.com"},{"id":"sms","challenge_type":"oob","challenge_channel":"sms","#
        + #""login_hint":"+1******0123"}]}"#

    /// The `/token` answer that asks for a second step (`mfa_required`, `registration_required`).
    private static func secondStep(_ suberror: String) -> ScriptedTransport.Response {
        .json(
            #"{"error":"invalid_grant","error_description":"preview","suberror":"\#(suberror)","#
                + #""continuation_token":"preview-ct"}"#, status: 400)
    }

    /// A script that answers a password sign-in's initiate and challenge, and `/token` with `token`.
    private static func passwordSignIn(then token: ScriptedTransport.Response) -> ScriptedTransport {
        let script = ScriptedTransport()
        script.respond(to: "/oauth2/v2.0/initiate", json: #"{"continuation_token":"preview-ct"}"#)
        script.respond(to: "/oauth2/v2.0/challenge", json: #"{"continuation_token":"preview-ct","challenge_type":"password"}"#)
        script.respond(to: "/oauth2/v2.0/token", with: token)
        return script
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
