import Foundation
import LatchServer
import LatchTesting
import Testing

/// What the real MSAL clients send and require (`reference/native-auth-protocol.md`, "What the
/// real MSAL clients do").
@Suite("MSAL compatibility")
struct MSALCompatibilityTests {
    @Test("client_info is returned for client_info=true (native /token) and client_info=1 (silent refresh)")
    func clientInfo() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let client = WireClient(server)
        let email = TokenHelpers.uniqueEmail("msal")
        let user = try server.createUser(email: email, password: TokenHelpers.password)
        let tenant = try server.app.services.admin.tenant(named: "default")

        let initiate = try await client.post("oauth2/v2.0/initiate", ["username": email, "challenge_type": "password redirect"])
        let challenge = try await client.post(
            "oauth2/v2.0/challenge",
            ["continuation_token": try #require(initiate.continuationToken), "challenge_type": "password redirect"])
        let signedIn = try await client.post(
            "oauth2/v2.0/token",
            [
                "grant_type": "password", "continuation_token": try #require(challenge.continuationToken),
                "password": TokenHelpers.password, "scope": "openid profile offline_access", "client_info": "true",
                "username": email, "challenge_type": "password redirect",
            ])
        #expect(signedIn.status == 200, "\(signedIn.json)")
        try Self.expectClientInfo(signedIn, uid: user.id, utid: tenant.id)

        let refreshed = try await client.post(
            "oauth2/v2.0/token",
            [
                "grant_type": "refresh_token", "refresh_token": try #require(signedIn.string("refresh_token")),
                "scope": "openid profile offline_access", "client_info": "1",
            ])
        #expect(refreshed.status == 200, "\(refreshed.json)")
        try Self.expectClientInfo(refreshed, uid: user.id, utid: tenant.id)

        let without = try await client.post(
            "oauth2/v2.0/token",
            ["grant_type": "refresh_token", "refresh_token": try #require(refreshed.string("refresh_token"))])
        #expect(without.status == 200)
        #expect(without.string("client_info") == nil)
    }

    static func expectClientInfo(_ response: WireResponse, uid: String, utid: String) throws {
        var text = try #require(response.string("client_info")).replacingOccurrences(of: "-", with: "+")
            .replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        let data = try #require(Data(base64Encoded: text))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: String])
        #expect(json == ["uid": uid, "utid": utid])
    }

    @Test("the invalid_request descriptions MSAL matches literally")
    func descriptionLiterals() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let client = WireClient(server)
        for username in ["", "not-an-address"] {
            let reply = try await client.post(
                "signup/v1.0/start", ["username": username, "challenge_type": "oob password redirect"])
            #expect(reply.error == "invalid_request")
            #expect(reply.errorCodes.first == 90100)
            #expect(reply.string("error_description")?.contains("username parameter is empty or not valid") == true)
        }
        let noClient = try await client.raw(
            "POST", "/default/signup/v1.0/start", body: Data("username=a%40example.com&challenge_type=oob+redirect".utf8),
            headers: ["Content-Type": "application/x-www-form-urlencoded"])
        #expect(noClient.error == "invalid_request")
        #expect(noClient.errorCodes.first == 90100)
        #expect(noClient.string("error_description")?.contains("client_id parameter is empty or not valid") == true)
    }

    @Test("discovery names authorization_endpoint, token_endpoint and issuer, which MSAL's silent refresh requires")
    func discoveryForSilentRefresh() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let document = try await WireClient(server).raw("GET", "/default/v2.0/.well-known/openid-configuration")
        for key in ["authorization_endpoint", "token_endpoint", "issuer"] {
            #expect(document.string(key)?.hasPrefix("http://latch.test/default/") == true, "\(key)")
        }
    }

    @Test("the client-request-id MSAL sends (upper-case UUID) is echoed; success bodies carry no correlation_id")
    func correlation() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let correlation = UUID().uuidString
        let reply = try await WireClient(server).post(
            "oauth2/v2.0/initiate", ["username": "nobody@example.com", "challenge_type": "password redirect"],
            headers: ["client-request-id": correlation, "return-client-request-id": "true"])
        #expect(reply.headers["client-request-id"] == correlation)
        #expect(reply.string("correlation_id") == correlation)
        let ok = try await WireClient(server).raw("GET", "/default/v2.0/.well-known/openid-configuration")
        #expect(ok.json["correlation_id"] == nil)
        #expect(UUID(uuidString: try #require(ok.headers["client-request-id"])) != nil)
    }
}
