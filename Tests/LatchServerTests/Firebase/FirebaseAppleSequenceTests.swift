import Foundation
import LatchServer
import LatchTesting
import Testing

/// The raw REST sequence of the Apple SDK on v3 (`reference/firebase-auth-protocol.md` § 4), and
/// one account across the Firebase and native-auth wires.
@Suite("Firebase: Apple SDK sequence")
struct FirebaseAppleSequenceTests {
    static let password = NativeAuthFixture.password
    static let newPassword = NativeAuthFixture.otherPassword

    @Test("signupNewUser, getAccountInfo, verifyPassword, setAccountInfo(password); the old refresh token is TOKEN_EXPIRED")
    func createUserAndChangePassword() async throws {
        try await withFirebaseServer { client in
            let v3 = FirebaseClient.v3
            let created = try await client.post(
                v3 + "signupNewUser",
                [
                    "email": "ada@example.com", "password": Self.password, "returnSecureToken": true,
                    "clientType": "CLIENT_TYPE_IOS",
                ])
            #expect(created.status == 200)
            let info = try await client.post(v3 + "getAccountInfo", ["idToken": try #require(created.string("idToken"))])
            #expect((info["users"] as? [[String: Any]])?.count == 1)

            let signedIn = try await client.post(
                v3 + "verifyPassword",
                [
                    "email": "ada@example.com", "password": Self.password, "returnSecureToken": true,
                    "clientType": "CLIENT_TYPE_IOS",
                ])
            #expect(signedIn.status == 200)
            #expect(signedIn["expiresIn"] as? String == "3600")
            let oldRefresh = try #require(signedIn.string("refreshToken"))

            client.server.clock.advance(by: 2)
            let changed = try await client.post(
                v3 + "setAccountInfo",
                ["idToken": try #require(signedIn.string("idToken")), "password": Self.newPassword, "returnSecureToken": true])
            #expect(changed.status == 200, "\(String(decoding: changed.body, as: UTF8.self))")
            #expect(changed["expiresIn"] as? String == "3600")
            let newRefresh = try #require(changed.string("refreshToken"))
            #expect(changed.string("localId") == created.string("localId"))

            let staleID = try await client.post(v3 + "getAccountInfo", ["idToken": signedIn.string("idToken")!])
            #expect(String(decoding: staleID.body, as: UTF8.self) == FirebaseClient.errorBody("TOKEN_EXPIRED"))
            let currentID = try await client.post(v3 + "getAccountInfo", ["idToken": changed.string("idToken")!])
            #expect((currentID["users"] as? [[String: Any]])?.count == 1)

            let stale = try await client.post(
                FirebaseClient.securetoken, ["grantType": "refresh_token", "refreshToken": oldRefresh])
            #expect(stale.status == 400)
            #expect(String(decoding: stale.body, as: UTF8.self) == FirebaseClient.errorBody("TOKEN_EXPIRED"))

            let refreshed = try await client.post(
                FirebaseClient.securetoken, ["grantType": "refresh_token", "refreshToken": newRefresh])
            #expect(refreshed.status == 200, "\(String(decoding: refreshed.body, as: UTF8.self))")
            #expect(refreshed["expires_in"] as? String == "3600")
            #expect(refreshed.string("user_id") == created.string("localId"))
            let claims = try FirebaseClient.claims(of: try #require(refreshed.string("access_token")))
            #expect(claims["user_id"] as? String == created.string("localId"))

            let old = try await client.post(
                v3 + "verifyPassword", ["email": "ada@example.com", "password": Self.password, "returnSecureToken": true])
            #expect(String(decoding: old.body, as: UTF8.self) == FirebaseClient.errorBody("INVALID_PASSWORD"))
            let new = try await client.post(
                v3 + "verifyPassword", ["email": "ada@example.com", "password": Self.newPassword, "returnSecureToken": true])
            #expect(new.status == 200)
        }
    }

    @Test("an account made here signs in through native auth, and a native sign-up signs in here, as one account")
    func sameAccountOnEveryWire() async throws {
        try await withFirebaseServer { client in
            let native = NativeAuthFlows(client.server)
            let created = try await client.post(
                FirebaseClient.v1 + "accounts:signUp", ["email": "ada@example.com", "password": Self.password])
            let tokens = try await native.signIn("ada@example.com", password: Self.password)
            #expect(tokens.stringClaim("sub") == created.string("localId"))

            let nativeTokens = try await native.signUp("bo@example.com", password: Self.password)
            let signedIn = try await client.post(
                FirebaseClient.v3 + "verifyPassword", ["email": "bo@example.com", "password": Self.password])
            #expect(signedIn.status == 200)
            #expect(signedIn.string("localId") == nativeTokens.stringClaim("sub"))
        }
    }

    @Test("a password change here ends native-auth sessions too, and a validSince after a session's start refuses its refresh")
    func validSinceEndsNativeSessions() async throws {
        try await withFirebaseServer { client in
            let native = NativeAuthFlows(client.server)
            _ = try await client.post(
                FirebaseClient.v1 + "accounts:signUp", ["email": "ada@example.com", "password": Self.password])
            let nativeTokens = try await native.signIn("ada@example.com", password: Self.password)
            let signedIn = try await client.post(
                FirebaseClient.v1 + "accounts:signInWithPassword", ["email": "ada@example.com", "password": Self.password])
            let changed = try await client.post(
                FirebaseClient.v1 + "accounts:update",
                ["idToken": try #require(signedIn.string("idToken")), "password": Self.newPassword])
            #expect(changed.status == 200)
            let stale = try await native.refresh(try #require(nativeTokens.refreshToken))
            #expect(stale.status == 400)
            #expect(stale.error == "invalid_grant")

            // validSince alone (no revocation): a session that began before it cannot refresh.
            let again = try await native.signIn("ada@example.com", password: Self.newPassword)
            let tenant = try client.server.app.services.admin.tenant(named: "default")
            try client.server.app.services.store.write { tx in
                var user = try #require(try tx.user(email: "ada@example.com", tenantID: tenant.id))
                user.validSince = client.server.clock.now().addingTimeInterval(1)
                try tx.update(user)
            }
            let refused = try await native.refresh(try #require(again.refreshToken))
            #expect(refused.error == "invalid_grant")
        }
    }
}
