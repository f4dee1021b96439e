import Foundation
import LatchServer
import LatchTesting
import Testing

/// The Identity Toolkit wire, v1 and v3: required success fields, `expiresIn` as a string,
/// `getAccountInfo` with exactly one user, and the ID token in the Firebase shape.
@Suite("Firebase: wire shape")
struct FirebaseWireTests {
    static let password = NativeAuthFixture.password

    @Test("v1 signUp, signInWithPassword and lookup answer the required fields, expiresIn a string")
    func v1Flows() async throws {
        try await withFirebaseServer { client in
            let signUp = try await client.post(
                FirebaseClient.v1 + "accounts:signUp",
                ["email": "Ada@Example.com", "password": Self.password, "returnSecureToken": true])
            #expect(signUp.status == 200, "\(String(decoding: signUp.body, as: UTF8.self))")
            #expect(signUp.keys == ["email", "expiresIn", "idToken", "kind", "localId", "refreshToken"])
            #expect(signUp["expiresIn"] as? String == "3600")
            #expect(signUp.string("email") == "ada@example.com")
            let localID = try #require(signUp.string("localId"))

            let signIn = try await client.post(
                FirebaseClient.v1 + "accounts:signInWithPassword",
                ["email": "ada@example.com", "password": Self.password, "returnSecureToken": true])
            #expect(signIn.status == 200)
            #expect(
                signIn.keys == [
                    "displayName", "email", "expiresIn", "idToken", "kind", "localId", "refreshToken", "registered",
                ])
            #expect(signIn["expiresIn"] as? String == "3600")
            #expect(signIn.string("localId") == localID)
            #expect(signIn["registered"] as? Bool == true)

            let lookup = try await client.post(FirebaseClient.v1 + "accounts:lookup", ["idToken": signIn.string("idToken")!])
            #expect(lookup.status == 200)
            let users = try #require(lookup["users"] as? [[String: Any]])
            #expect(users.count == 1)
            #expect(users[0]["localId"] as? String == localID)
            #expect(users[0]["email"] as? String == "ada@example.com")
            #expect(users[0]["emailVerified"] as? Bool == false)
            #expect(users[0]["passwordHash"] as? String == "UkVEQUNURUQ=")
            #expect((users[0]["createdAt"] as? String).flatMap(Int.init) != nil)
            let providers = try #require(users[0]["providerUserInfo"] as? [[String: Any]])
            #expect(providers.map { $0["providerId"] as? String } == ["password"])
        }
    }

    @Test("the ID token: securetoken issuer, project audience, user_id, auth_time, firebase claims, tenant key")
    func idTokenClaims() async throws {
        try await withFirebaseServer { client in
            let signUp = try await client.post(
                FirebaseClient.v3 + "signupNewUser", ["email": "bo@example.com", "password": Self.password])
            let token = try #require(signUp.string("idToken"))
            let claims = try FirebaseClient.claims(of: token)
            let now = Int(client.server.clock.now().timeIntervalSince1970)
            #expect(claims["iss"] as? String == "https://securetoken.google.com/default")
            #expect(claims["aud"] as? String == "default")
            #expect(claims["sub"] as? String == signUp.string("localId"))
            #expect(claims["user_id"] as? String == signUp.string("localId"))
            #expect((claims["auth_time"] as? NSNumber)?.intValue == now)
            #expect((claims["iat"] as? NSNumber)?.intValue == now)
            #expect((claims["exp"] as? NSNumber)?.intValue == now + 3600)
            #expect(claims["email"] as? String == "bo@example.com")
            let firebase = try #require(claims["firebase"] as? [String: Any])
            #expect(firebase["sign_in_provider"] as? String == "password")
            #expect((firebase["identities"] as? [String: Any])?["email"] as? [String] == ["bo@example.com"])
            let kid = try #require(FirebaseClient.header(of: token)["kid"] as? String)
            let jwks = try client.server.app.services.keyRing.jwks(
                for: try client.server.app.services.admin.tenant(named: "default"))
            #expect(String(decoding: jwks, as: UTF8.self).contains("\"\(kid)\""))
        }
    }

    @Test("anonymous sign-up: no e-mail, provider anonymous; off in the tenant answers OPERATION_NOT_ALLOWED")
    func anonymous() async throws {
        try await withFirebaseServer { client in
            let signUp = try await client.post(FirebaseClient.v3 + "signupNewUser", ["returnSecureToken": true])
            #expect(signUp.status == 200)
            #expect(signUp.keys == ["expiresIn", "idToken", "kind", "localId", "refreshToken"])
            let claims = try FirebaseClient.claims(of: try #require(signUp.string("idToken")))
            #expect((claims["firebase"] as? [String: Any])?["sign_in_provider"] as? String == "anonymous")
            #expect(claims["provider_id"] as? String == "anonymous")
            #expect(claims["email"] == nil)
            let info = try await client.post(FirebaseClient.v3 + "getAccountInfo", ["idToken": signUp.string("idToken")!])
            let users = try #require(info["users"] as? [[String: Any]])
            #expect(users.count == 1 && users[0]["email"] == nil && users[0]["passwordHash"] == nil)

            try client.server.updateTenant { $0.anonymousSignIn = false }
            let refused = try await client.post(FirebaseClient.v1 + "accounts:signUp", ["returnSecureToken": true])
            #expect(refused.status == 400)
            #expect(String(decoding: refused.body, as: UTF8.self) == FirebaseClient.errorBody("OPERATION_NOT_ALLOWED"))
        }
    }

    @Test("createAuthUri lists password for a known address, nothing for an unknown one, and hides both when protected")
    func createAuthUri() async throws {
        try await withFirebaseServer { client in
            _ = try client.server.createUser(email: "cy@example.com", password: Self.password)
            let known = try await client.post(
                FirebaseClient.v3 + "createAuthUri", ["identifier": "cy@example.com", "continueUri": "http://www.google.com/"])
            #expect(known.status == 200)
            #expect(known["signinMethods"] as? [String] == ["password"])
            #expect(known["registered"] as? Bool == true)
            let unknown = try await client.post(FirebaseClient.v1 + "accounts:createAuthUri", ["identifier": "no@example.com"])
            #expect(unknown["signinMethods"] as? [String] == [])
            #expect(unknown["registered"] as? Bool == false)

            try client.server.updateTenant { $0.enumerationProtection = true }
            let hidden = try await client.post(FirebaseClient.v3 + "createAuthUri", ["identifier": "cy@example.com"])
            #expect(hidden.status == 200)
            #expect(hidden.keys == ["kind"])
        }
    }

    @Test("securetoken refresh in form snake_case answers the snake_case fields, expires_in a string")
    func formRefresh() async throws {
        try await withFirebaseServer { client in
            let signUp = try await client.post(
                FirebaseClient.v1 + "accounts:signUp", ["email": "di@example.com", "password": Self.password])
            let refreshed = try await client.postForm(
                FirebaseClient.securetoken,
                ["grant_type": "refresh_token", "refresh_token": try #require(signUp.string("refreshToken"))])
            #expect(refreshed.status == 200, "\(String(decoding: refreshed.body, as: UTF8.self))")
            #expect(
                refreshed.keys == [
                    "access_token", "expires_in", "id_token", "project_id", "refresh_token", "token_type", "user_id",
                ])
            #expect(refreshed["expires_in"] as? String == "3600")
            #expect(refreshed.string("token_type") == "Bearer")
            #expect(refreshed.string("project_id") == "default")
            #expect(refreshed.string("user_id") == signUp.string("localId"))
            #expect(refreshed.string("access_token") == refreshed.string("id_token"))
            #expect(refreshed.string("refresh_token") != signUp.string("refreshToken"))
        }
    }

    @Test("signupNewUser with an anonymous account's ID token links an e-mail and password to it")
    func anonymousUpgrade() async throws {
        try await withFirebaseServer { client in
            let anonymous = try await client.post(FirebaseClient.v3 + "signupNewUser", ["returnSecureToken": true])
            let linked = try await client.post(
                FirebaseClient.v3 + "signupNewUser",
                [
                    "idToken": try #require(anonymous.string("idToken")), "email": "ada@example.com",
                    "password": Self.password, "returnSecureToken": true,
                ])
            #expect(linked.status == 200, "\(String(decoding: linked.body, as: UTF8.self))")
            #expect(linked.string("localId") == anonymous.string("localId"))
            #expect(linked.string("refreshToken") != nil)
            let claims = try FirebaseClient.claims(of: try #require(linked.string("idToken")))
            #expect((claims["firebase"] as? [String: Any])?["sign_in_provider"] as? String == "password")
            let signedIn = try await client.post(
                FirebaseClient.v1 + "accounts:signInWithPassword", ["email": "ada@example.com", "password": Self.password])
            #expect(signedIn.string("localId") == anonymous.string("localId"))
        }
    }

    @Test("an unknown endpoint under the family's paths is a 404 in Google's envelope")
    func unknownEndpoint() async throws {
        try await withFirebaseServer { client in
            let reply = try await client.post(FirebaseClient.v1 + "accounts:nothing", [:])
            #expect(reply.status == 404)
            #expect(String(decoding: reply.body, as: UTF8.self) == FirebaseClient.errorBody("NOT_FOUND", code: 404))
        }
    }

    @Test("over a real socket: accounts:signUp and the v3 alias route with the colon and ?key=")
    func liveSocket() async throws {
        let server = try LatchTestServer.start(mode: .live)
        defer { server.stop() }
        let client = try FirebaseClient(server)
        let signUp = try await client.post(
            FirebaseClient.v1 + "accounts:signUp", ["email": "ada@example.com", "password": Self.password])
        #expect(signUp.status == 200, "\(String(decoding: signUp.body, as: UTF8.self))")
        let info = try await client.post(
            FirebaseClient.v3 + "getAccountInfo", ["idToken": try #require(signUp.string("idToken"))])
        #expect((info["users"] as? [[String: Any]])?.count == 1)
    }
}
