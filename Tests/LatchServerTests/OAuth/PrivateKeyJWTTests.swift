import Foundation
import LatchCrypto
import LatchServer
import LatchTesting
import LatchWire
import Testing

/// `private_key_jwt` client authentication over real HTTP (OpenID Connect Core § 9, RFC 7523
/// §§ 2.2, 3, RFC 7521 § 4.2): the `client_credentials` grant, revocation and introspection with a
/// signed assertion, and each way an assertion is refused.
@Suite("private_key_jwt client authentication")
struct PrivateKeyJWTTests {
    @Test("an RS256 or ES256 assertion issues a client_credentials token; aud may be the token endpoint or the issuer")
    func goodAssertions() async throws {
        let server = try LatchTestServer.start(mode: .live)
        defer { server.stop() }
        let fixture = try PrivateKeyJWTFixture(server)
        let cases: [(String, SigningKey, [String: Any])] = [
            ("RS256", PrivateKeyJWTFixture.rsa, [:]),
            ("ES256", PrivateKeyJWTFixture.ec, [:]),
            ("aud issuer", PrivateKeyJWTFixture.rsa, ["aud": fixture.issuer]),
            ("aud array", PrivateKeyJWTFixture.ec, ["aud": ["https://elsewhere.test", fixture.tokenEndpoint]]),
            ("no iat", PrivateKeyJWTFixture.rsa, ["iat": NSNull()]),
            ("nbf now", PrivateKeyJWTFixture.rsa, ["nbf": fixture.now]),
        ]
        for (name, key, changes) in cases {
            let reply = try await fixture.token(try fixture.assertion(key: key, changes), extra: ["scope": "orders.read"])
            #expect(reply.status == 200, "\(name): \(reply.json)")
            #expect(reply.string("token_type") == "Bearer", "\(name)")
            #expect(reply.string("scope") == "orders.read", "\(name)")
            let token = try #require(reply.string("access_token"), "\(name)")
            let claims = try DecodedJWT(token)
            #expect(claims.string("sub") == "svc-jwt", "\(name)")
            #expect(claims.string("client_id") == "svc-jwt", "\(name)")
        }
        // A client_id sent too must be the assertion's subject.
        let named = try await fixture.token(try fixture.assertion(), extra: ["client_id": "svc-jwt"])
        #expect(named.status == 200, "\(named.json)")
        PrivateKeyJWTFixture.expectInvalidClient(
            try await fixture.token(try fixture.assertion(), extra: ["client_id": "latch-dev"]), "other client_id")
    }

    @Test("a key the client did not register, alg none, HS256, or an alg that does not fit the key: invalid_client")
    func wrongKeysAndAlgorithms() async throws {
        let server = try LatchTestServer.start(mode: .live)
        defer { server.stop() }
        let fixture = try PrivateKeyJWTFixture(server)
        let signingInput = { (header: [String: Any]) throws -> String in
            let full = try fixture.unsigned(header: header)
            return String(full.dropLast())  // the trailing "." of the empty signature
        }
        let hsInput = try signingInput(["alg": "HS256", "kid": "svc-rsa", "typ": "JWT"])
        // HMAC keyed with the public key's modulus: the classic algorithm-confusion forgery.
        let modulus = Array((PrivateKeyJWTFixture.rsa.publicJWK.n ?? "").utf8)
        let hmac = try HMACSHA256.mac(Array(hsInput.utf8), key: modulus)
        let cases: [(String, String)] = [
            ("wrong key", try fixture.assertion(key: PrivateKeyJWTFixture.stranger)),
            ("alg none", try fixture.unsigned(header: ["alg": "none", "typ": "JWT"])),
            ("alg none with kid", try fixture.unsigned(header: ["alg": "none", "kid": "svc-rsa"])),
            ("HS256", hsInput + "." + Base64URL.encode(hmac)),
            ("ES256 under an RSA kid", try fixture.assertion(key: PrivateKeyJWTFixture.impostor)),
            ("unknown kid", try fixture.assertion(key: try SigningKey.generate(.es256, id: "nobody"))),
            ("no kid with two keys", try fixture.unsigned(header: ["alg": "RS256"])),
        ]
        for (name, assertion) in cases {
            PrivateKeyJWTFixture.expectInvalidClient(try await fixture.token(assertion), name)
        }
    }

