import Foundation
import LatchServer
import LatchTesting
import Testing

/// OpenID Connect discovery (Discovery 1.0 § 4) and the bearer-protected admin endpoints.
@Suite("Discovery and admin endpoints")
struct DiscoveryAndAdminTests {
    @Test("the discovery document names the issuer and endpoints, and they work")
    func discoveryDocument() async throws {
        let server = try LatchTestServer.start()
        defer { server.stop() }
        let client = WireClient(server)
        let response = try await client.raw("GET", "/default/v2.0/.well-known/openid-configuration")
        #expect(response.status == 200)
        let base = server.baseURL + "/default"
        #expect(response.string("issuer") == base + "/v2.0")
        #expect(response.string("token_endpoint") == base + "/oauth2/v2.0/token")
        #expect(response.string("jwks_uri") == base + "/discovery/v2.0/keys")
        #expect(response.string("userinfo_endpoint") == base + "/oidc/userinfo")
        #expect((response["id_token_signing_alg_values_supported"] as? [String])?.contains("ES256") == true)
        #expect((response["grant_types_supported"] as? [String])?.contains("refresh_token") == true)

        // The issuer is the one in tokens, and the jwks_uri serves the key that signs them.
        let (_, tokens) = try await TokenHelpers.userWithTokens(server)
        #expect(try DecodedJWT(tokens.accessToken).string("iss") == response.string("issuer"))
        let jwksURI = try #require(response.string("jwks_uri"))
        let jwks = try await client.raw("GET", String(jwksURI.dropFirst(server.baseURL.count)))
        #expect(jwks.status == 200)
        #expect((jwks["keys"] as? [Any])?.isEmpty == false)
        #expect(jwks.body.range(of: Data(#""d":"#.utf8)) == nil, "the JWKS must not publish private key members")
    }

    @Test("an unknown tenant gets 404 from discovery, JWKS and userinfo", arguments: ["nosuchtenant", "UPPER", "a_b"])
    func unknownTenant(_ name: String) async throws {
        let server = try LatchTestServer.start()
        defer { server.stop() }
        let client = WireClient(server)
        for path in ["/\(name)/v2.0/.well-known/openid-configuration", "/\(name)/discovery/v2.0/keys", "/\(name)/oidc/userinfo"] {
            let response = try await client.raw("GET", path)
            #expect(response.status == 404, "\(path)")
            #expect(response.error == "invalid_tenant", "\(path)")
        }
    }

    @Test("a second tenant has its own issuer")
    func secondTenantIssuer() async throws {
        let server = try LatchTestServer.start()
        defer { server.stop() }
        try server.createTenant("acme", settings: TenantSettings())
        let response = try await WireClient(server).raw("GET", "/acme/v2.0/.well-known/openid-configuration")
        #expect(response.status == 200)
        #expect(response.string("issuer") == server.baseURL + "/acme/v2.0")
    }

    @Test(
        "a configured public URL is the issuer origin, with or without a trailing slash",
        arguments: ["https://id.example.com", "https://id.example.com/"])
    func publicURL(_ publicURL: String) async throws {
        let server = try LatchTestServer.start { $0.publicURL = publicURL }
        defer { server.stop() }
        // The server is not reachable at its public URL here; talk to the bound port.
        let client = WireClient(baseURL: "http://127.0.0.1:\(server.app.port)")
        let discovery = try await client.raw("GET", "/default/v2.0/.well-known/openid-configuration")
        #expect(discovery.status == 200)
        #expect(discovery.string("issuer") == "https://id.example.com/default/v2.0")
        #expect(discovery.string("token_endpoint") == "https://id.example.com/default/oauth2/v2.0/token")
        #expect(discovery.string("jwks_uri") == "https://id.example.com/default/discovery/v2.0/keys")
        #expect(server.app.baseURL == "https://id.example.com")

        let email = TokenHelpers.uniqueEmail("public")
        try server.createUser(email: email, password: TokenHelpers.password)
        let tokens = try TokenGrant(try await TokenHelpers.passwordSignIn(client, email: email))
        #expect(try DecodedJWT(tokens.accessToken).string("iss") == "https://id.example.com/default/v2.0")
        let userinfo = try await TokenHelpers.userinfo(client, authorization: "Bearer \(tokens.accessToken)")
        #expect(userinfo.status == 200)
    }

