import Foundation
import LatchServer
import LatchTesting
import Testing

/// E-mail link sign-in: an `EMAIL_SIGNIN` code from `sendOobCode`, completed with
/// `accounts:signInWithEmailLink` / v3 `emailLinkSignin` (`reference/firebase-auth-protocol.md`
/// § 2, § 7).
@Suite("Firebase: e-mail link sign-in")
struct FirebaseEmailLinkSignInTests {
    typealias F = OobFixtures

    @Test("a new address: the account is created verified, without a password, and the code works once")
    func newAccount() async throws {
        try await withFirebaseServer { client in
            let code = try await F.sendCode(client, "EMAIL_SIGNIN", to: "ada@example.com")
            #expect(try F.message(client, to: "ada@example.com").body.contains("mode=signIn&lang=en&oobCode=\(code)"))
            let reply = try await client.post(F.emailLink, ["email": "Ada@Example.com", "oobCode": code])
            #expect(reply.status == 200, "\(reply.json)")
            #expect(reply.keys == ["email", "expiresIn", "idToken", "isNewUser", "kind", "localId", "refreshToken"])
            #expect(reply.string("kind") == "identitytoolkit#EmailLinkSigninResponse")
            #expect(reply.string("email") == "ada@example.com")
            #expect(reply["isNewUser"] as? Bool == true)
            #expect(reply["expiresIn"] as? String == "3600")
            let claims = try FirebaseClient.claims(of: try #require(reply.string("idToken")))
            #expect((claims["firebase"] as? [String: Any])?["sign_in_provider"] as? String == "password")
            #expect(claims["email_verified"] as? Bool == true)

            let user = try #require(try F.user(client, "ada@example.com"))
            #expect(user.id == reply.string("localId"))
            #expect(user.emailVerified)
            #expect(user.passwordHash == nil)
            let lookup = try await client.post(FirebaseClient.v1 + "accounts:lookup", ["idToken": reply.string("idToken")!])
            let users = try #require(lookup["users"] as? [[String: Any]])
            #expect(users.first?["passwordHash"] == nil)
            #expect((users.first?["providerUserInfo"] as? [[String: Any]])?.first?["providerId"] as? String == "password")
            let methods = try await client.post(
                FirebaseClient.v1 + "accounts:createAuthUri", ["identifier": "ada@example.com"])
            #expect(methods["signinMethods"] as? [String] == ["emailLink"])

            F.expectError(
                try await client.post(F.emailLink, ["email": "ada@example.com", "oobCode": code]), "INVALID_OOB_CODE")
        }
    }

    @Test("an existing account signs in (v3 emailLinkSignin), not new, and keeps its password")
    func existingAccount() async throws {
        try await withFirebaseServer { client in
            let (_, localID) = try await F.signUp(client, "bo@example.com")
            let code = try await F.sendCode(client, "EMAIL_SIGNIN", to: "bo@example.com")
            let reply = try await client.post(F.emailLinkV3, ["email": "bo@example.com", "oobCode": code])
            #expect(reply.status == 200, "\(reply.json)")
            #expect(reply.string("localId") == localID)
            #expect(reply["isNewUser"] as? Bool == false)
            let methods = try await client.post(FirebaseClient.v3 + "createAuthUri", ["identifier": "bo@example.com"])
            #expect(methods["signinMethods"] as? [String] == ["password", "emailLink"])
            #expect(try F.user(client, "bo@example.com")?.emailVerified == true)
        }
    }

    @Test("another address than the code's is INVALID_EMAIL with the sign-in detail, and the code stays usable")
    func addressMismatch() async throws {
        try await withFirebaseServer { client in
            let code = try await F.sendCode(client, "EMAIL_SIGNIN", to: "cy@example.com")
            F.expectError(
                try await client.post(F.emailLink, ["email": "not-cy@example.com", "oobCode": code]),
                "INVALID_EMAIL : The email provided does not match the sign-in email address.")
            F.expectError(try await client.post(F.emailLink, ["oobCode": code]), "MISSING_EMAIL")
            F.expectError(try await client.post(F.emailLink, ["email": "cy@example.com"]), "MISSING_OOB_CODE")
            #expect(try await client.post(F.emailLink, ["email": "cy@example.com", "oobCode": code]).status == 200)
        }
    }

    @Test("with an anonymous account's idToken the address is linked to that account")
    func linkAnonymous() async throws {
        try await withFirebaseServer { client in
            let anonymous = try await client.post(FirebaseClient.v1 + "accounts:signUp", ["returnSecureToken": true])
            let idToken = try #require(anonymous.string("idToken"))
            let localID = try #require(anonymous.string("localId"))
            let code = try await F.sendCode(client, "EMAIL_SIGNIN", to: "dee@example.com")
            let reply = try await client.post(
                F.emailLink, ["email": "dee@example.com", "oobCode": code, "idToken": idToken])
            #expect(reply.status == 200, "\(reply.json)")
            #expect(reply.string("localId") == localID)
            #expect(reply.string("email") == "dee@example.com")
            #expect(reply["isNewUser"] as? Bool == false)
            let claims = try FirebaseClient.claims(of: try #require(reply.string("idToken")))
            #expect(claims["provider_id"] == nil)
            #expect(try F.user(client, "dee@example.com")?.id == localID)
        }
    }

    @Test("linking an address another account has is EMAIL_EXISTS")
    func linkTaken() async throws {
        try await withFirebaseServer { client in
            _ = try await F.signUp(client, "eve@example.com")
            let anonymous = try await client.post(FirebaseClient.v1 + "accounts:signUp", ["returnSecureToken": true])
            let code = try await F.sendCode(client, "EMAIL_SIGNIN", to: "eve@example.com")
            F.expectError(
                try await client.post(
                    F.emailLink, ["email": "eve@example.com", "oobCode": code, "idToken": anonymous.string("idToken")!]),
                "EMAIL_EXISTS")
        }
    }

    @Test("expired, another tenant's, wrong-kind and disabled: EXPIRED_OOB_CODE, INVALID_OOB_CODE, USER_DISABLED")
    func refusals() async throws {
        try await withFirebaseServer { client in
            let other = try F.otherTenant(client)
            let code = try await F.sendCode(client, "EMAIL_SIGNIN", to: "fay@example.com")
            F.expectError(
                try await other.post(F.emailLink, ["email": "fay@example.com", "oobCode": code]), "INVALID_OOB_CODE")
            client.server.clock.advance(by: OobCodeService.lifetime + 1)
            F.expectError(
                try await client.post(F.emailLink, ["email": "fay@example.com", "oobCode": code]), "EXPIRED_OOB_CODE")

            _ = try await F.signUp(client, "gil@example.com")
            let signIn = try await F.sendCode(client, "EMAIL_SIGNIN", to: "gil@example.com")
            var user = try #require(try F.user(client, "gil@example.com"))
            user.disabled = true
            let disabled = user
            try client.server.app.services.store.write { tx in try tx.update(disabled) }
            F.expectError(
                try await client.post(F.emailLink, ["email": "gil@example.com", "oobCode": signIn]), "USER_DISABLED")
        }
    }

    @Test("concurrent sign-ins with one code: exactly one succeeds and one account exists")
    func concurrent() async throws {
        try await withFirebaseServer { client in
            let code = try await F.sendCode(client, "EMAIL_SIGNIN", to: "hal@example.com")
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<6 {
                    group.addTask {
                        try await client.post(F.emailLink, ["email": "hal@example.com", "oobCode": code]).status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 200 }.count == 1, "\(statuses)")
            #expect(statuses.filter { $0 == 400 }.count == 5, "\(statuses)")
        }
    }
}
