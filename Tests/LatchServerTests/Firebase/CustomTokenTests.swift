import Foundation
import LatchServer
import LatchTesting
import Testing

/// Custom tokens: minted through the admin service and `latchd custom-token mint`, signed RS256 with
/// the tenant's service-account key, and exchanged at `accounts:signInWithCustomToken` (v1) and
/// `verifyCustomToken` (v3) (`reference/firebase-auth-protocol.md` §§ 1, 4, 6).
@Suite("Firebase: custom tokens")
struct CustomTokenTests {
    static let v1 = FirebaseClient.v1 + "accounts:signInWithCustomToken"
    static let v3 = FirebaseClient.v3 + "verifyCustomToken"
    static let audience = "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit"

    private func expectError(
        _ reply: WireResponse, _ message: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(reply.status == 400, sourceLocation: sourceLocation)
        #expect(
            String(decoding: reply.body, as: UTF8.self) == FirebaseClient.errorBody(message),
            sourceLocation: sourceLocation)
    }

    private func mint(_ server: LatchTestServer, uid: String, claims: [String: any Sendable] = [:], tenant: String? = nil)
        throws -> String
    {
        let admin = server.app.services.admin
        return try admin.mintCustomToken(tenant: try admin.tenant(named: tenant ?? server.tenant), uid: uid, claims: claims)
    }

    private static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// An unsigned token as firebase-admin makes it against the emulator: `header.payload.`.
    private static func unsigned(uid: String, issuedAt: Int) throws -> String {
        let header = try JSONSerialization.data(withJSONObject: ["typ": "JWT", "alg": "none"])
        let payload = try JSONSerialization.data(withJSONObject: [
            "iss": "firebase-auth-emulator@example.com", "sub": "firebase-auth-emulator@example.com", "aud": audience,
            "uid": uid, "iat": issuedAt, "exp": issuedAt + 3600, "claims": ["plan": "pro"],
        ])
        return base64URL(header) + "." + base64URL(payload) + "."
    }

    @Test("a minted token is RS256 for the Identity Toolkit audience, with the tenant's service account, uid and claims")
    func mintedShape() async throws {
        try await withFirebaseServer { client in
            let token = try mint(client.server, uid: "alice", claims: ["role": "admin"])
            let header = try FirebaseClient.header(of: token)
            #expect(header["alg"] as? String == "RS256")
            #expect(header["kid"] is String)
            let claims = try FirebaseClient.claims(of: token)
            let account = "latch-service-account@\(client.server.tenant).invalid"
            #expect(claims["iss"] as? String == account)
            #expect(claims["sub"] as? String == account)
            #expect(claims["aud"] as? String == Self.audience)
            #expect(claims["uid"] as? String == "alice")
            #expect((claims["claims"] as? [String: Any])?["role"] as? String == "admin")
            let issuedAt = try #require(claims["iat"] as? Int)
            #expect(claims["exp"] as? Int == issuedAt + 3600)
            #expect(throws: AuthFailure.self) { try mint(client.server, uid: "alice", claims: ["iss": "me"]) }
            #expect(throws: AuthFailure.self) { try mint(client.server, uid: String(repeating: "u", count: 129)) }
        }
    }

    @Test("one service-account key per tenant, made on first use and sealed at rest; tokens carry its kid")
    func keyAtRest() async throws {
        try await withFirebaseServer { client in
            let services = client.server.app.services
            let tenant = try services.admin.tenant(named: client.server.tenant)
            #expect(try services.store.read { try $0.serviceAccountKey(tenantID: tenant.id) } == nil)
            let first = try mint(client.server, uid: "alice")
            let second = try mint(client.server, uid: "bob")
            let record = try #require(try services.store.read { try $0.serviceAccountKey(tenantID: tenant.id) })
            #expect(try FirebaseClient.header(of: first)["kid"] as? String == record.id)
            #expect(try FirebaseClient.header(of: second)["kid"] as? String == record.id)
            #expect(!String(decoding: record.sealedPrivateKey, as: UTF8.self).contains("PRIVATE KEY"))
            // The signing keys of ID tokens are another matter: the service-account key is not in the JWKS.
            let jwks = String(decoding: try services.keyRing.jwks(for: tenant), as: UTF8.self)
            #expect(!jwks.contains(record.id))
        }
    }

    @Test("v1 signs a new uid up and v3 signs the same account in; claims sit at the top level of the ID token")
    func signIn() async throws {
        try await withFirebaseServer { client in
            let token = try mint(client.server, uid: "alice", claims: ["role": "admin", "premium": true, "level": 3])
            let first = try await client.post(Self.v1, ["token": token, "returnSecureToken": true])
            #expect(first.status == 200, "\(first.json)")
            #expect(first.string("kind") == "identitytoolkit#VerifyCustomTokenResponse")
            #expect(first["isNewUser"] as? Bool == true)
            #expect(first.string("expiresIn") == "3600")
            #expect(first.string("refreshToken")?.isEmpty == false)
            let idToken = try #require(first.string("idToken"))
            let claims = try FirebaseClient.claims(of: idToken)
            #expect(claims["sub"] as? String == "alice")
            #expect(claims["user_id"] as? String == "alice")
            #expect(claims["role"] as? String == "admin")
            #expect(claims["premium"] as? Bool == true)
            #expect(claims["level"] as? Int == 3)
            #expect(claims["email"] == nil)
            #expect((claims["firebase"] as? [String: Any])?["sign_in_provider"] as? String == "custom")

            let lookup = try await client.post(FirebaseClient.v1 + "accounts:lookup", ["idToken": idToken])
            #expect(lookup.status == 200, "\(lookup.json)")
            let user = try #require((lookup["users"] as? [[String: Any]])?.first)
            #expect(user["localId"] as? String == "alice")
            #expect(user["email"] == nil)

            let again = try await client.post(
                Self.v3, ["token": try mint(client.server, uid: "alice"), "returnSecureToken": true])
            #expect(again.status == 200, "\(again.json)")
            #expect(again["isNewUser"] as? Bool == false)
            #expect(again.string("expiresIn") == "3600")
            let second = try FirebaseClient.claims(of: try #require(again.string("idToken")))
            #expect(second["sub"] as? String == "alice")
            #expect(second["role"] == nil)
        }
    }

    @Test("latchd custom-token mint prints a token the server signs in with; bad --uid and --claims are usage errors")
    func command() async throws {
        try await withFirebaseServer { client in
            let data = ["--data-dir", client.server.dataDirectory, "--tenant", client.server.tenant]
            let minted = try LatchdRun(["custom-token", "mint", "--uid", "cli-user", "--claims", #"{"tier":"gold"}"#] + data)
            #expect(minted.status == 0, "\(minted.stderr)")
            let token = minted.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(try FirebaseClient.claims(of: token)["uid"] as? String == "cli-user")
            let reply = try await client.post(Self.v1, ["token": token, "returnSecureToken": true])
            #expect(reply.status == 200, "\(reply.json)")
            let claims = try FirebaseClient.claims(of: try #require(reply.string("idToken")))
            #expect(claims["sub"] as? String == "cli-user")
            #expect(claims["tier"] as? String == "gold")

            #expect(try LatchdRun(["custom-token", "mint"] + data).status == 2)
            #expect(try LatchdRun(["custom-token", "mint", "--uid", "u", "--claims", #"{"aud":"x"}"#] + data).status == 2)
            #expect(try LatchdRun(["custom-token", "mint", "--uid", "u", "--claims", "[1]"] + data).status == 2)
            let help = try LatchdRun(["--help"])
            #expect(help.stdout.contains("custom-token mint"), "\(help.stdout)")
        }
    }

    @Test("another tenant's token is CREDENTIAL_MISMATCH; expired, malformed and tampered ones INVALID_CUSTOM_TOKEN")
    func refusals() async throws {
        try await withFirebaseServer { client in
            try client.server.app.services.admin.createTenant(name: "other")
            let foreign = try mint(client.server, uid: "alice", tenant: "other")
            expectError(try await client.post(Self.v1, ["token": foreign]), "CREDENTIAL_MISMATCH")
            expectError(try await client.post(Self.v3, ["token": foreign]), "CREDENTIAL_MISMATCH")

            expectError(try await client.post(Self.v1, ["token": "not-a-token"]), "INVALID_CUSTOM_TOKEN")
            expectError(try await client.post(Self.v1, [:]), "INVALID_CUSTOM_TOKEN")
            expectError(try await client.post(Self.v3, ["token": "a.b.c"]), "INVALID_CUSTOM_TOKEN")

            let token = try mint(client.server, uid: "alice")
            let parts = token.split(separator: ".").map(String.init)
            var payload = try FirebaseClient.claims(of: token)
            payload["uid"] = "mallory"
            let tampered =
                parts[0] + "." + Self.base64URL(try JSONSerialization.data(withJSONObject: payload)) + "." + parts[2]
            expectError(try await client.post(Self.v1, ["token": tampered]), "INVALID_CUSTOM_TOKEN")
            let resigned = parts[0] + "." + parts[1] + "." + String(parts[2].reversed())
            expectError(try await client.post(Self.v1, ["token": resigned]), "INVALID_CUSTOM_TOKEN")

            let services = client.server.app.services
            let tenantID = try services.admin.tenant(named: client.server.tenant).id
            #expect(try await client.post(Self.v1, ["token": try mint(client.server, uid: "dora")]).status == 200)
            try services.store.write { tx in
                var dora = try #require(try tx.user(id: "dora", tenantID: tenantID))
                dora.disabled = true
                try tx.update(dora)
            }
            expectError(try await client.post(Self.v1, ["token": try mint(client.server, uid: "dora")]), "USER_DISABLED")

            client.server.clock.advance(by: 3601)
            expectError(try await client.post(Self.v1, ["token": token]), "INVALID_CUSTOM_TOKEN")
            expectError(try await client.post(Self.v3, ["token": token]), "INVALID_CUSTOM_TOKEN")
        }
    }

    @Test("an unsigned alg:none token is refused outside emulator mode and accepted with emulator = true")
    func unsignedTokens() async throws {
        try await withFirebaseServer { client in
            let token = try Self.unsigned(uid: "emu", issuedAt: Int(client.server.clock.now().timeIntervalSince1970))
            expectError(try await client.post(Self.v1, ["token": token]), "INVALID_CUSTOM_TOKEN")
            expectError(try await client.post(Self.v3, ["token": token]), "INVALID_CUSTOM_TOKEN")
        }
        let server = try LatchTestServer.start(mode: .inProcess) { $0.emulator = true }
        defer { server.stop() }
        let client = try FirebaseClient(server)
        let token = try Self.unsigned(uid: "emu", issuedAt: Int(server.clock.now().timeIntervalSince1970))
        let reply = try await client.post(Self.v1, ["token": token, "returnSecureToken": true])
        #expect(reply.status == 200, "\(reply.json)")
        #expect(reply["isNewUser"] as? Bool == true)
        let claims = try FirebaseClient.claims(of: try #require(reply.string("idToken")))
        #expect(claims["sub"] as? String == "emu")
        #expect(claims["plan"] as? String == "pro")
        #expect((claims["firebase"] as? [String: Any])?["sign_in_provider"] as? String == "custom")
        // Signed tokens still work in emulator mode.
        let signed = try await client.post(Self.v3, ["token": try mint(server, uid: "emu")])
        #expect(signed.status == 200, "\(signed.json)")
        #expect(signed["isNewUser"] as? Bool == false)
    }
}
