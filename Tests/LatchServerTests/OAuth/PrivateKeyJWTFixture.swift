import Foundation
import LatchCrypto
import LatchServer
import LatchTesting
import LatchWire
import Testing

/// A confidential client that authenticates with `private_key_jwt` (OpenID Connect Core § 9,
/// RFC 7523 § 2.2), registered through the admin service `latchd client create --jwks` calls, with
/// an RS256 and an ES256 key made by LatchCrypto in the test; and the assertions it signs.
struct PrivateKeyJWTFixture {
    static let rsa = try! SigningKey.generate(.rs256, id: "svc-rsa")
    static let ec = try! SigningKey.generate(.es256, id: "svc-ec")
    /// A key under the RSA key's `kid` that the client never registered.
    static let stranger = try! SigningKey.generate(.rs256, id: "svc-rsa")
    /// An ES256 key under the RSA key's `kid`: the algorithm then does not fit the registered key.
    static let impostor = try! SigningKey.generate(.es256, id: "svc-rsa")

    /// The JWKS of `keys`.
    static func jwks(_ keys: [SigningKey] = [rsa, ec]) -> String {
        String(decoding: try! JSONEncoder().encode(JWKSet(keys: keys.map(\.publicJWK))), as: UTF8.self)
    }

    let server: LatchTestServer
    let clientID: String

    /// Registers `clientID` in `tenant` with `jwks`, allowed `scopes`.
    init(
        _ server: LatchTestServer, clientID: String = "svc-jwt", tenant: String = "default", jwks: String = jwks(),
        scopes: [String] = ["orders.read", "orders.write"]
    ) throws {
        let admin = server.app.services.admin
        _ = try admin.createKeyClient(
            tenant: try admin.tenant(named: tenant), id: clientID, name: clientID, jwks: jwks, allowedScopes: scopes)
        self.server = server
        self.clientID = clientID
    }

    /// The token endpoint URL, the audience OpenID Connect Core § 9 names.
    var tokenEndpoint: String { server.baseURL + "/default/oauth2/v2.0/token" }

    /// The issuer, the audience RFC 7523 § 3 also allows.
    var issuer: String { server.baseURL + "/default/v2.0" }

    /// Now on the server's clock, in seconds.
    var now: Int { Int(server.clock.now().timeIntervalSince1970) }

    /// The claims of a good assertion: `iss` = `sub` = the client, `aud` the token endpoint, a
    /// five-minute lifetime and a fresh `jti`; `changes` replace or add claims (`NSNull` removes one).
    func claims(_ changes: [String: Any] = [:]) -> [String: Any] {
        var claims: [String: Any] = [
            "iss": clientID, "sub": clientID, "aud": tokenEndpoint, "iat": now, "exp": now + 300,
            "jti": UUID().uuidString,
        ]
        for (name, value) in changes { claims[name] = value is NSNull ? nil : value }
        return claims
    }

    /// An assertion signed by `key`, with ``claims(_:)`` changed by `changes`.
    func assertion(key: SigningKey = rsa, _ changes: [String: Any] = [:]) throws -> String {
        let payload = try JSONSerialization.data(withJSONObject: claims(changes), options: [.sortedKeys])
        return try JWT.sign(payload: Array(payload), key: key)
    }

    /// A compact JWS with exactly `header` and the claims of ``claims(_:)``, and `signature`.
    func unsigned(header: [String: Any], _ changes: [String: Any] = [:], signature: [UInt8] = []) throws -> String {
        let head = try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys])
        let body = try JSONSerialization.data(withJSONObject: claims(changes), options: [.sortedKeys])
        return Base64URL.encode(head) + "." + Base64URL.encode(body) + "." + Base64URL.encode(signature)
    }

    /// The client-authentication members of a form carrying `assertion`.
    static func credentials(_ assertion: String) -> [String: String] {
        [
            "client_assertion_type": "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
            "client_assertion": assertion,
        ]
    }

    /// POSTs exactly `form` to `/{tenant}/{path}`.
    func post(
        _ path: String, _ form: [String: String], headers: [String: String] = [:], tenant: String = "default"
    ) async throws -> WireResponse {
        try await ConfidentialClientFixture.post(server, path, form, headers: headers, tenant: tenant)
    }

    /// A `client_credentials` token request authenticated with `assertion`; `extra` adds members.
    func token(_ assertion: String, extra: [String: String] = [:], headers: [String: String] = [:]) async throws
        -> WireResponse
    {
        let form = ["grant_type": "client_credentials"].merging(Self.credentials(assertion)) { $1 }
        return try await post("oauth2/v2.0/token", form.merging(extra) { $1 }, headers: headers)
    }

    /// Expects the one `invalid_client` answer every failed assertion gets (RFC 7521 § 4.2.1).
    static func expectInvalidClient(
        _ reply: WireResponse, _ name: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(reply.status == 401, "\(name): \(reply.status) \(reply.json)", sourceLocation: sourceLocation)
        #expect(reply.error == "invalid_client", "\(name)", sourceLocation: sourceLocation)
        #expect(
            reply.string("error_description") == "Client authentication failed.", "\(name)",
            sourceLocation: sourceLocation)
        #expect(reply.headers["www-authenticate"] == nil, "\(name)", sourceLocation: sourceLocation)
    }
}
