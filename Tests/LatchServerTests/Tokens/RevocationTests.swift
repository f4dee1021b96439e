import Foundation
import LatchServer
import LatchTesting
import Testing

/// Token revocation (RFC 7009): a client ends its session with either of its tokens; unknown
/// tokens are no error; another client's token is refused and stays valid.
@Suite("Token revocation")
struct RevocationTests {
    static func revoke(_ client: WireClient, _ token: String?, hint: String? = nil) async throws -> WireResponse {
        var form: [String: String] = [:]
        if let token { form["token"] = token }
        if let hint { form["token_type_hint"] = hint }
        return try await client.post("oauth2/v2.0/revoke", form)
    }

    static func userinfo(_ client: WireClient, _ accessToken: String) async throws -> Int {
        try await client.raw("GET", "/\(client.tenant)/oidc/userinfo", headers: ["Authorization": "Bearer \(accessToken)"])
            .status
    }

    @Test("revoking the refresh token ends the session: the refresh token and the access token stop working")
    func refreshToken() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let client = WireClient(server)
        let (_, tokens) = try await TokenHelpers.userWithTokens(server)
        let refreshToken = try #require(tokens.refreshToken)
        #expect(try await Self.userinfo(client, tokens.accessToken) == 200)
        let reply = try await Self.revoke(client, refreshToken, hint: "refresh_token")
        #expect(reply.status == 200)
        #expect(reply.body.isEmpty)
        #expect(reply.headers["cache-control"] == "no-store")
        let refreshed = try await TokenHelpers.refresh(client, refreshToken)
        #expect(refreshed.status == 400)
        #expect(refreshed.error == "invalid_grant")
        #expect(try await Self.userinfo(client, tokens.accessToken) == 401)
    }

    @Test("revoking the access token, with or without a hint, ends its session too")
    func accessToken() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let client = WireClient(server)
        for hint in [nil, "access_token", "refresh_token"] {
            let (_, tokens) = try await TokenHelpers.userWithTokens(server)
            #expect(try await Self.revoke(client, tokens.accessToken, hint: hint).status == 200)
            #expect(try await TokenHelpers.refresh(client, tokens.refreshToken).error == "invalid_grant", "hint \(hint ?? "-")")
        }
    }

    @Test("an expired access token still revokes its session")
    func expiredAccessToken() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let client = WireClient(server)
        let (_, tokens) = try await TokenHelpers.userWithTokens(server)
        server.clock.advance(by: 2 * 3600)
        #expect(try await Self.revoke(client, tokens.accessToken).status == 200)
        #expect(try await TokenHelpers.refresh(client, tokens.refreshToken).error == "invalid_grant")
    }

    @Test("unknown, malformed, oversized and already revoked tokens answer 200 and change nothing")
    func unknownTokens() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let client = WireClient(server)
        let (_, tokens) = try await TokenHelpers.userWithTokens(server)
        for token in ["nope", "a.b.c", "eyJhbGciOiJub25lIn0.e30.", String(repeating: "x", count: 20_000), "ü\u{0}"] {
            #expect(try await Self.revoke(client, token).status == 200)
        }
        #expect(try await TokenHelpers.refresh(client, tokens.refreshToken).status == 200)
        let (_, other) = try await TokenHelpers.userWithTokens(server)
        #expect(try await Self.revoke(client, other.refreshToken).status == 200)
        #expect(try await Self.revoke(client, other.refreshToken).status == 200)
        let admin = server.app.services.admin
        let events = try admin.auditEvents(tenant: try admin.tenant(named: "default"), limit: 100)
        #expect(events.filter { $0.kind == .sessionRevoked }.count == 1)
    }

    @Test("another client's token is refused with unauthorized_client and stays valid")
    func anotherClient() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        try server.app.services.admin.createClient(
            tenant: try server.app.services.admin.tenant(named: "default"), id: "other-app", name: "Other")
        let (_, tokens) = try await TokenHelpers.userWithTokens(server)
        let other = WireClient(server, clientID: "other-app")
        for token in [tokens.refreshToken, tokens.accessToken] {
            let reply = try await Self.revoke(other, token)
            #expect(reply.status == 400)
            #expect(reply.error == "unauthorized_client")
        }
        #expect(try await TokenHelpers.refresh(WireClient(server), tokens.refreshToken).status == 200)
    }

    @Test("another tenant's token is unknown here: 200, and its session lives on")
    func anotherTenant() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        try server.createTenant("acme", settings: TenantSettings())
        let (_, tokens) = try await TokenHelpers.userWithTokens(server)
        let acme = WireClient(server, tenant: "acme")
        #expect(try await Self.revoke(acme, tokens.refreshToken).status == 200)
        #expect(try await Self.revoke(acme, tokens.accessToken).status == 200)
        #expect(try await TokenHelpers.refresh(WireClient(server), tokens.refreshToken).status == 200)
    }

    @Test("a missing token, an unknown client or an unknown hint are refused as RFC 7009 and RFC 6749 say")
    func refusals() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let client = WireClient(server)
        let missing = try await Self.revoke(client, nil)
        #expect(missing.status == 400)
        #expect(missing.error == "invalid_request")
        let hint = try await Self.revoke(client, "x", hint: "id_token")
        #expect(hint.status == 400)
        #expect(hint.error == "unsupported_token_type")
        let stranger = try await Self.revoke(WireClient(server, clientID: "nobody"), "x")
        #expect(stranger.status == 401)
        #expect(stranger.error == "invalid_client")
        let json = try await client.raw(
            "POST", "/default/oauth2/v2.0/revoke", body: Data("{}".utf8), headers: ["Content-Type": "application/json"])
        #expect(json.status == 400 || json.status == 415)
        #expect(json.error != nil)
    }

    @Test("discovery names the revocation endpoint")
    func discovery() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let document = try await WireClient(server).raw("GET", "/default/v2.0/.well-known/openid-configuration")
        #expect(document.string("revocation_endpoint")?.hasSuffix("/default/oauth2/v2.0/revoke") == true)
    }
}
