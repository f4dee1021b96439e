import Foundation
import LatchCrypto
import LatchServer
import LatchTesting
import Testing

/// A test OpenID Connect provider: an RS256 and an ES256 key made with LatchCrypto, its static
/// JWKS, and ID tokens it signs; and a Firebase client on a fresh server whose tenant trusts it as
/// `oidc.acme`, configured through the admin service the `latchd idp add` command calls.
struct IdentityProviderFixture: Sendable {
    static let rsa = try! SigningKey.generate(.rs256, id: "acme-rsa-1")
    static let ec = try! SigningKey.generate(.es256, id: "acme-ec-1")
    /// A key the provider's JWKS does not hold.
    static let stranger = try! SigningKey.generate(.rs256, id: "acme-rsa-1")

    static let providerID = "oidc.acme"
    static let issuer = "https://login.acme.test"
    static let clientID = "acme-app"
    static let v1 = FirebaseClient.v1 + "accounts:signInWithIdp"
    static let v3 = FirebaseClient.v3 + "verifyAssertion"

    /// The provider's JWKS document.
    static var jwks: String {
        let data = try! JSONEncoder().encode(JWKSet(keys: [rsa.publicJWK, ec.publicJWK]))
        return String(decoding: data, as: UTF8.self)
    }

    let client: FirebaseClient
    var server: LatchTestServer { client.server }

    /// Now on the server's clock, in seconds.
    var now: Int { Int(server.clock.now().timeIntervalSince1970) }

    /// An ID token for `subject`, signed by `key`; `claims` replace or add claims (`NSNull` removes one).
    func token(
        _ subject: String, email: String? = nil, key: SigningKey = rsa, claims: [String: Any] = [:]
    ) throws -> String {
        var payload: [String: Any] = [
            "iss": Self.issuer, "aud": Self.clientID, "sub": subject, "iat": now, "exp": now + 3600,
        ]
        if let email {
            payload["email"] = email
            payload["email_verified"] = true
        }
        for (name, value) in claims { payload[name] = value is NSNull ? nil : value }
        let bytes = try JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys])
        return try JWT.sign(payload: Array(bytes), key: key)
    }

    /// Posts a sign-in with `idToken` to `path`; `extra` adds or replaces body members.
    func signIn(
        _ idToken: String, provider: String = providerID, nonce: String? = nil, path: String = v1,
        extra: [String: Any] = [:]
    ) async throws -> WireResponse {
        var postBody = "providerId=\(provider)&id_token=\(idToken)"
        if let nonce { postBody += "&nonce=\(WireClient.encode(nonce))" }
        var body: [String: Any] = [
            "requestUri": "http://localhost", "postBody": postBody, "returnSecureToken": true, "returnIdpCredential": true,
        ]
        for (name, value) in extra { body[name] = value }
        return try await client.post(path, body)
    }

    /// The `getAccountInfo` user of `idToken`.
    func lookup(_ idToken: String) async throws -> [String: Any] {
        let reply = try await client.post(FirebaseClient.v1 + "accounts:lookup", ["idToken": idToken])
        #expect(reply.status == 200, "\(reply.json)")
        return try #require((reply["users"] as? [[String: Any]])?.first)
    }

    /// The `providerUserInfo` entry of `provider` in `user`, if any.
    static func providerInfo(_ user: [String: Any], _ provider: String = providerID) -> [String: Any]? {
        (user["providerUserInfo"] as? [[String: Any]])?.first { $0["providerId"] as? String == provider }
    }

    /// Expects a Firebase error answer with exactly `message`.
    static func expectError(_ reply: WireResponse, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(reply.status == 400, "\(reply.json)", sourceLocation: sourceLocation)
        #expect(
            String(decoding: reply.body, as: UTF8.self) == FirebaseClient.errorBody(message), sourceLocation: sourceLocation)
    }
}

/// Runs `body` against a fresh in-process server whose tenant trusts the test provider (with a
/// flow-start limit high enough for a test's many sign-ins).
func withIdentityProvider<R>(_ body: (IdentityProviderFixture) async throws -> R) async throws -> R {
    let server = try LatchTestServer.start(mode: .inProcess)
    defer { server.stop() }
    let admin = server.app.services.admin
    let tenant = try admin.updateTenant(named: server.tenant) {
        $0.rateLimits[.flowStarts] = RateLimit(count: 1000, periodSeconds: 300)
    }
    try admin.addIdentityProvider(
        tenant: tenant, providerID: IdentityProviderFixture.providerID, issuer: IdentityProviderFixture.issuer,
        clientID: IdentityProviderFixture.clientID, jwksURL: nil, jwksJSON: IdentityProviderFixture.jwks)
    return try await body(IdentityProviderFixture(client: try FirebaseClient(server)))
}
