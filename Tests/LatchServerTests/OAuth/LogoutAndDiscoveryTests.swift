import Foundation
import LatchServer
import LatchTesting
import Testing

/// RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0) and the discovery document's
/// consistency with what the server does.
@Suite("Logout and discovery")
struct LogoutAndDiscoveryTests {
    static let password = "correct horse battery 9"

    @Test("logout with an id_token_hint ends the browser session and returns to a registered URI with state")
    func logout() async throws {
        let server = try LatchTestServer.start(mode: .live)
        defer { server.stop() }
        _ = try server.createUser(email: "bye@example.com", password: Self.password)
        try AuthorizationFlowFixture.register(
            server, id: "site", redirectURIs: ["http://127.0.0.1/cb"], postLogout: ["http://127.0.0.1/signed-out"])
        var flow = AuthorizationFlowFixture(server)
        flow.clientID = "site"
        flow.redirectURI = "http://127.0.0.1:5555/cb"
        let tokens = try await flow.exchange(
            try flow.code(try await flow.authorizeSigningIn(email: "bye@example.com", password: Self.password)))
        let idToken = try #require(tokens.string("id_token"))
        let unregistered = try await flow.browser.get(
            "/default/oauth2/v2.0/logout?id_token_hint=\(idToken)&post_logout_redirect_uri=https%3A%2F%2Fevil.example%2F")
        #expect(unregistered.status == 400)
        #expect(unregistered.location == nil)
        let mismatch = try await flow.browser.get("/default/oauth2/v2.0/logout?id_token_hint=\(idToken)&client_id=latch-dev")
        #expect(mismatch.status == 400)
        let out = try await flow.browser.get(
            "/default/oauth2/v2.0/logout?id_token_hint=\(idToken)&post_logout_redirect_uri="
                + "http%3A%2F%2F127.0.0.1%3A4000%2Fsigned-out&state=bye-1")
        #expect(out.status == 303)
        #expect(out.location == "http://127.0.0.1:4000/signed-out?state=bye-1")
        #expect(flow.browser.cookies["latch_browser"] == nil)
        let silent = try await flow.authorize(["prompt": "none"])
        #expect(silent.redirectQuery["error"] == "login_required")
    }

    @Test("logout without a client asks the user first, and a forged confirmation is ignored")
    func confirmation() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        _ = try server.createUser(email: "confirm@example.com", password: Self.password)
        let flow = AuthorizationFlowFixture(server)
        _ = try flow.code(try await flow.authorizeSigningIn(email: "confirm@example.com", password: Self.password))
        let ask = try await flow.browser.get("/default/oauth2/v2.0/logout")
        #expect(ask.formID == "logout")
        #expect(try await flow.browser.post("/default/oauth2/v2.0/logout", ["confirm": "yes"]).formID == "logout")
        _ = try flow.code(try await flow.authorize(["prompt": "none"]))
        let done = try await flow.browser.submit(ask, ["action": "logout"])
        #expect(done.status == 200)
        #expect(done.title == "You are signed out")
        #expect(try await flow.authorize(["prompt": "none"]).redirectQuery["error"] == "login_required")
    }

    @Test("every advertised endpoint answers, and every advertised value is accepted")
    func discoveryConsistency() async throws {
        let server = try LatchTestServer.start(mode: .live)
        defer { server.stop() }
        let discovery = try await WireClient(server).raw("GET", "/default/v2.0/.well-known/openid-configuration")
        let document = discovery.json
        func path(_ key: String) throws -> String {
            let url = try #require(document[key] as? String, "\(key)")
            #expect(url.hasPrefix(server.baseURL), "\(key)")
            return String(url.dropFirst(server.baseURL.count))
        }
        for key in ["jwks_uri"] { #expect(try await WireClient(server).raw("GET", try path(key)).status == 200) }
        for key in ["token_endpoint", "revocation_endpoint", "introspection_endpoint", "device_authorization_endpoint"] {
            let reply = try await WireClient(server).raw(
                "POST", try path(key), body: Data("client_id=latch-dev".utf8),
                headers: ["Content-Type": "application/x-www-form-urlencoded"])
            #expect([200, 400, 401].contains(reply.status), "\(key) \(reply.status)")
            #expect(reply.status != 200 || key == "device_authorization_endpoint", "\(key)")
        }
        #expect(try await WireClient(server).raw("GET", try path("userinfo_endpoint")).status == 401)
        #expect(try await WireClient(server).raw("GET", try path("end_session_endpoint")).status == 200)
        #expect(try await WireClient(server).raw("GET", try path("authorization_endpoint")).status == 400)
        #expect(document["authorization_response_iss_parameter_supported"] as? Bool == true)
        #expect(document["claims_parameter_supported"] as? Bool == true)
        #expect(document["code_challenge_methods_supported"] as? [String] == ["S256"])
        #expect(document["response_types_supported"] as? [String] == ["code"])
        #expect((document["ui_locales_supported"] as? [String]).map(Set.init) == ["en", "pl", "he"])

        _ = try server.createUser(email: "disc@example.com", password: Self.password)
        let flow = AuthorizationFlowFixture(server)
        _ = try flow.code(try await flow.authorizeSigningIn(email: "disc@example.com", password: Self.password))
        for mode in try #require(document["response_modes_supported"] as? [String]) {
            let page = try await flow.authorize(["response_mode": mode])
            #expect(page.status == (mode == "form_post" ? 200 : 303), "\(mode)")
            #expect(page.html.contains("name=\"code\"") || page.redirectQuery["code"] != nil, "\(mode)")
        }
        for prompt in try #require(document["prompt_values_supported"] as? [String]) {
            let page = try await flow.authorize(["prompt": prompt])
            #expect(page.redirectQuery["error"] == nil, "prompt=\(prompt): \(page.location ?? "page")")
        }
        for locale in try #require(document["ui_locales_supported"] as? [String]) {
            let page = try await flow.authorize(["ui_locales": locale, "prompt": "login"])
            #expect(page.html.contains("<html lang=\"\(locale)\""), "\(locale)")
        }
        for acr in try #require(document["acr_values_supported"] as? [String]) {
            let page = try await flow.authorize(["acr_values": acr])
            #expect(page.status == 200 || page.status == 303, "\(acr)")
        }
        for scope in try #require(document["scopes_supported"] as? [String]) {
            let page = try await flow.authorize(["scope": scope])
            #expect(page.redirectQuery["error"] == nil, "\(scope)")
        }
        let grants = try #require(document["grant_types_supported"] as? [String])
        for grant in grants {
            let reply = try await WireClient(server).post("oauth2/v2.0/token", ["grant_type": grant])
            #expect(reply.error != "unsupported_grant_type", "\(grant)")
        }
    }
}
