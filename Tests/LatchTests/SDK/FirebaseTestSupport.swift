import Foundation
import Latch
import LatchSDKTesting
import Testing

/// Scripted Identity Toolkit v1 and securetoken answers for the Firebase-style API's tests.
enum FirebaseScript {
    static let apiKey = "test-api-key"
    /// The path of `accounts:{method}` under the server's origin.
    static func v1(_ method: String) -> String { "/identitytoolkit.googleapis.com/v1/accounts:\(method)" }
    static let secureToken = "/securetoken.googleapis.com/v1/token"
    static let uid = "uid-ada"
    static let email = "ada@example.com"
    static let password = "correct horse battery"

    /// A client of `script` with the API key set, an in-memory store, no retries, and a store
    /// watch fast enough for auth-state tests.
    static func client(_ script: ScriptedTransport) throws -> LatchClient {
        var configuration = LatchPreview.configuration(transport: script.transport)
        configuration.apiKey = apiKey
        configuration.credentialStoreWatchInterval = 0.1
        return try LatchClient(configuration: configuration)
    }

    /// An unsigned ID token shaped as the emulator makes them.
    static func idToken(
        uid: String = uid, email: String? = email, provider: String = "password", lifetime: Int = 3600,
        authTime: Int? = nil, extra: [String: Any] = [:], firebase: Bool = true
    ) -> String {
        func encode(_ object: [String: Any]) -> String {
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
            return data.base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        let now = Int(Date().timeIntervalSince1970)
        var claims: [String: Any] = [
            "iss": "https://securetoken.google.com/default", "aud": "default", "sub": uid, "user_id": uid, "iat": now,
            "exp": now + lifetime, "auth_time": authTime ?? now - 10,
        ]
        if firebase { claims["firebase"] = ["sign_in_provider": provider, "identities": [:] as [String: Any]] }
        if let email {
            claims["email"] = email
            claims["email_verified"] = false
        }
        claims.merge(extra) { $1 }
        return encode(["alg": "none", "typ": "JWT"]) + "." + encode(claims) + "."
    }

    /// A token-triple answer (`expiresIn` a string).
    static func tokens(_ idToken: String = idToken(), refresh: String = "rt-1", uid: String = uid) -> String {
        #"{"idToken":"\#(idToken)","refreshToken":"\#(refresh)","expiresIn":"3600","localId":"\#(uid)"}"#
    }

    /// An `accounts:lookup` answer with one user.
    static func lookup(
        uid: String = uid, email: String? = email, verified: Bool = false, displayName: String? = nil,
        password: Bool = true
    ) -> String {
        var user: [String: Any] = [
            "localId": uid, "emailVerified": verified, "createdAt": "1700000000000", "lastLoginAt": "1700000500000",
        ]
        if let email { user["email"] = email }
        if let displayName { user["displayName"] = displayName }
        if password, let email {
            user["passwordHash"] = "UkVEQUNURUQ="
            user["providerUserInfo"] = [["providerId": "password", "email": email, "federatedId": email, "rawId": email]]
        }
        let data = (try? JSONSerialization.data(withJSONObject: ["users": [user]], options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// A securetoken answer.
    static func refreshed(_ idToken: String, refresh: String = "rt-2") -> String {
        #"{"access_token":"\#(idToken)","expires_in":"3600","id_token":"\#(idToken)","refresh_token":"\#(refresh)","#
            + #""token_type":"Bearer","user_id":"\#(uid)","project_id":"default"}"#
    }

    /// The Identity Toolkit error envelope with `message`.
    static func error(_ message: String, status: Int = 400, reason: String = "invalid") -> ScriptedTransport.Response {
        let object: [String: Any] = [
            "error": [
                "code": status, "message": message,
                "errors": [["message": message, "reason": reason, "domain": "global"]],
            ]
        ]
        return ScriptedTransport.Response(
            status: status, body: (try? JSONSerialization.data(withJSONObject: object)) ?? Data())
    }

    /// A client with a user signed in by e-mail and password; the sign-in's scripted answers are
    /// dropped, so a test scripts its own. The returned count is where the test's requests start.
    static func signedIn(_ script: ScriptedTransport) async throws -> (client: LatchClient, user: LatchUser, start: Int) {
        script.respond(to: v1("signInWithPassword"), json: tokens())
        script.respond(to: v1("lookup"), json: lookup())
        let client = try client(script)
        let user = try await client.firebase.signIn(email: email, password: password)
        script.clear(v1("signInWithPassword"))
        script.clear(v1("lookup"))
        return (client, user, script.requests.count)
    }

    /// The requests after `start`.
    static func requests(_ script: ScriptedTransport, after start: Int) -> [ScriptedTransport.Request] {
        Array(script.requests.dropFirst(start))
    }

    /// Checks a thrown error's Firebase number and name.
    static func expect(
        _ error: LatchError, _ code: LatchError.Code, _ number: Int, _ name: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(error.code == code, sourceLocation: sourceLocation)
        #expect(error.code.rawValue == number, sourceLocation: sourceLocation)
        #expect(error.name == name, sourceLocation: sourceLocation)
        #expect((error as NSError).code == number, sourceLocation: sourceLocation)
        #expect(
            (error as NSError).userInfo[LatchError.UserInfoKey.name] as? String == name, sourceLocation: sourceLocation)
    }
}