    @Test("with one registered key, an assertion without kid uses it")
    func onlyKey() async throws {
        let server = try LatchTestServer.start(mode: .live)
        defer { server.stop() }
        let ec = PrivateKeyJWTFixture.ec.publicJWK
        let bare = #"{"keys":[{"kty":"EC","crv":"P-256","x":"\#(ec.x!)","y":"\#(ec.y!)"}]}"#
        let fixture = try PrivateKeyJWTFixture(server, clientID: "one-key", jwks: bare)
        // JWT.sign always writes a kid; re-sign the same input without one.
        let input = try fixture.unsigned(header: ["alg": "ES256", "typ": "JWT"]).dropLast()
        let signature = try PrivateKeyJWTFixture.ec.sign(Array(input.utf8))
        let reply = try await fixture.token(String(input) + "." + Base64URL.encode(signature))
        #expect(reply.status == 200, "\(reply.json)")
        PrivateKeyJWTFixture.expectInvalidClient(
            try await fixture.token(try fixture.assertion(key: PrivateKeyJWTFixture.ec)), "a kid the key does not have")
    }

    @Test("expired, too long-lived, not yet valid, future iat, or missing exp: invalid_client")
    func times() async throws {
        let server = try LatchTestServer.start(mode: .live)
        defer { server.stop() }
        let fixture = try PrivateKeyJWTFixture(server)
        let now = fixture.now
        let cases: [(String, [String: Any])] = [
            ("expired", ["iat": now - 400, "exp": now - 61]),
            ("no exp", ["exp": NSNull()]),
            ("exp a string", ["exp": "\(now + 300)"]),
            ("lifetime over 10 minutes", ["exp": now + 3600]),
            ("lifetime over 10 minutes from iat", ["iat": now - 600, "exp": now + 120]),
            ("lifetime over 10 minutes without iat", ["iat": NSNull(), "exp": now + 900]),
            ("future nbf", ["nbf": now + 300]),
            ("future iat", ["iat": now + 300, "exp": now + 400]),
            ("nbf a string", ["nbf": "soon"]),
        ]
        for (name, changes) in cases {
            PrivateKeyJWTFixture.expectInvalidClient(try await fixture.token(try fixture.assertion(changes)), name)
        }
        // Within the 60 s skew both ways.
        let skewed = try fixture.assertion(["iat": now + 30, "nbf": now + 30, "exp": now + 330])
        #expect(try await fixture.token(skewed).status == 200)
        let lateButAllowed = try fixture.assertion(["iat": now - 300, "exp": now - 30])
        #expect(try await fixture.token(lateButAllowed).status == 200)
    }

    @Test("wrong or missing aud, iss other than sub, another client's sub, missing jti: invalid_client")
    func claims() async throws {
        let server = try LatchTestServer.start(mode: .live)
        defer { server.stop() }
        let fixture = try PrivateKeyJWTFixture(server)
        let cases: [(String, [String: Any])] = [
            ("wrong aud", ["aud": "https://elsewhere.test/token"]),
            ("aud of another tenant", ["aud": server.baseURL + "/other/oauth2/v2.0/token"]),
            ("no aud", ["aud": NSNull()]),
            ("aud a number", ["aud": 7]),
            ("iss not sub", ["iss": "someone-else"]),
            ("no iss", ["iss": NSNull()]),
            ("sub of another client", ["sub": "latch-dev", "iss": "latch-dev"]),
            ("sub unknown", ["sub": "nobody", "iss": "nobody"]),
            ("no sub", ["sub": NSNull()]),
            ("no jti", ["jti": NSNull()]),
            ("empty jti", ["jti": ""]),
            ("jti a number", ["jti": 42]),
        ]
        for (name, changes) in cases {
            PrivateKeyJWTFixture.expectInvalidClient(try await fixture.token(try fixture.assertion(changes)), name)
        }
    }

    @Test("a jti is single use: a replay, a new assertion reusing it, and a concurrent duplicate are refused")
    func replay() async throws {
        let server = try LatchTestServer.start(mode: .live)
        defer { server.stop() }
        let fixture = try PrivateKeyJWTFixture(server)
        let assertion = try fixture.assertion(["jti": "once"])
        #expect(try await fixture.token(assertion).status == 200)
        PrivateKeyJWTFixture.expectInvalidClient(try await fixture.token(assertion), "replayed")
        PrivateKeyJWTFixture.expectInvalidClient(
            try await fixture.token(try fixture.assertion(key: PrivateKeyJWTFixture.ec, ["jti": "once"])), "jti reused")
        // Another client may use the same jti: single use is per client.
        let other = try PrivateKeyJWTFixture(server, clientID: "svc-other")
        #expect(try await other.token(try other.assertion(["jti": "once"])).status == 200)

        let raceID = "race-\(UUID().uuidString)"
        let racing = try fixture.assertion(["jti": raceID])
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<6 { group.addTask { try await fixture.token(racing).status } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses.filter { $0 == 200 }.count == 1, "\(statuses)")
        #expect(statuses.filter { $0 == 401 }.count == 5, "\(statuses)")

        // Only the hash of a jti is kept.
        let files = DatabaseFileBytes(database: (server.dataDirectory as NSString).appendingPathComponent("latch.db"))
        #expect(!files.files.isEmpty)
        #expect(files.files(containing: raceID).isEmpty)
    }

