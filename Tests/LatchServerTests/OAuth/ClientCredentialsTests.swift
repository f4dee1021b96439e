import Foundation
import LatchCrypto
import LatchServer
import LatchTesting
import Testing

/// Confidential clients at the token endpoint: `client_secret_basic` and `client_secret_post`
/// (RFC 6749 § 2.3.1), `invalid_client` failures (§ 5.2), and the `client_credentials` grant (§ 4.4).
@Suite("Client credentials grant")
struct ClientCredentialsTests {
    @Test("client_secret_basic issues a Bearer access token for the client, with no refresh or ID token")
    func basic() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let fixture = try ConfidentialClientFixture(server)
        let reply = try await fixture.token(scope: "orders.read")
        #expect(reply.status == 200, "\(String(decoding: reply.body, as: UTF8.self))")
        #expect(reply.string("token_type") == "Bearer")
        #expect((reply.json["expires_in"] as? NSNumber)?.intValue == 3600)
        #expect(reply.string("scope") == "orders.read")
        #expect(reply.json["refresh_token"] == nil)
        #expect(reply.json["id_token"] == nil)
        #expect(reply.headers["cache-control"] == "no-store")
        let token = try #require(reply.string("access_token"))
        _ = try TokenHelpers.verify(token, with: try await TokenHelpers.jwks(WireClient(server)))
        let claims = try DecodedJWT(token)
        #expect(claims.string("sub") == "svc")
        #expect(claims.string("client_id") == "svc")
        #expect(claims.string("scp") == "orders.read")
        #expect(claims.string("sid") == nil)
    }

    @Test("client_secret_post issues a token too")
    func post() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let fixture = try ConfidentialClientFixture(server)
        let reply = try await fixture.post(
            "oauth2/v2.0/token",
            ["grant_type": "client_credentials", "client_id": "svc", "client_secret": fixture.secret, "scope": "orders.write"])
        #expect(reply.status == 200)
        #expect(reply.string("scope") == "orders.write")
    }

    @Test("wrong, missing or misplaced credentials answer invalid_client or invalid_request, never 500")
    func failures() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let fixture = try ConfidentialClientFixture(server)
        let grant = ["grant_type": "client_credentials"]
        let basicCases: [(String, String)] = [
            ("wrong secret", ConfidentialClientFixture.basic("svc", "wrong")),
            ("unknown client", ConfidentialClientFixture.basic("nobody", fixture.secret)),
            ("empty secret", ConfidentialClientFixture.basic("svc", "")),
            ("not base64", "Basic !!!not-base64!!!"),
            ("no colon", "Basic " + Data("svc".utf8).base64EncodedString()),
            ("bad percent escape", "Basic " + Data("svc:%zz".utf8).base64EncodedString()),
            ("public client with secret", ConfidentialClientFixture.basic("latch-dev", "x")),
        ]
        for (name, header) in basicCases {
            let reply = try await fixture.post("oauth2/v2.0/token", grant, headers: ["Authorization": header])
            #expect(reply.status == 401, "\(name)")
            #expect(reply.error == "invalid_client", "\(name)")
            #expect(reply.string("error_description") == "Client authentication failed.", "\(name)")
            #expect(reply.headers["www-authenticate"]?.hasPrefix("Basic realm=\"default\"") == true, "\(name)")
        }
        let postCases: [(String, [String: String])] = [
            ("wrong secret", ["client_id": "svc", "client_secret": "wrong"]),
            ("missing secret", ["client_id": "svc"]),
            ("unknown client", ["client_id": "nobody", "client_secret": "x"]),
            ("public client with secret", ["client_id": "latch-dev", "client_secret": "x"]),
        ]
        for (name, credentials) in postCases {
            let reply = try await fixture.post("oauth2/v2.0/token", grant.merging(credentials) { $1 })
            #expect(reply.status == 401, "\(name)")
            #expect(reply.error == "invalid_client", "\(name)")
            #expect(reply.headers["www-authenticate"] == nil, "\(name)")
        }
        let both = try await fixture.post(
            "oauth2/v2.0/token", grant.merging(["client_secret": fixture.secret]) { $1 },
            headers: ["Authorization": fixture.basicHeader])
        #expect(both.status == 400)
        #expect(both.error == "invalid_request")
        let otherID = try await fixture.post(
            "oauth2/v2.0/token", grant.merging(["client_id": "latch-dev"]) { $1 },
            headers: ["Authorization": fixture.basicHeader])
        #expect(otherID.error == "invalid_request")
        let oversized = try await fixture.post(
            "oauth2/v2.0/token", grant, headers: ["Authorization": "Basic " + String(repeating: "A", count: 6000)])
        #expect(oversized.status >= 400 && oversized.status < 500, "\(oversized.status)")
    }

    @Test("a public client is refused the grant")
    func publicClient() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let reply = try await WireClient(server).post("oauth2/v2.0/token", ["grant_type": "client_credentials"])
        #expect(reply.status == 400)
        #expect(reply.error == "unauthorized_client")
    }

    @Test("scopes narrow to the client's allowed ones; none left is invalid_scope; absent grants all allowed")
    func scopes() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let fixture = try ConfidentialClientFixture(server)
        #expect(try await fixture.token(scope: "orders.read admin openid offline_access").string("scope") == "orders.read")
        #expect(try await fixture.token().string("scope") == "orders.read orders.write")
        let none = try await fixture.token(scope: "admin openid")
        #expect(none.status == 400)
        #expect(none.error == "invalid_scope")
        let malformed = try await fixture.token(scope: "bad\"scope")
        #expect(malformed.error == "invalid_scope")
    }

    @Test("the secret is stored only as its SHA-256")
    func hashedAtRest() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let fixture = try ConfidentialClientFixture(server)
        #expect(fixture.secret.count == 43)
        let stored = try #require(
            try server.app.services.store.read { try $0.client(id: "svc", tenantID: try $0.tenant(named: "default")!.id) })
        #expect(stored.isPublic == false)
        #expect(stored.secretHash == Digest.sha256Hex(fixture.secret))
        let path = (server.dataDirectory as NSString).appendingPathComponent("latch.db")
        let files = DatabaseFileBytes(database: path)
        #expect(!files.files.isEmpty)
        #expect(files.files(containing: fixture.secret).isEmpty)
    }

    @Test("repeated wrong secrets are throttled with 429 and Retry-After")
    func throttled() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        try server.updateTenant { $0.rateLimits.passwordAttempts = RateLimit(count: 3, periodSeconds: 300) }
        let fixture = try ConfidentialClientFixture(server)
        let wrong = ["grant_type": "client_credentials", "client_id": "svc", "client_secret": "wrong"]
        for _ in 0..<3 { #expect(try await fixture.post("oauth2/v2.0/token", wrong).status == 401) }
        let refused = try await fixture.post("oauth2/v2.0/token", wrong)
        #expect(refused.status == 429)
        #expect(Int(refused.headers["retry-after"] ?? "") ?? 0 >= 1)
    }
}
