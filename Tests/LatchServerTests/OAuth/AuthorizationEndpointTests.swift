import Foundation
import LatchServer
import LatchTesting
import Testing

/// The authorization endpoint's checks (RFC 6749 § 4.1.1, § 4.1.2.1, RFC 7636 § 4.4.1, RFC 8252
/// § 7): which requests go to a page, which back to the client with an error, and which never
/// reach the redirect URI.
@Suite("Authorization endpoint")
struct AuthorizationEndpointTests {
    @Test("a public client without a code_challenge, or with plain, is sent back invalid_request")
    func pkceRequired() async throws {
        let server = try LatchTestServer.start(mode: .live)
        defer { server.stop() }
        let flow = AuthorizationFlowFixture(server)
        for extra in [
            ["code_challenge": "", "code_challenge_method": ""],
            ["code_challenge_method": "plain"],
            ["code_challenge_method": ""],
            ["code_challenge": "short"],
        ] {
            let page = try await flow.authorize(extra)
            #expect(page.status == 303, "\(extra)")
            #expect(page.redirectQuery["error"] == "invalid_request", "\(extra)")
            #expect(page.redirectQuery["state"] == "state-1")
            #expect(page.redirectQuery["code"] == nil)
        }
    }

    @Test("an unknown client or an unregistered redirect URI is shown on a page, never redirected")
    func unredirectable() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        try AuthorizationFlowFixture.register(server, id: "web", redirectURIs: ["https://app.example.com/cb"])
        var flow = AuthorizationFlowFixture(server)
        flow.clientID = "nobody"
        var page = try await flow.authorize()
        #expect(page.status == 400)
        #expect(page.location == nil)
        #expect(page.html.contains("not registered"))
        flow.clientID = "web"
        for uri in [
            "https://app.example.com/cb/other", "https://app.example.com/cb?x=1", "https://evil.example.com/cb",
            "https://app.example.com/cb#frag", "http://app.example.com/cb",
        ] {
            flow.redirectURI = uri
            page = try await flow.authorize()
            #expect(page.status == 400, "\(uri)")
            #expect(page.location == nil, "\(uri)")
        }
        page = try await flow.authorize(["client_id": ""])
        #expect(page.status == 400)
        #expect(page.location == nil)
    }

    @Test("a registered loopback redirect matches on any port but nothing else (RFC 8252 § 7.3)")
    func loopbackPortRule() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        try AuthorizationFlowFixture.register(
            server, id: "native", redirectURIs: ["http://127.0.0.1/callback", "http://[::1]:8000/callback"])
        var flow = AuthorizationFlowFixture(server)
        flow.clientID = "native"
        for uri in ["http://127.0.0.1:49152/callback", "http://127.0.0.1/callback", "http://[::1]:61000/callback"] {
            flow.redirectURI = uri
            let page = try await flow.authorize()
            #expect(page.status == 200 && page.formID == "signin", "\(uri)")
        }
        for uri in ["http://127.0.0.1:49152/other", "http://localhost:49152/callback", "http://127.0.0.2:80/callback"] {
            flow.redirectURI = uri
            let page = try await flow.authorize()
            #expect(page.status == 400 && page.location == nil, "\(uri)")
        }
    }

    @Test("a private-use scheme redirect works, and the page's CSP lets the form's redirect reach it")
    func privateUseScheme() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        try AuthorizationFlowFixture.register(server, id: "ios", redirectURIs: ["com.example.app:/oauth2redirect"])
        _ = try server.createUser(email: "ios@example.com", password: "correct horse battery 9")
        var flow = AuthorizationFlowFixture(server)
        flow.clientID = "ios"
        flow.redirectURI = "com.example.app:/oauth2redirect"
        let page = try await flow.authorize()
        let csp = try #require(page.headers["content-security-policy"])
        #expect(csp.contains("form-action 'self' com.example.app:"))
        #expect(!csp.contains("unsafe-inline"))
        let answer = try await flow.signIn(page, email: "ios@example.com", password: "correct horse battery 9")
        _ = try flow.code(answer)
    }

    @Test("response_type other than code, request objects, and bad prompt or max_age go back as errors")
    func redirectedErrors() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let flow = AuthorizationFlowFixture(server)
        let cases: [([String: String], String)] = [
            (["response_type": "token"], "unsupported_response_type"),
            (["response_type": "id_token"], "unsupported_response_type"),
            (["response_type": ""], "invalid_request"),
            (["request": "eyJ.e30."], "request_not_supported"),
            (["request_uri": "https://x.example/r"], "request_uri_not_supported"),
            (["prompt": "none login"], "invalid_request"),
            (["prompt": "sometimes"], "invalid_request"),
            (["max_age": "-1"], "invalid_request"),
            (["max_age": "soon"], "invalid_request"),
            (["response_mode": "fragment"], "invalid_request"),
            (["claims": "not json"], "invalid_request"),
            (["state": String(repeating: "s", count: 2000)], "invalid_request"),
        ]
        for (extra, error) in cases {
            let page = try await flow.authorize(extra)
            #expect(page.status == 303, "\(extra)")
            #expect(page.redirectQuery["error"] == error, "\(extra): \(page.location ?? page.html)")
        }
    }

    @Test("a client whose grant types exclude the code flow is sent back unauthorized_client")
    func grantNotAllowed() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        try AuthorizationFlowFixture.register(
            server, id: "nocode", redirectURIs: ["https://app.example.com/cb"], grantTypes: ["refresh_token", "password"])
        var flow = AuthorizationFlowFixture(server)
        flow.clientID = "nocode"
        flow.redirectURI = "https://app.example.com/cb"
        let page = try await flow.authorize()
        #expect(page.redirectQuery["error"] == "unauthorized_client")
    }

    @Test("a tenant that does not exist answers an HTML 404")
    func unknownTenant() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let flow = AuthorizationFlowFixture(server, tenant: "nope")
        let page = try await flow.authorize()
        #expect(page.status == 404)
        #expect(page.headers["content-type"]?.hasPrefix("text/html") == true)
        #expect(page.headers["x-frame-options"] == "DENY")
    }

    @Test("registration refuses redirect URIs and grants it cannot honour")
    func registrationRules() throws {
        #expect(RedirectURIRule.isRegistrable("https://app.example.com/cb"))
        #expect(RedirectURIRule.isRegistrable("http://127.0.0.1/cb"))
        #expect(RedirectURIRule.isRegistrable("http://[::1]:8080/cb"))
        #expect(RedirectURIRule.isRegistrable("com.example.app:/cb"))
        #expect(!RedirectURIRule.isRegistrable("http://app.example.com/cb"))
        #expect(!RedirectURIRule.isRegistrable("https://app.example.com/cb#x"))
        #expect(!RedirectURIRule.isRegistrable("myapp:/cb"))
        #expect(!RedirectURIRule.isRegistrable("/relative"))
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        #expect(throws: AuthFailure.invalidParameter(.redirectURI)) {
            try AuthorizationFlowFixture.register(server, id: "a", redirectURIs: ["http://evil.example/cb"])
        }
        #expect(throws: AuthFailure.invalidParameter(.grantType)) {
            try AuthorizationFlowFixture.register(server, id: "b", redirectURIs: [], grantTypes: ["implicit"])
        }
        #expect(throws: AuthFailure.invalidParameter(.grantType)) {
            try AuthorizationFlowFixture.register(server, id: "c", redirectURIs: [], grantTypes: ["client_credentials"])
        }
        #expect(throws: AuthFailure.invalidParameter(.grantType)) {
            try AuthorizationFlowFixture.register(server, id: "d", redirectURIs: [], thirdParty: true, grantTypes: ["password"])
        }
    }

    @Test("allows(grant:) agrees with effectiveGrantTypes for every kind of client")
    func grantRule() {
        for isPublic in [true, false] {
            for thirdParty in [true, false] {
                for registered in [[], ["refresh_token", "authorization_code"]] {
                    var client = Client(id: "c", tenantID: "t", name: "c", isPublic: isPublic, createdAt: Date())
                    client.thirdParty = thirdParty
                    client.grantTypes = registered
                    for grant in GrantType.all.union(["implicit", ""]) {
                        #expect(client.allows(grant: grant) == client.effectiveGrantTypes.contains(grant), "\(grant)")
                    }
                }
            }
        }
    }
}