    @Test("an assertion with a secret or with Basic is invalid_request; a malformed, oversized or mistyped one invalid_client")
    func malformed() async throws {
        let server = try LatchTestServer.start(mode: .live)
        defer { server.stop() }
        let fixture = try PrivateKeyJWTFixture(server)
        let secretClient = try ConfidentialClientFixture(server)
        let withSecret = try await fixture.token(
            try fixture.assertion(), extra: ["client_id": "svc-jwt", "client_secret": "anything"])
        #expect(withSecret.status == 400)
        #expect(withSecret.error == "invalid_request")
        #expect(withSecret.string("error_description") == "The request must authenticate the client with one method only.")
        let withBasic = try await fixture.token(try fixture.assertion(), headers: ["Authorization": secretClient.basicHeader])
        #expect(withBasic.status == 400)
        #expect(withBasic.error == "invalid_request")

        let good = try fixture.assertion()
        let grant = ["grant_type": "client_credentials"]
        let type = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
        let cases: [(String, [String: String])] = [
            ("not a JWT", PrivateKeyJWTFixture.credentials("not-a-jwt")),
            ("two segments", PrivateKeyJWTFixture.credentials("abc.def")),
            ("bad base64", PrivateKeyJWTFixture.credentials("!!!.???.***")),
            ("four segments", PrivateKeyJWTFixture.credentials(good + ".extra")),
            ("header not JSON", PrivateKeyJWTFixture.credentials("bm90anNvbg.e30.")),
            ("empty", PrivateKeyJWTFixture.credentials("")),
            ("oversized", PrivateKeyJWTFixture.credentials(String(repeating: "A", count: 9000) + good)),
            (
                "oversized claims",
                PrivateKeyJWTFixture.credentials(try fixture.assertion(["pad": String(repeating: "x", count: 9000)]))
            ),
            ("wrong type", ["client_assertion_type": "urn:example:saml", "client_assertion": good]),
            ("no type", ["client_assertion": good]),
            ("type without assertion", ["client_assertion_type": type, "client_id": "svc-jwt"]),
            ("tampered payload", PrivateKeyJWTFixture.credentials(Self.tampered(good))),
        ]
        for (name, credentials) in cases {
            let reply = try await fixture.post("oauth2/v2.0/token", grant.merging(credentials) { $1 })
            PrivateKeyJWTFixture.expectInvalidClient(reply, name)
        }
        // A client with a secret and no keys, and a public client, cannot use assertions.
        let secretSub = try fixture.assertion(["iss": "svc", "sub": "svc"])
        PrivateKeyJWTFixture.expectInvalidClient(try await fixture.token(secretSub), "secret client")
        let publicSub = try fixture.assertion(["iss": "latch-dev", "sub": "latch-dev"])
        PrivateKeyJWTFixture.expectInvalidClient(try await fixture.token(publicSub), "public client")
        // The key client has no secret to fall back on.
        let post = ["client_id": "svc-jwt", "client_secret": "guess"]
        let reply = try await fixture.post("oauth2/v2.0/token", grant.merging(post) { $1 })
        PrivateKeyJWTFixture.expectInvalidClient(reply, "secret for a key client")
    }

    @Test("failed assertions take from the password-check bucket: 429 with Retry-After")
    func throttled() async throws {
        let server = try LatchTestServer.start(mode: .live)
        defer { server.stop() }
        try server.updateTenant { $0.rateLimits.passwordAttempts = RateLimit(count: 3, periodSeconds: 300) }
        let fixture = try PrivateKeyJWTFixture(server)
        for _ in 0..<3 {
            let reply = try await fixture.token(try fixture.assertion(key: PrivateKeyJWTFixture.stranger))
            #expect(reply.status == 401)
        }
        let refused = try await fixture.token(try fixture.assertion(key: PrivateKeyJWTFixture.stranger))
        #expect(refused.status == 429)
        #expect(Int(refused.headers["retry-after"] ?? "") ?? 0 >= 1)
    }

