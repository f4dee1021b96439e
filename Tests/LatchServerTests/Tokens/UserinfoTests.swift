import Foundation
import LatchServer
import LatchTesting
import Testing

/// The userinfo endpoint (OpenID Connect Core § 5.3) and bearer-token checks (RFC 6750 § 3.1).
@Suite("Userinfo")
struct UserinfoTests {
    @Test("a valid access token gets the user's claims, by GET and by POST")
    func validAccessToken() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let client = WireClient(server)
        let (user, tokens) = try await TokenHelpers.userWithTokens(server)

        let response = try await TokenHelpers.userinfo(client, authorization: "Bearer \(tokens.accessToken)")
        #expect(response.status == 200)
        #expect(response.string("sub") == user.id)
        #expect(response.string("email") == user.email)
        #expect(response["email_verified"] as? Bool == true)
        #expect(response.string("preferred_username") == user.email)

        let post = try await client.raw(
            "POST", "/default/oidc/userinfo", headers: ["Authorization": "Bearer \(tokens.accessToken)"])
        #expect(post.status == 200)
        #expect(post.string("sub") == user.id)
    }

    @Test("no token, a garbage token, another scheme, or an ID token as bearer get 401")
    func refusedBearers() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let client = WireClient(server)
        let (_, tokens) = try await TokenHelpers.userWithTokens(server)
        let idToken = try #require(tokens.idToken)

        let missing = try await TokenHelpers.userinfo(client, authorization: nil)
        #expect(missing.status == 401)
        #expect(missing.headers["www-authenticate"]?.hasPrefix("Bearer") == true)

        let cases = [
            "Bearer garbage", "Bearer ", "Bearer a.b.c", "Basic \(tokens.accessToken)", "Bearer \(idToken)",
            "Bearer \(String(repeating: "x", count: 4000))", "Bearer \(tokens.accessToken)x",
        ]
        for authorization in cases {
            let response = try await TokenHelpers.userinfo(client, authorization: authorization)
            #expect(response.status == 401, "\(authorization.prefix(40)) → \(response.status)")
            #expect(response.json["sub"] == nil)
        }
        let garbage = try await TokenHelpers.userinfo(client, authorization: "Bearer garbage")
        #expect(garbage.error == "invalid_token")
        #expect(garbage.headers["www-authenticate"]?.contains("invalid_token") == true)
    }

    @Test("an expired access token gets 401")
    func expiredAccessToken() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let (_, tokens) = try await TokenHelpers.userWithTokens(server)
        server.clock.advance(by: TimeInterval(TenantSettings().accessTokenLifetime) + 1)
        let response = try await TokenHelpers.userinfo(WireClient(server), authorization: "Bearer \(tokens.accessToken)")
        #expect(response.status == 401)
    }

    @Test("an access token of a revoked session gets 401")
    func revokedSession() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let client = WireClient(server)
        let (_, tokens) = try await TokenHelpers.userWithTokens(server)
        _ = try TokenGrant(try await TokenHelpers.refresh(client, tokens.refreshToken))
        server.clock.advance(by: 10)
        let replay = try await TokenHelpers.refresh(client, tokens.refreshToken)
        try #require(replay.status == 400)
        let response = try await TokenHelpers.userinfo(client, authorization: "Bearer \(tokens.accessToken)")
        #expect(response.status == 401)
    }

    @Test("an access token of another tenant gets 401")
    func otherTenant() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        try server.createTenant("second", settings: TenantSettings())
        let (_, tokens) = try await TokenHelpers.userWithTokens(server, tenant: "second")
        let own = try await TokenHelpers.userinfo(
            WireClient(server, tenant: "second"), authorization: "Bearer \(tokens.accessToken)")
        #expect(own.status == 200)
        let foreign = try await TokenHelpers.userinfo(WireClient(server), authorization: "Bearer \(tokens.accessToken)")
        #expect(foreign.status == 401)
    }
}
