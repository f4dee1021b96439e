import Foundation
import LatchCrypto
import LatchServer
import LatchTesting
import LatchWire
import Testing

/// A bearer token is accepted only for what it is (RFC 9068, RFC 8725 § 3.11): an `at+jwt` access
/// token of this tenant, for one of its clients, with a live session, in strict base64url.
@Suite("Access-token checks")
struct AccessTokenChecksTests {
    /// A server with a signed-in user, and a way to sign arbitrary claims with the tenant's key.
    struct Setup {
        let server: LatchTestServer
        let client: WireClient
        let tokens: TokenGrant
        let claims: JWTClaims
        let tenant: Tenant

        init() async throws {
            server = try LatchTestServer.start(mode: .inProcess)
            client = WireClient(server)
            (_, tokens) = try await TokenHelpers.userWithTokens(server, scope: "openid offline_access")
            let payload = try #require(JWT.unverifiedPayload(tokens.accessToken))
            claims = try JSONDecoder().decode(JWTClaims.self, from: Data(payload))
            tenant = try server.app.services.admin.tenant(named: "default")
        }

        /// `claims` signed with the tenant's active key, typed `type`.
        func forge(_ claims: JWTClaims, type: String = "at+jwt") throws -> String {
            let key = try server.app.services.keyRing.signingKey(for: tenant)
            return try JWT.sign(payload: Array(try JSONEncoder().encode(claims)), key: key, type: type)
        }

        func userinfo(_ token: String) async throws -> Int {
            try await TokenHelpers.userinfo(client, authorization: "Bearer \(token)").status
        }
    }

    @Test("the genuine access token is accepted; an ID token is not")
    func idTokenRefused() async throws {
        let setup = try await Setup()
        defer { setup.server.stop() }
        #expect(try await setup.userinfo(setup.tokens.accessToken) == 200)
        #expect(try await setup.userinfo(try #require(setup.tokens.idToken)) == 401)
        #expect(try await setup.userinfo(try setup.forge(setup.claims, type: "JWT")) == 401)
        #expect(try await setup.userinfo(try setup.forge(setup.claims, type: "application/at+jwt")) == 200)
    }

    @Test("wrong audience, unknown client, another tenant's tid, no or unknown sid: refused though signed")
    func claimChecks() async throws {
        let setup = try await Setup()
        defer { setup.server.stop() }
        var wrongAudience = setup.claims
        wrongAudience.aud = "someone-else"
        var unknownClient = setup.claims
        unknownClient.aud = "ghost-app"
        unknownClient.clientID = "ghost-app"
        var otherTenant = setup.claims
        otherTenant.tid = UUID().uuidString.lowercased()
        var noSession = setup.claims
        noSession.sid = nil
        var unknownSession = setup.claims
        unknownSession.sid = UUID().uuidString.lowercased()
        var noScope = setup.claims
        noScope.scp = nil
        for (name, claims) in [
            ("aud", wrongAudience), ("client", unknownClient), ("tid", otherTenant), ("no sid", noSession),
            ("unknown sid", unknownSession), ("no scp", noScope),
        ] {
            #expect(try await setup.userinfo(try setup.forge(claims)) == 401, "\(name)")
        }
        #expect(try await setup.userinfo(try setup.forge(setup.claims)) == 200, "the forged copy of a valid set is fine")
    }

    @Test("base64url is strict: '+', '/' or padding in a segment is refused")
    func strictBase64URL() async throws {
        let setup = try await Setup()
        defer { setup.server.stop() }
        let parts = setup.tokens.accessToken.split(separator: ".").map(String.init)
        let padded = parts[0] + "=." + parts[1] + "." + parts[2]
        let standardAlphabet = [parts[0], parts[1], parts[2].replacingOccurrences(of: "-", with: "+")]
            .joined(separator: ".")
        for token in [padded, standardAlphabet] where token != setup.tokens.accessToken {
            #expect(try await setup.userinfo(token) == 401)
        }
    }

    @Test("latchd keys revoke: the key leaves the JWKS and verification at once; a fresh key signs")
    func revokeKey() async throws {
        let setup = try await Setup()
        defer { setup.server.stop() }
        let kid = try #require(try DecodedJWT(setup.tokens.accessToken).kid)
        let signer = try setup.server.app.services.admin.revokeKey(tenant: setup.tenant, kid: kid)
        #expect(signer.id != kid)
        #expect(try await setup.userinfo(setup.tokens.accessToken) == 401)
        let jwks = try await TokenHelpers.jwks(setup.client)
        #expect(!jwks.keys.map(\.kid).contains(kid))
        #expect(jwks.keys.map(\.kid).contains(signer.id))
        let (_, fresh) = try await TokenHelpers.userWithTokens(setup.server)
        #expect(try DecodedJWT(fresh.accessToken).kid == signer.id)
        #expect(try await setup.userinfo(fresh.accessToken) == 200)
        #expect(throws: AuthFailure.invalidParameter(.keyID)) {
            try setup.server.app.services.admin.revokeKey(tenant: setup.tenant, kid: kid)
        }
        let audit = try setup.server.app.services.admin.auditEvents(tenant: setup.tenant)
        #expect(audit.contains { $0.kind == .keyRevoked && $0.detail == "kid=\(kid)" })
    }
}