    @Test("revocation and introspection accept an assertion")
    func revocationAndIntrospection() async throws {
        let server = try LatchTestServer.start(mode: .live)
        defer { server.stop() }
        let fixture = try PrivateKeyJWTFixture(server)
        let issued = try await fixture.token(try fixture.assertion())
        let token = try #require(issued.string("access_token"))
        let introspected = try await fixture.post(
            "oauth2/v2.0/introspect", ["token": token].merging(PrivateKeyJWTFixture.credentials(try fixture.assertion())) { $1 })
        #expect(introspected.status == 200, "\(introspected.json)")
        #expect(introspected.json["active"] as? Bool == true)
        #expect(introspected.string("client_id") == "svc-jwt")
        let bad = try await fixture.post(
            "oauth2/v2.0/introspect",
            ["token": token].merging(PrivateKeyJWTFixture.credentials(try fixture.assertion(key: PrivateKeyJWTFixture.stranger)))
            {
                $1
            })
        PrivateKeyJWTFixture.expectInvalidClient(bad, "introspection with a wrong key")

        let revoked = try await fixture.post(
            "oauth2/v2.0/revoke",
            ["token": token, "token_type_hint": "access_token"].merging(
                PrivateKeyJWTFixture.credentials(try fixture.assertion())
            ) { $1 })
        #expect(revoked.status == 200, "\(revoked.json)")
        let replayed = try fixture.assertion()
        #expect(
            try await fixture.post(
                "oauth2/v2.0/revoke", ["token": token].merging(PrivateKeyJWTFixture.credentials(replayed)) { $1 }
            )
            .status == 200)
        PrivateKeyJWTFixture.expectInvalidClient(
            try await fixture.post(
                "oauth2/v2.0/revoke", ["token": token].merging(PrivateKeyJWTFixture.credentials(replayed)) { $1 }),
            "revocation with a replayed assertion")
    }

    @Test("set-jwks replaces the keys: the old key stops working, the new one works")
    func replaceKeys() async throws {
        let server = try LatchTestServer.start(mode: .live)
        defer { server.stop() }
        let fixture = try PrivateKeyJWTFixture(server)
        let admin = server.app.services.admin
        let tenant = try admin.tenant(named: "default")
        try admin.setClientKeys(tenant: tenant, id: "svc-jwt", jwks: PrivateKeyJWTFixture.jwks([PrivateKeyJWTFixture.ec]))
        PrivateKeyJWTFixture.expectInvalidClient(try await fixture.token(try fixture.assertion()), "removed RSA key")
        #expect(try await fixture.token(try fixture.assertion(key: PrivateKeyJWTFixture.ec)).status == 200)
        #expect(throws: AuthFailure.unknownClient) {
            try admin.setClientKeys(tenant: tenant, id: "latch-dev", jwks: PrivateKeyJWTFixture.jwks())
        }
        #expect(throws: AuthFailure.unknownClient) {
            try admin.setClientKeys(tenant: tenant, id: "nobody", jwks: PrivateKeyJWTFixture.jwks())
        }
        // Keys given to a client with a secret: either method then works.
        let secretClient = try ConfidentialClientFixture(server)
        try admin.setClientKeys(tenant: tenant, id: "svc", jwks: PrivateKeyJWTFixture.jwks())
        #expect(try await fixture.token(try fixture.assertion(["iss": "svc", "sub": "svc"])).status == 200)
        #expect(try await secretClient.token().status == 200)
        #expect(throws: AuthFailure.invalidParameter(.jwks)) {
            try admin.setClientKeys(tenant: tenant, id: "svc-jwt", jwks: #"{"keys":[{"kty":"oct","k":"c2VjcmV0"}]}"#)
        }
    }

    @Test("discovery lists private_key_jwt and the assertion algorithms for token, revocation and introspection")
    func discovery() async throws {
        let server = try LatchTestServer.start(mode: .live)
        defer { server.stop() }
        let document = try await WireClient(server).raw("GET", "/default/v2.0/.well-known/openid-configuration")
        for endpoint in ["token", "revocation", "introspection"] {
            let methods = document.json["\(endpoint)_endpoint_auth_methods_supported"] as? [String] ?? []
            #expect(methods.contains("private_key_jwt"), "\(endpoint)")
            #expect(
                document.json["\(endpoint)_endpoint_auth_signing_alg_values_supported"] as? [String] == ["ES256", "RS256"],
                "\(endpoint)")
        }
    }

    /// `assertion` with one claim changed after signing.
    private static func tampered(_ assertion: String) -> String {
        let parts = assertion.split(separator: ".", omittingEmptySubsequences: false)
        var claims = (try? JSONSerialization.jsonObject(with: Data(Base64URL.decode(parts[1]) ?? []))) as? [String: Any] ?? [:]
        claims["exp"] = ((claims["exp"] as? NSNumber)?.intValue ?? 0) + 60
        let payload = (try? JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys])) ?? Data()
        return "\(parts[0]).\(Base64URL.encode(payload)).\(parts[2])"
    }
}
