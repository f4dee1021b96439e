import Foundation
import LatchServer
import LatchTesting
import Testing

/// The `authorization_code` grant (RFC 6749 § 4.1.3, RFC 7636 § 4.6): single use, 60 seconds,
/// bound to client, redirect URI and verifier; a replay revokes what the first exchange issued.
@Suite("Authorization code grant")
struct AuthorizationCodeGrantTests {
    static let email = "code@example.com"
    static let password = "correct horse battery 9"

    /// A live server with the user, and a fresh code for it.
    static func codeFlow(mode: LatchTestServer.Mode = .live) async throws -> (LatchTestServer, AuthorizationFlowFixture, String) {
        let server = try LatchTestServer.start(mode: mode)
        _ = try server.createUser(email: email, password: password)
        let flow = AuthorizationFlowFixture(server)
        let code = try flow.code(try await flow.authorizeSigningIn(email: email, password: password))
        return (server, flow, code)
    }

    @Test("the code, state and nonce round trip: tokens for the user, with the nonce in the ID token")
    func exchange() async throws {
        let (server, flow, code) = try await Self.codeFlow()
        defer { server.stop() }
        let reply = try await flow.exchange(code)
        #expect(reply.status == 200, "\(String(decoding: reply.body, as: UTF8.self))")
        #expect(reply.headers["cache-control"] == "no-store")
        let idToken = try #require(reply.string("id_token"))
        _ = try TokenHelpers.verify(idToken, with: try await TokenHelpers.jwks(WireClient(server)))
        let claims = try DecodedJWT(idToken)
        #expect(claims.string("nonce") == "nonce-1")
        #expect(claims.string("aud") == "latch-dev")
        #expect(claims.string("email") == Self.email)
        #expect(claims.claims["auth_time"] != nil)
        #expect(reply.string("refresh_token") != nil)
        let refreshed = try await WireClient(server).post(
            "oauth2/v2.0/token", ["grant_type": "refresh_token", "refresh_token": reply.string("refresh_token")!])
        #expect(refreshed.status == 200)
    }

    @Test("a code used twice is refused, and the tokens of its first use are revoked")
    func replayRevokes() async throws {
        let (server, flow, code) = try await Self.codeFlow()
        defer { server.stop() }
        let first = try await flow.exchange(code)
        #expect(first.status == 200)
        let second = try await flow.exchange(code)
        #expect(second.status == 400)
        #expect(second.error == "invalid_grant")
        let refresh = try await WireClient(server).post(
            "oauth2/v2.0/token", ["grant_type": "refresh_token", "refresh_token": first.string("refresh_token")!])
        #expect(refresh.error == "invalid_grant")
        let userinfo = try await WireClient(server).raw(
            "GET", "/default/oidc/userinfo", headers: ["Authorization": "Bearer \(first.string("access_token")!)"])
        #expect(userinfo.status == 401)
    }

    @Test("two concurrent exchanges of one code: at most one gets tokens")
    func concurrentExchange() async throws {
        let (server, flow, code) = try await Self.codeFlow(mode: .inProcess)
        defer { server.stop() }
        async let a = flow.exchange(code)
        async let b = flow.exchange(code)
        let results = try await [a, b]
        #expect(results.filter { $0.status == 200 }.count <= 1)
        #expect(results.filter { $0.error == "invalid_grant" }.count >= 1)
    }

    @Test("a wrong, missing or malformed verifier, another redirect URI, or another client is invalid_grant")
    func binding() async throws {
        let (server, flow, code) = try await Self.codeFlow(mode: .inProcess)
        defer { server.stop() }
        try AuthorizationFlowFixture.register(server, id: "other", redirectURIs: ["http://127.0.0.1/cb"])
        let refusals: [WireResponse] = [
            try await flow.exchange(code, verifier: PKCE().verifier),
            try await flow.exchange(code, extra: ["code_verifier": ""]),
            try await flow.exchange(code, verifier: "short"),
            try await flow.exchange(code, verifier: String(repeating: "a", count: 129)),
            try await flow.exchange(code, redirectURI: "http://127.0.0.1:5556/cb"),
            try await flow.exchange(code, extra: ["redirect_uri": ""]),
            try await flow.exchange(code, clientID: "other"),
            try await flow.exchange("not-a-code"),
            try await flow.exchange(String(repeating: "x", count: 600)),
        ]
        for reply in refusals {
            #expect(reply.status == 400)
            #expect(reply.error == "invalid_grant", "\(String(decoding: reply.body, as: UTF8.self))")
        }
        let missing = try await flow.exchange(code, extra: ["code": ""])
        #expect(missing.error == "invalid_request")
        // None of the refusals used the code up.
        #expect(try await flow.exchange(code).status == 200)
    }

    @Test("a code older than 60 seconds is refused")
    func expiry() async throws {
        let (server, flow, code) = try await Self.codeFlow(mode: .inProcess)
        defer { server.stop() }
        server.clock.advance(by: 61)
        let reply = try await flow.exchange(code)
        #expect(reply.error == "invalid_grant")
        #expect(reply.string("error_description") == "The code has expired.")
    }

    @Test("a code is bound to its tenant")
    func wrongTenant() async throws {
        let (server, flow, code) = try await Self.codeFlow(mode: .inProcess)
        defer { server.stop() }
        _ = try server.createTenant("other", settings: TenantSettings())
        let reply = try await WireClient(server, tenant: "other").post(
            "oauth2/v2.0/token",
            [
                "grant_type": "authorization_code", "code": code, "redirect_uri": flow.redirectURI,
                "code_verifier": flow.pkce.verifier,
            ])
        #expect(reply.error == "invalid_grant")
    }

    @Test("a confidential client authenticates, may skip PKCE, and a verifier without a challenge is refused")
    func confidentialClient() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        _ = try server.createUser(email: Self.email, password: Self.password)
        let secret = try #require(
            try AuthorizationFlowFixture.register(
                server, id: "webapp", redirectURIs: ["https://web.example.com/cb"], confidential: true))
        var flow = AuthorizationFlowFixture(server)
        flow.clientID = "webapp"
        flow.redirectURI = "https://web.example.com/cb"
        let noPKCE = ["code_challenge": "", "code_challenge_method": ""]
        let code = try flow.code(try await flow.authorizeSigningIn(email: Self.email, password: Self.password, noPKCE))
        let unauthenticated = try await flow.exchange(code, extra: ["code_verifier": ""])
        #expect(unauthenticated.status == 401)
        #expect(unauthenticated.error == "invalid_client")
        let downgrade = try await flow.exchange(code, extra: ["client_secret": secret])
        #expect(downgrade.error == "invalid_grant")
        let good = try await flow.exchange(code, extra: ["client_secret": secret, "code_verifier": ""])
        #expect(good.status == 200, "\(String(decoding: good.body, as: UTF8.self))")
    }
}
