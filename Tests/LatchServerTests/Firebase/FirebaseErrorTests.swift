import Foundation
import LatchServer
import LatchTesting
import Testing

/// Every error the family sends, byte for byte in Google's envelope, with the message strings the
/// Firebase SDKs map (`reference/firebase-auth-protocol.md` § 1).
@Suite("Firebase: errors")
struct FirebaseErrorTests {
    static let password = NativeAuthFixture.password

    private func expectError(
        _ reply: WireResponse, _ message: String, reason: String = "invalid", sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(reply.status == 400, sourceLocation: sourceLocation)
        #expect(
            String(decoding: reply.body, as: UTF8.self) == FirebaseClient.errorBody(message, reason: reason),
            sourceLocation: sourceLocation)
    }

    @Test("a missing or unknown API key is refused with reason keyInvalid, on v1, v3 and securetoken")
    func apiKey() async throws {
        try await withFirebaseServer { client in
            var keyless = client
            keyless.apiKey = nil
            var unknown = client
            unknown.apiKey = "not-a-key-of-any-client"
            let message = "API key not valid. Please pass a valid API key."
            for sender in [keyless, unknown] {
                expectError(
                    try await sender.post(FirebaseClient.v1 + "accounts:signUp", [:]), message, reason: "keyInvalid")
                expectError(
                    try await sender.post(FirebaseClient.v3 + "verifyPassword", [:]), message, reason: "keyInvalid")
                expectError(
                    try await sender.post(FirebaseClient.securetoken, ["grantType": "refresh_token"]), message,
                    reason: "keyInvalid")
            }
        }
    }

    @Test("sign-up: EMAIL_EXISTS, INVALID_EMAIL, MISSING_PASSWORD, WEAK_PASSWORD with the policy's reason")
    func signUp() async throws {
        try await withFirebaseServer { client in
            _ = try client.server.createUser(email: "ada@example.com", password: Self.password)
            let path = FirebaseClient.v1 + "accounts:signUp"
            expectError(try await client.post(path, ["email": "ada@example.com", "password": Self.password]), "EMAIL_EXISTS")
            expectError(try await client.post(path, ["email": "not-an-address", "password": Self.password]), "INVALID_EMAIL")
            expectError(try await client.post(path, ["email": "bo@example.com"]), "MISSING_PASSWORD")
            expectError(
                try await client.post(FirebaseClient.v3 + "signupNewUser", ["email": "bo@example.com", "password": "abc"]),
                "WEAK_PASSWORD : " + PasswordViolation.tooShort(minimum: 8).explanation)
        }
    }

    @Test("sign-in: INVALID_PASSWORD and EMAIL_NOT_FOUND, or INVALID_LOGIN_CREDENTIALS for both when protected")
    func signIn() async throws {
        try await withFirebaseServer { client in
            _ = try client.server.createUser(email: "ada@example.com", password: Self.password)
            let path = FirebaseClient.v3 + "verifyPassword"
            expectError(
                try await client.post(path, ["email": "ada@example.com", "password": "wrong-Passw0rd"]), "INVALID_PASSWORD")
            expectError(
                try await client.post(path, ["email": "no@example.com", "password": "wrong-Passw0rd"]), "EMAIL_NOT_FOUND")
            expectError(try await client.post(path, ["password": "x"]), "MISSING_EMAIL")
            try client.server.updateTenant { $0.enumerationProtection = true }
            let v1 = FirebaseClient.v1 + "accounts:signInWithPassword"
            expectError(
                try await client.post(v1, ["email": "ada@example.com", "password": "wrong-Passw0rd"]),
                "INVALID_LOGIN_CREDENTIALS")
            expectError(
                try await client.post(v1, ["email": "no@example.com", "password": "wrong-Passw0rd"]),
                "INVALID_LOGIN_CREDENTIALS")
        }
    }

    @Test("a disabled account: USER_DISABLED on sign-in, lookup and refresh")
    func disabled() async throws {
        try await withFirebaseServer { client in
            let signUp = try await client.post(
                FirebaseClient.v1 + "accounts:signUp", ["email": "ada@example.com", "password": Self.password])
            let store = client.server.app.services.store
            let tenant = try client.server.app.services.admin.tenant(named: "default")
            try store.write { tx in
                var user = try #require(try tx.user(email: "ada@example.com", tenantID: tenant.id))
                user.disabled = true
                try tx.update(user)
            }
            expectError(
                try await client.post(
                    FirebaseClient.v1 + "accounts:signInWithPassword", ["email": "ada@example.com", "password": Self.password]),
                "USER_DISABLED")
            expectError(
                try await client.post(FirebaseClient.v1 + "accounts:lookup", ["idToken": signUp.string("idToken")!]),
                "USER_DISABLED")
            expectError(
                try await client.post(
                    FirebaseClient.securetoken, ["grantType": "refresh_token", "refreshToken": signUp.string("refreshToken")!]),
                "USER_DISABLED")
        }
    }

    @Test(
        "ID tokens: INVALID_ID_TOKEN for a bad one, TOKEN_EXPIRED past exp; an e-mail or password change after 5 minutes is CREDENTIAL_TOO_OLD_LOGIN_AGAIN"
    )
    func idTokens() async throws {
        try await withFirebaseServer { client in
            expectError(try await client.post(FirebaseClient.v1 + "accounts:lookup", ["idToken": "a.b.c"]), "INVALID_ID_TOKEN")
            expectError(try await client.post(FirebaseClient.v3 + "getAccountInfo", [:]), "INVALID_ID_TOKEN")
            let signUp = try await client.post(
                FirebaseClient.v1 + "accounts:signUp", ["email": "ada@example.com", "password": Self.password])
            let idToken = try #require(signUp.string("idToken"))
            client.server.clock.advance(by: 301)
            expectError(
                try await client.post(FirebaseClient.v3 + "setAccountInfo", ["idToken": idToken, "password": "N3w-passw0rd!"]),
                "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
            expectError(
                try await client.post(FirebaseClient.v1 + "accounts:update", ["idToken": idToken, "email": "new@example.com"]),
                "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
            client.server.clock.advance(by: 3300)
            expectError(
                try await client.post(FirebaseClient.v1 + "accounts:lookup", ["idToken": idToken]), "TOKEN_EXPIRED")
            let fresh = try await client.post(
                FirebaseClient.v1 + "accounts:signInWithPassword", ["email": "ada@example.com", "password": Self.password])
            let renamed = try await client.post(
                FirebaseClient.v1 + "accounts:update", ["idToken": try #require(fresh.string("idToken")), "displayName": "Ada"])
            #expect(renamed.status == 200)
            #expect(renamed.string("displayName") == "Ada")
        }
    }

    @Test("delete: lookup and refresh answer USER_NOT_FOUND, the address is free again; too old a sign-in is refused")
    func delete() async throws {
        try await withFirebaseServer { client in
            let signUp = try await client.post(
                FirebaseClient.v1 + "accounts:signUp", ["email": "ada@example.com", "password": Self.password])
            let idToken = try #require(signUp.string("idToken"))
            client.server.clock.advance(by: 301)
            expectError(
                try await client.post(FirebaseClient.v3 + "deleteAccount", ["idToken": idToken]),
                "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")

            let fresh = try await client.post(
                FirebaseClient.v3 + "verifyPassword", ["email": "ada@example.com", "password": Self.password])
            let deleted = try await client.post(
                FirebaseClient.v3 + "deleteAccount",
                ["idToken": try #require(fresh.string("idToken")), "localId": try #require(fresh.string("localId"))])
            #expect(deleted.status == 200)
            #expect(deleted.string("kind") == "identitytoolkit#DeleteAccountResponse")
            expectError(
                try await client.post(FirebaseClient.v1 + "accounts:lookup", ["idToken": fresh.string("idToken")!]),
                "USER_NOT_FOUND")
            expectError(
                try await client.post(
                    FirebaseClient.securetoken, ["grantType": "refresh_token", "refreshToken": fresh.string("refreshToken")!]),
                "USER_NOT_FOUND")
            expectError(
                try await client.post(
                    FirebaseClient.v1 + "accounts:signInWithPassword", ["email": "ada@example.com", "password": Self.password]),
                "EMAIL_NOT_FOUND")
            let again = try await client.post(
                FirebaseClient.v1 + "accounts:signUp", ["email": "ada@example.com", "password": Self.password])
            #expect(again.status == 200)
        }
    }

    @Test("a tenant that requires a second factor: sign-up and sign-in answer OPERATION_NOT_ALLOWED, no tokens")
    func secondFactorRequired() async throws {
        try await withFirebaseServer { client in
            _ = try client.server.createUser(email: "ada@example.com", password: Self.password)
            try client.server.updateTenant { $0.mfa.policy = .required }
            expectError(
                try await client.post(
                    FirebaseClient.v3 + "verifyPassword", ["email": "ada@example.com", "password": Self.password]),
                "OPERATION_NOT_ALLOWED")
            expectError(try await client.post(FirebaseClient.v3 + "signupNewUser", [:]), "OPERATION_NOT_ALLOWED")
        }
    }

    @Test("securetoken: MISSING_REFRESH_TOKEN, INVALID_GRANT_TYPE, INVALID_REFRESH_TOKEN")
    func refresh() async throws {
        try await withFirebaseServer { client in
            expectError(
                try await client.post(FirebaseClient.securetoken, ["grantType": "refresh_token"]), "MISSING_REFRESH_TOKEN")
            expectError(
                try await client.post(FirebaseClient.securetoken, ["grantType": "password", "refreshToken": "x"]),
                "INVALID_GRANT_TYPE")
            expectError(
                try await client.post(FirebaseClient.securetoken, ["grantType": "refresh_token", "refreshToken": "unknown"]),
                "INVALID_REFRESH_TOKEN")
        }
    }

    @Test("too many password attempts: TOO_MANY_ATTEMPTS_TRY_LATER with Retry-After")
    func rateLimit() async throws {
        try await withFirebaseServer { client in
            _ = try client.server.createUser(email: "ada@example.com", password: Self.password)
            var last: WireResponse?
            for _ in 0..<12 {
                last = try await client.post(
                    FirebaseClient.v3 + "verifyPassword", ["email": "ada@example.com", "password": "wrong-Passw0rd"])
                if last?.status == 400, String(decoding: last!.body, as: UTF8.self).contains("TOO_MANY") { break }
            }
            let refused = try #require(last)
            expectError(refused, "TOO_MANY_ATTEMPTS_TRY_LATER")
            #expect(Int(refused.headers["retry-after"] ?? "").map { $0 > 0 } == true, "\(refused.headers)")
        }
    }
}
