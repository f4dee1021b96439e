import Foundation
import LatchServer
import LatchTesting
import Testing

/// A provider whose JWKS is served over HTTP: a live server's own tenant JWKS, read with libcurl.
@Suite("Firebase: identity provider JWKS over HTTP")
struct FirebaseProviderJWKSURLTests {
    @Test("a provider configured with --jwks-url verifies tokens with the keys fetched over HTTP")
    func fetchedOverHTTP() async throws {
        let server = try LatchTestServer.start(mode: .live)
        defer { server.stop() }
        let services = server.app.services
        let tenant = try services.admin.tenant(named: server.tenant)
        // The server's own tenant keys play the provider: its JWKS URL is a loopback http URL.
        let jwksURL = server.baseURL + "/\(tenant.name)/discovery/v2.0/keys"
        let issuer = "http://127.0.0.1/provider"
        try services.admin.addIdentityProvider(
            tenant: tenant, providerID: "oidc.live", issuer: issuer, clientID: "live-app", jwksURL: jwksURL,
            jwksJSON: nil)
        let now = Int(server.clock.now().timeIntervalSince1970)
        let claims: [String: Any] = ["iss": issuer, "aud": "live-app", "sub": "sub-live", "iat": now, "exp": now + 600]
        let payload = try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys])
        let token = try services.keyRing.sign(Array(payload), type: "JWT", tenant: tenant)

        let client = try FirebaseClient(server)
        let body: [String: Any] = [
            "requestUri": "http://localhost", "postBody": "providerId=oidc.live&id_token=\(token)",
            "returnSecureToken": true,
        ]
        let reply = try await client.post(IdentityProviderFixture.v1, body)
        #expect(reply.status == 200, "\(reply.json)")
        #expect(reply.string("federatedId") == "sub-live")
        #expect(reply["isNewUser"] as? Bool == true)
    }
}