    @Test("GET /{tenant}/admin/outbox lists messages with codes for the admin bearer token")
    func adminOutbox() async throws {
        let server = try LatchTestServer.start()
        defer { server.stop() }
        let client = WireClient(server)
        let email = TokenHelpers.uniqueEmail("outbox")
        let start = try await client.post("signup/v1.0/start", ["username": email, "challenge_type": "oob redirect"])
        let challenge = try await client.post(
            "signup/v1.0/challenge", ["continuation_token": try #require(start.continuationToken)])
        try #require(challenge.string("challenge_type") == "oob")
        let expected = try #require(try server.latestCode(to: email))

        let query = "/default/admin/outbox?to=\(WireClient.encode(email))&limit=5"
        let listed = try await client.raw("GET", query, headers: ["Authorization": "Bearer \(server.app.adminToken)"])
        #expect(listed.status == 200)
        let messages = try #require(listed["messages"] as? [[String: Any]])
        #expect(messages.count == 1)
        #expect(messages.first?["to"] as? String == email)
        #expect(messages.first?["code"] as? String == expected)
        #expect((messages.first?["body"] as? String)?.contains(expected) == true)

        let all = try await client.raw(
            "GET", "/default/admin/outbox", headers: ["Authorization": "Bearer \(server.app.adminToken)"])
        #expect(all.status == 200)
        #expect((all["messages"] as? [Any])?.count == 1)

        // The recipient filter normalizes like sign-up does; odd limits are clamped, not errors.
        let upper = "/default/admin/outbox?to=\(WireClient.encode(email.uppercased()))"
        let byUpper = try await client.raw("GET", upper, headers: ["Authorization": "Bearer \(server.app.adminToken)"])
        #expect((byUpper["messages"] as? [Any])?.count == 1)
        for limit in ["0", "-3", "abc", "99999999999999999999"] {
            let clamped = try await client.raw(
                "GET", "/default/admin/outbox?limit=\(limit)", headers: ["Authorization": "Bearer \(server.app.adminToken)"])
            #expect(clamped.status == 200, "limit=\(limit)")
            #expect((clamped["messages"] as? [Any])?.count == 1, "limit=\(limit)")
        }
    }

    @Test("admin endpoints refuse a missing or wrong bearer token with 401")
    func adminRequiresToken() async throws {
        let server = try LatchTestServer.start()
        defer { server.stop() }
        let client = WireClient(server)
        let token = server.app.adminToken
        let refused: [[String: String]] = [
            [:], ["Authorization": "Bearer wrong"], ["Authorization": "Bearer "], ["Authorization": token],
            ["Authorization": "Basic \(token)"], ["Authorization": "Bearer \(token.dropLast())"],
            ["Authorization": "Bearer \(token)x"],
        ]
        for path in ["/default/admin/outbox", "/default/admin/audit"] {
            for headers in refused {
                let response = try await client.raw("GET", path, headers: headers)
                #expect(response.status == 401, "\(path) \(headers)")
                #expect(response.error == "invalid_token")
                #expect(response.json["messages"] == nil && response.json["events"] == nil)
            }
            let accepted = try await client.raw("GET", path, headers: ["Authorization": "Bearer \(token)"])
            #expect(accepted.status == 200, "\(path)")
        }
        let unknownTenant = try await client.raw("GET", "/nosuch/admin/outbox", headers: ["Authorization": "Bearer \(token)"])
        #expect(unknownTenant.status == 404)
    }
}
