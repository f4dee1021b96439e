import Foundation
import LatchCrypto
import LatchServer
import LatchTesting
import Testing

/// Sign-in with a tenant's OIDC identity provider at `accounts:signInWithIdp` (v1) and
/// `verifyAssertion` (v3) (`reference/firebase-auth-protocol.md` §§ 1, 3, 4).
@Suite("Firebase: OIDC identity providers")
struct FirebaseIdentityProviderTests {
    typealias Fixture = IdentityProviderFixture

    @Test("a new identity makes an account: token triple, providerId, federatedId, rawUserInfo, oauthIdToken, isNewUser")
    func newUser() async throws {
        try await withIdentityProvider { idp in
            let token = try idp.token(
                "sub-alice", email: "Alice@Example.com", claims: ["name": "Alice", "picture": "https://pic.test/a.png"])
            let reply = try await idp.signIn(token)
            #expect(reply.status == 200, "\(reply.json)")
            #expect(reply.string("kind") == "identitytoolkit#VerifyAssertionResponse")
            #expect(reply["isNewUser"] as? Bool == true)
            #expect(reply.string("providerId") == Fixture.providerID)
            #expect(reply.string("federatedId") == "sub-alice")
            #expect(reply.string("email") == "alice@example.com")
            #expect(reply["emailVerified"] as? Bool == true)
            #expect(reply.string("displayName") == "Alice")
            #expect(reply.string("oauthIdToken") == token)
            #expect(reply.string("expiresIn") == "3600")
            #expect(reply.string("refreshToken")?.isEmpty == false)
            #expect(reply["needConfirmation"] == nil)
            let raw = try #require(reply.string("rawUserInfo"))
            let info = try #require(try JSONSerialization.jsonObject(with: Data(raw.utf8)) as? [String: Any])
            #expect(info["sub"] as? String == "sub-alice")
            #expect(info["name"] as? String == "Alice")

            let localID = try #require(reply.string("localId"))
            let idToken = try #require(reply.string("idToken"))
            let claims = try FirebaseClient.claims(of: idToken)
            #expect(claims["sub"] as? String == localID)
            #expect(claims["email"] as? String == "alice@example.com")
            #expect(claims["email_verified"] as? Bool == true)
            let firebase = try #require(claims["firebase"] as? [String: Any])
            #expect(firebase["sign_in_provider"] as? String == Fixture.providerID)
            let identities = try #require(firebase["identities"] as? [String: Any])
            #expect(identities[Fixture.providerID] as? [String] == ["sub-alice"])
            #expect(identities["email"] as? [String] == ["alice@example.com"])

            let user = try await idp.lookup(idToken)
            #expect(user["localId"] as? String == localID)
            #expect(user["email"] as? String == "alice@example.com")
            #expect(user["emailVerified"] as? Bool == true)
            #expect(user["passwordHash"] == nil)
            let linked = try #require(Fixture.providerInfo(user))
            #expect(linked["federatedId"] as? String == "sub-alice")
            #expect(linked["rawId"] as? String == "sub-alice")
            #expect(linked["email"] as? String == "alice@example.com")
            #expect(linked["displayName"] as? String == "Alice")
            #expect(linked["photoUrl"] as? String == "https://pic.test/a.png")
            #expect(Fixture.providerInfo(user, "password") == nil)

            // The refreshed token keeps the provider.
            let refreshed = try await idp.client.post(
                FirebaseClient.securetoken,
                ["grantType": "refresh_token", "refreshToken": try #require(reply.string("refreshToken"))])
            #expect(refreshed.status == 200, "\(refreshed.json)")
            let again = try FirebaseClient.claims(of: try #require(refreshed.string("id_token")))
            #expect((again["firebase"] as? [String: Any])?["sign_in_provider"] as? String == Fixture.providerID)
        }
    }

    @Test("a known identity signs its account in (ES256 too); autoCreate:false; a disabled account is USER_DISABLED")
    func returningUser() async throws {
        try await withIdentityProvider { idp in
            let first = try await idp.signIn(try idp.token("sub-bob", email: "bob@example.com"))
            #expect(first.status == 200, "\(first.json)")
            let localID = try #require(first.string("localId"))

            let second = try await idp.signIn(try idp.token("sub-bob", email: "bob@example.com", key: Fixture.ec))
            #expect(second.status == 200, "\(second.json)")
            #expect(second["isNewUser"] as? Bool == false)
            #expect(second.string("localId") == localID)

            // Reauthentication sends autoCreate:false: a known identity signs in, an unknown one is refused.
            let reauth = try await idp.signIn(try idp.token("sub-bob"), extra: ["autoCreate": false])
            #expect(reauth.status == 200, "\(reauth.json)")
            #expect(reauth.string("localId") == localID)
            Fixture.expectError(
                try await idp.signIn(try idp.token("sub-nobody", email: "nobody@example.com"), extra: ["autoCreate": false]),
                "USER_NOT_FOUND")

            let services = idp.server.app.services
            let tenantID = try services.admin.tenant(named: idp.server.tenant).id
            try services.store.write { tx in
                var bob = try #require(try tx.user(id: localID, tenantID: tenantID))
                bob.disabled = true
                try tx.update(bob)
            }
            Fixture.expectError(try await idp.signIn(try idp.token("sub-bob")), "USER_DISABLED")
            #expect(try services.store.read { try $0.userCount(tenantID: tenantID) } == 1)
        }
    }

    @Test("a new identity whose e-mail another account has answers needConfirmation with email and providerId, no tokens")
    func needConfirmation() async throws {
        try await withIdentityProvider { idp in
            let signUp = try await idp.client.post(
                FirebaseClient.v1 + "accounts:signUp",
                ["email": "carol@example.com", "password": "Correct-Horse-42", "returnSecureToken": true])
            #expect(signUp.status == 200, "\(signUp.json)")
            let reply = try await idp.signIn(try idp.token("sub-carol", email: "carol@example.com"))
            #expect(reply.status == 200, "\(reply.json)")
            #expect(reply["needConfirmation"] as? Bool == true)
            #expect(reply.string("email") == "carol@example.com")
            #expect(reply.string("providerId") == Fixture.providerID)
            #expect(reply.string("kind") == "identitytoolkit#VerifyAssertionResponse")
            #expect(reply["idToken"] == nil)
            #expect(reply["refreshToken"] == nil)
            #expect(reply["localId"] == nil)
            let tenantID = try idp.server.app.services.admin.tenant(named: idp.server.tenant).id
            #expect(try idp.server.app.services.store.read { try $0.userCount(tenantID: tenantID) } == 1)
        }
    }

    @Test("idToken links the identity to an anonymous account, which takes the provider's e-mail address")
    func linkToAnonymous() async throws {
        try await withIdentityProvider { idp in
            let anonymous = try await idp.client.post(FirebaseClient.v1 + "accounts:signUp", ["returnSecureToken": true])
            #expect(anonymous.status == 200, "\(anonymous.json)")
            let localID = try #require(anonymous.string("localId"))
            let anonymousToken = try #require(anonymous.string("idToken"))

            let link = try await idp.signIn(
                try idp.token("sub-dave", email: "dave@example.com"), extra: ["idToken": anonymousToken])
            #expect(link.status == 200, "\(link.json)")
            // The Apple SDK crashes on a link answer without these three.
            #expect(link.string("idToken")?.isEmpty == false)
            #expect(link.string("refreshToken")?.isEmpty == false)
            #expect(link.string("providerId") == Fixture.providerID)
            #expect(link.string("localId") == localID)
            #expect(link["isNewUser"] as? Bool == false)
            let claims = try FirebaseClient.claims(of: try #require(link.string("idToken")))
            #expect((claims["firebase"] as? [String: Any])?["sign_in_provider"] as? String == Fixture.providerID)
            #expect(claims["provider_id"] == nil)

            let user = try await idp.lookup(try #require(link.string("idToken")))
            #expect(user["email"] as? String == "dave@example.com")
            #expect(Fixture.providerInfo(user)?["rawId"] as? String == "sub-dave")

            // The identity now signs that account in; linking it again is harmless.
            let signIn = try await idp.signIn(try idp.token("sub-dave"))
            #expect(signIn.status == 200, "\(signIn.json)")
            #expect(signIn.string("localId") == localID)
            let relink = try await idp.signIn(
                try idp.token("sub-dave"), extra: ["idToken": try #require(signIn.string("idToken"))])
            #expect(relink.status == 200, "\(relink.json)")
        }
    }

    @Test("linking an identity another account holds is FEDERATED_USER_ID_ALREADY_LINKED; a second one PROVIDER_ALREADY_LINKED")
    func linkRefusals() async throws {
        try await withIdentityProvider { idp in
            #expect(try await idp.signIn(try idp.token("sub-erin", email: "erin@example.com")).status == 200)
            let anonymous = try await idp.client.post(FirebaseClient.v1 + "accounts:signUp", ["returnSecureToken": true])
            let accountToken = try #require(anonymous.string("idToken"))
            Fixture.expectError(
                try await idp.signIn(try idp.token("sub-erin"), extra: ["idToken": accountToken]),
                "FEDERATED_USER_ID_ALREADY_LINKED")

            let linked = try await idp.signIn(try idp.token("sub-frank"), extra: ["idToken": accountToken])
            #expect(linked.status == 200, "\(linked.json)")
            Fixture.expectError(
                try await idp.signIn(
                    try idp.token("sub-frank-2"), extra: ["idToken": try #require(linked.string("idToken"))]),
                "PROVIDER_ALREADY_LINKED")
            Fixture.expectError(
                try await idp.signIn(try idp.token("sub-gina"), extra: ["idToken": "not-a-token"]), "INVALID_ID_TOKEN")
        }
    }

    @Test("deleteProvider unlinks the identity (lookup stops listing it); password goes only while another provider stays")
    func unlink() async throws {
        try await withIdentityProvider { idp in
            let signUp = try await idp.client.post(
                FirebaseClient.v1 + "accounts:signUp",
                ["email": "hank@example.com", "password": "Correct-Horse-42", "returnSecureToken": true])
            let passwordToken = try #require(signUp.string("idToken"))
            let update = FirebaseClient.v1 + "accounts:update"
            Fixture.expectError(
                try await idp.client.post(update, ["idToken": passwordToken, "deleteProvider": ["password"]]),
                "OPERATION_NOT_ALLOWED")

            let link = try await idp.signIn(try idp.token("sub-hank"), extra: ["idToken": passwordToken])
            #expect(link.status == 200, "\(link.json)")
            let linkedToken = try #require(link.string("idToken"))
            let methods = try await idp.client.post(
                FirebaseClient.v1 + "accounts:createAuthUri", ["identifier": "hank@example.com", "continueUri": "http://x"])
            #expect(methods["signinMethods"] as? [String] == ["password", Fixture.providerID])

            let unlinked = try await idp.client.post(
                update, ["idToken": linkedToken, "deleteProvider": [Fixture.providerID], "returnSecureToken": true])
            #expect(unlinked.status == 200, "\(unlinked.json)")
            #expect(Fixture.providerInfo(unlinked.json) == nil)
            #expect(Fixture.providerInfo(unlinked.json, "password") != nil)
            let user = try await idp.lookup(try #require(unlinked.string("idToken")))
            #expect(Fixture.providerInfo(user) == nil)
            let claims = try FirebaseClient.claims(of: try #require(unlinked.string("idToken")))
            let identities = (claims["firebase"] as? [String: Any])?["identities"] as? [String: Any]
            #expect(identities?[Fixture.providerID] == nil)

            // Linked again, the password can go; unlinking needs a recent sign-in.
            let relink = try await idp.signIn(
                try idp.token("sub-hank"), extra: ["idToken": try #require(unlinked.string("idToken"))])
            let relinked = try #require(relink.string("idToken"))
            let noPassword = try await idp.client.post(update, ["idToken": relinked, "deleteProvider": ["password"]])
            #expect(noPassword.status == 200, "\(noPassword.json)")
            #expect(noPassword["passwordHash"] == nil)
            #expect(Fixture.providerInfo(try await idp.lookup(relinked), "password") == nil)
            idp.server.clock.advance(by: 301)
            Fixture.expectError(
                try await idp.client.post(update, ["idToken": relinked, "deleteProvider": [Fixture.providerID]]),
                "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
        }
    }

    @Test("expired, wrong audience, wrong issuer, bad signature, unknown kid and malformed tokens are INVALID_IDP_RESPONSE")
    func badTokens() async throws {
        try await withIdentityProvider { idp in
            let invalid = "INVALID_IDP_RESPONSE"
            Fixture.expectError(
                try await idp.signIn(try idp.token("sub-x", claims: ["exp": idp.now - 120, "iat": idp.now - 3720])), invalid)
            Fixture.expectError(try await idp.signIn(try idp.token("sub-x", claims: ["aud": "someone-else"])), invalid)
            Fixture.expectError(try await idp.signIn(try idp.token("sub-x", claims: ["aud": ["a", "b"]])), invalid)
            #expect(try await idp.signIn(try idp.token("sub-x", claims: ["aud": ["a", Fixture.clientID]])).status == 200)
            Fixture.expectError(
                try await idp.signIn(try idp.token("sub-x", claims: ["iss": "https://login.evil.test"])), invalid)
            Fixture.expectError(try await idp.signIn(try idp.token("sub-x", claims: ["iat": idp.now + 600])), invalid)
            Fixture.expectError(try await idp.signIn(try idp.token("sub-x", claims: ["nbf": idp.now + 600])), invalid)
            // Within the skew is fine.
            #expect(
                try await idp.signIn(try idp.token("sub-x", claims: ["exp": idp.now - 30, "iat": idp.now - 90])).status == 200)
            Fixture.expectError(try await idp.signIn(try idp.token("", claims: [:])), invalid)
            Fixture.expectError(try await idp.signIn(try idp.token("sub-x", claims: ["exp": NSNull()])), invalid)

            let good = try idp.token("sub-x")
            let parts = good.split(separator: ".").map(String.init)
            Fixture.expectError(try await idp.signIn(parts[0] + "." + parts[1] + "." + String(parts[2].reversed())), invalid)
            // Signed by a key the JWKS lacks, under a kid it has, and under one it lacks.
            Fixture.expectError(try await idp.signIn(try idp.token("sub-x", key: Fixture.stranger)), invalid)
            let unknownKid = try SigningKey.generate(.es256, id: "acme-ec-unknown")
            Fixture.expectError(try await idp.signIn(try idp.token("sub-x", key: unknownKid)), invalid)
            // alg:none, garbage, and nothing at all.
            let header = Data(#"{"alg":"none","kid":"acme-rsa-1"}"#.utf8).base64EncodedString()
                .replacingOccurrences(of: "=", with: "")
            Fixture.expectError(try await idp.signIn(header + "." + parts[1] + "."), invalid)
            Fixture.expectError(try await idp.signIn("not-a-jwt"), invalid)
            Fixture.expectError(
                try await idp.client.post(Fixture.v1, ["requestUri": "http://localhost", "postBody": "providerId=oidc.acme"]),
                invalid)
            Fixture.expectError(try await idp.client.post(Fixture.v1, ["requestUri": "http://localhost"]), invalid)
            Fixture.expectError(
                try await idp.client.post(Fixture.v1, ["requestUri": "http://localhost", "postBody": "id_token=\(good)"]),
                invalid)
            Fixture.expectError(
                try await idp.client.post(Fixture.v1, ["postBody": "providerId=oidc.acme&id_token=\(good)"]),
                "MISSING_REQUEST_URI")
        }
    }

    @Test("the raw nonce's SHA-256 must equal the token's nonce claim: MISSING_OR_INVALID_NONCE otherwise")
    func nonce() async throws {
        try await withIdentityProvider { idp in
            let raw = "n0nce+with/odd=chars"
            let hashed = Digest.sha256Hex(raw)
            let token = try idp.token("sub-nina", claims: ["nonce": hashed])
            #expect(try await idp.signIn(token, nonce: raw).status == 200)
            Fixture.expectError(try await idp.signIn(token, nonce: "other"), "MISSING_OR_INVALID_NONCE")
            Fixture.expectError(try await idp.signIn(token, nonce: hashed), "MISSING_OR_INVALID_NONCE")
            Fixture.expectError(try await idp.signIn(token), "MISSING_OR_INVALID_NONCE")
            Fixture.expectError(try await idp.signIn(try idp.token("sub-nina"), nonce: raw), "MISSING_OR_INVALID_NONCE")
        }
    }

    @Test("an unknown, disabled, non-oidc or other tenant's provider is OPERATION_NOT_ALLOWED")
    func providers() async throws {
        try await withIdentityProvider { idp in
            let admin = idp.server.app.services.admin
            let other = try admin.createTenant(name: "other")
            try admin.addIdentityProvider(
                tenant: other, providerID: "oidc.elsewhere", issuer: Fixture.issuer, clientID: Fixture.clientID,
                jwksURL: nil, jwksJSON: Fixture.jwks)
            let tenant = try admin.tenant(named: idp.server.tenant)
            try admin.addIdentityProvider(
                tenant: tenant, providerID: "oidc.off", issuer: Fixture.issuer, clientID: Fixture.clientID, jwksURL: nil,
                jwksJSON: Fixture.jwks, enabled: false)
            let token = try idp.token("sub-olga")
            for provider in ["oidc.elsewhere", "oidc.off", "oidc.unknown", "google.com", "password"] {
                Fixture.expectError(try await idp.signIn(token, provider: provider), "OPERATION_NOT_ALLOWED")
            }
            #expect(try await idp.signIn(token).status == 200)
            // The admin checks the CLI repeats.
            #expect(throws: AuthFailure.invalidParameter(.providerID)) {
                try admin.addIdentityProvider(
                    tenant: tenant, providerID: "acme", issuer: Fixture.issuer, clientID: "c", jwksURL: nil,
                    jwksJSON: Fixture.jwks)
            }
            #expect(throws: AuthFailure.invalidParameter(.issuer)) {
                try admin.addIdentityProvider(
                    tenant: tenant, providerID: "oidc.x", issuer: "http://login.acme.test", clientID: "c", jwksURL: nil,
                    jwksJSON: Fixture.jwks)
            }
            #expect(throws: AuthFailure.invalidParameter(.jwks)) {
                try admin.addIdentityProvider(
                    tenant: tenant, providerID: "oidc.x", issuer: Fixture.issuer, clientID: "c", jwksURL: nil,
                    jwksJSON: #"{"keys":[]}"#)
            }
            #expect(throws: StoreError.self) {
                try admin.addIdentityProvider(
                    tenant: tenant, providerID: Fixture.providerID, issuer: Fixture.issuer, clientID: "c", jwksURL: nil,
                    jwksJSON: Fixture.jwks)
            }
            #expect(try admin.removeIdentityProvider(tenant: tenant, providerID: Fixture.providerID))
            Fixture.expectError(try await idp.signIn(token), "OPERATION_NOT_ALLOWED")
        }
    }

    @Test("verifyAssertion (v3) answers as signInWithIdp (v1)")
    func v3Alias() async throws {
        try await withIdentityProvider { idp in
            let v3 = try await idp.signIn(try idp.token("sub-vera", email: "vera@example.com"), path: Fixture.v3)
            #expect(v3.status == 200, "\(v3.json)")
            #expect(v3["isNewUser"] as? Bool == true)
            let v1 = try await idp.signIn(try idp.token("sub-vera", email: "vera@example.com"))
            #expect(v1["isNewUser"] as? Bool == false)
            #expect(v1.string("localId") == v3.string("localId"))
            let volatile: Set = ["idToken", "refreshToken", "isNewUser", "oauthIdToken", "rawUserInfo"]
            #expect(v1.keys.filter { !volatile.contains($0) } == v3.keys.filter { !volatile.contains($0) })
            Fixture.expectError(try await idp.signIn("garbage", path: Fixture.v3), "INVALID_IDP_RESPONSE")
        }
    }

    @Test("concurrent first sign-ins of one identity make exactly one account")
    func concurrentFirstSignIn() async throws {
        try await withIdentityProvider { idp in
            let token = try idp.token("sub-race", email: "race@example.com")
            let replies = try await withThrowingTaskGroup(of: WireResponse.self) { group in
                for _ in 0..<8 { group.addTask { try await idp.signIn(token) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(replies.allSatisfy { $0.status == 200 }, "\(replies.map(\.json))")
            #expect(Set(replies.compactMap { $0.string("localId") }).count == 1)
            #expect(replies.filter { $0["isNewUser"] as? Bool == true }.count == 1)
            let tenantID = try idp.server.app.services.admin.tenant(named: idp.server.tenant).id
            #expect(try idp.server.app.services.store.read { try $0.userCount(tenantID: tenantID) } == 1)
        }
    }

    @Test("deleting the account deletes its identities: the identity then makes a new account")
    func deleteAccount() async throws {
        try await withIdentityProvider { idp in
            let first = try await idp.signIn(try idp.token("sub-del", email: "del@example.com"))
            let deleted = try await idp.client.post(
                FirebaseClient.v1 + "accounts:delete", ["idToken": try #require(first.string("idToken"))])
            #expect(deleted.status == 200, "\(deleted.json)")
            let again = try await idp.signIn(try idp.token("sub-del", email: "del@example.com"))
            #expect(again.status == 200, "\(again.json)")
            #expect(again["isNewUser"] as? Bool == true)
            #expect(again.string("localId") != first.string("localId"))
        }
    }

    @Test("an identity without an e-mail address makes an account without one")
    func noEmail() async throws {
        try await withIdentityProvider { idp in
            let reply = try await idp.signIn(try idp.token("sub-quiet"))
            #expect(reply.status == 200, "\(reply.json)")
            #expect(reply["email"] == nil)
            let claims = try FirebaseClient.claims(of: try #require(reply.string("idToken")))
            #expect(claims["email"] == nil)
            let user = try await idp.lookup(try #require(reply.string("idToken")))
            #expect(user["email"] == nil)
            #expect(Fixture.providerInfo(user)?["rawId"] as? String == "sub-quiet")
        }
    }
}
