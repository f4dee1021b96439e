import Foundation
import LatchServer
import LatchTesting
import Testing

/// Token introspection (RFC 7662) at `oauth2/v2.0/introspect`: confidential callers only;
/// `{"active":false}` for anything not live in this tenant.
@Suite("Token introspection")
struct IntrospectionTests {
    @Test("a client credentials token is active, with its members")
    func clientToken() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let fixture = try ConfidentialClientFixture(server)
        let token = try #require(try await fixture.token(scope: "orders.read").string("access_token"))
        let reply = try await fixture.introspect(token)
        #expect(reply.status == 200)
        #expect(reply.headers["cache-control"] == "no-store")
        #expect(reply.json["active"] as? Bool == true)
        #expect(reply.string("scope") == "orders.read")
        #expect(reply.string("client_id") == "svc")
        #expect(reply.string("sub") == "svc")
        #expect(reply.string("token_type") == "Bearer")
        #expect(reply.string("iss") == server.baseURL + "/default/v2.0")
        let iat = try #require((reply.json["iat"] as? NSNumber)?.intValue)
        #expect((reply.json["exp"] as? NSNumber)?.intValue == iat + 3600)
    }

    @Test("a user's access token is active until its session is revoked or it expires")
    func userToken() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let fixture = try ConfidentialClientFixture(server)
        let (user, tokens) = try await TokenHelpers.userWithTokens(server)
        let reply = try await fixture.introspect(tokens.accessToken)
        #expect(reply.json["active"] as? Bool == true)
        #expect(reply.string("sub") == user.id)
        #expect(reply.string("client_id") == "latch-dev")
        #expect(try await RevocationTests.revoke(WireClient(server), tokens.accessToken).status == 200)
        #expect(try await fixture.introspect(tokens.accessToken).keys == ["active"])
        #expect(try await fixture.introspect(tokens.accessToken).json["active"] as? Bool == false)

        let (_, later) = try await TokenHelpers.userWithTokens(server)
        server.clock.advance(by: 2 * 3600)
        #expect(try await fixture.introspect(later.accessToken).json["active"] as? Bool == false)
    }

    @Test("a confidential client's own refresh token is active until it is rotated; other clients do not see it")
    func ownRefreshToken() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let fixture = try ConfidentialClientFixture(server)
        let peer = try ConfidentialClientFixture(server, clientID: "svc-peer")
        let email = TokenHelpers.uniqueEmail()
        let user = try server.createUser(email: email, password: TokenHelpers.password)
        var wire = WireClient(server)
        wire.clientID = "svc"
        let basic = ["Authorization": fixture.basicHeader]
        let tokens = try TokenGrant(try await TokenHelpers.passwordSignIn(wire, email: email, headers: basic))
        let refreshToken = try #require(tokens.refreshToken)
        let reply = try await fixture.introspect(refreshToken, hint: "refresh_token")
        #expect(reply.json["active"] as? Bool == true)
        #expect(reply.string("client_id") == "svc")
        #expect(reply.string("sub") == user.id)
        #expect(reply.string("token_type") == "refresh_token")
        #expect(reply.json["exp"] is NSNumber)
        #expect(try await peer.introspect(refreshToken).keys == ["active"])

        // The refresh grant of a confidential client needs its secret too.
        let unauthenticated = try await wire.post(
            "oauth2/v2.0/token", ["grant_type": "refresh_token", "refresh_token": refreshToken])
        #expect(unauthenticated.status == 401)
        let refreshed = try await wire.post(
            "oauth2/v2.0/token", ["grant_type": "refresh_token", "refresh_token": refreshToken], headers: basic)
        #expect(refreshed.status == 200)
        #expect(try await fixture.introspect(refreshToken).keys == ["active"])

        // Revocation authenticates the confidential client the same way.
        let next = try #require(refreshed.string("refresh_token"))
        let revoked = try await fixture.post(
            "oauth2/v2.0/revoke", ["token": next, "client_id": "svc", "client_secret": fixture.secret])
        #expect(revoked.status == 200)
        #expect(try await fixture.introspect(next).keys == ["active"])
    }

    @Test("an expired client credentials token is inactive")
    func expiredClientToken() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let fixture = try ConfidentialClientFixture(server)
        let token = try #require(try await fixture.token().string("access_token"))
        server.clock.advance(by: 3601)
        #expect(try await fixture.introspect(token).keys == ["active"])
    }

    @Test("another client's refresh token, another tenant's token and garbage are inactive")
    func hidden() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let fixture = try ConfidentialClientFixture(server)
        let (_, tokens) = try await TokenHelpers.userWithTokens(server)
        let refresh = try await fixture.introspect(try #require(tokens.refreshToken), hint: "refresh_token")
        #expect(refresh.status == 200)
        #expect(refresh.keys == ["active"])

        try server.createTenant("other", settings: TenantSettings())
        let other = try ConfidentialClientFixture(server, clientID: "svc-other", tenant: "other")
        let cross = try await other.introspect(tokens.accessToken, tenant: "other")
        #expect(cross.status == 200)
        #expect(cross.keys == ["active"])
        let ownToken = try #require(try await fixture.token().string("access_token"))
        #expect(try await other.introspect(ownToken, tenant: "other").keys == ["active"])

        for garbage in ["nope", "a.b.c", "eyJhbGciOiJub25lIn0.e30.", String(repeating: "x", count: 9000)] {
            let reply = try await fixture.introspect(garbage, hint: "whatever")
            #expect(reply.status == 200)
            #expect(reply.keys == ["active"])
        }
    }

    @Test("only an authenticated confidential client may introspect")
    func callers() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let fixture = try ConfidentialClientFixture(server)
        let token = try #require(try await fixture.token().string("access_token"))
        let publicCaller = try await fixture.post("oauth2/v2.0/introspect", ["token": token, "client_id": "latch-dev"])
        #expect(publicCaller.status == 400)
        #expect(publicCaller.error == "unauthorized_client")
        let noSecret = try await fixture.post("oauth2/v2.0/introspect", ["token": token, "client_id": "svc"])
        #expect(noSecret.status == 401)
        #expect(noSecret.error == "invalid_client")
        let wrong = try await fixture.post(
            "oauth2/v2.0/introspect", ["token": token],
            headers: ["Authorization": ConfidentialClientFixture.basic("svc", "wrong")])
        #expect(wrong.status == 401)
        #expect(wrong.headers["www-authenticate"]?.hasPrefix("Basic ") == true)
        let basic = try await fixture.post(
            "oauth2/v2.0/introspect", ["token": token], headers: ["Authorization": fixture.basicHeader])
        #expect(basic.json["active"] as? Bool == true)
    }

    @Test("discovery lists introspection, the client authentication methods and the grant")
    func discovery() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let document = try await WireClient(server).raw("GET", "/default/v2.0/.well-known/openid-configuration")
        let base = server.baseURL + "/default"
        #expect(document.string("introspection_endpoint") == base + "/oauth2/v2.0/introspect")
        #expect(
            document.json["token_endpoint_auth_methods_supported"] as? [String]
                == ["none", "client_secret_basic", "client_secret_post", "private_key_jwt"])
        #expect(
            document.json["introspection_endpoint_auth_methods_supported"] as? [String]
                == ["client_secret_basic", "client_secret_post", "private_key_jwt"])
        #expect((document.json["grant_types_supported"] as? [String])?.contains("client_credentials") == true)
    }
}
