import Foundation
import LatchSDKTesting
import Testing

@testable import Latch

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The pieces of interactive sign-in that need no server: PKCE (RFC 7636), the authorization
/// request's URL (RFC 6749 § 4.1.1) and the check of its redirect (§ 4.1.2).
@Suite("Interactive sign-in: PKCE, request URL, redirect parsing")
struct InteractiveProtocolTests {
    @Test("the PKCE digest is SHA-256: the FIPS 180-4 examples, across block boundaries")
    func sha256() {
        func hex(_ text: String) -> String {
            PKCE.sha256(Array(text.utf8)).map { String(format: "%02x", $0) }.joined()
        }
        #expect(hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(hex(String(repeating: "a", count: 1000)) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }

    @Test("the S256 challenge of RFC 7636 Appendix B's verifier")
    func appendixB() {
        let pkce = PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        #expect(pkce.challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        #expect(PKCE.method == "S256")
    }

    @Test("each verifier is 43 unreserved characters, and fresh")
    func freshVerifiers() {
        let verifiers = (0..<50).map { _ in PKCE().verifier }
        #expect(Set(verifiers).count == 50)
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        for verifier in verifiers {
            #expect(verifier.count == 43)
            #expect(verifier.allSatisfy(allowed.contains))
        }
        #expect(Set((0..<50).map { _ in RandomText.token() }).count == 50)
    }

    static let configuration = LatchConfiguration(
        serverURL: URL(string: "https://id.example.com")!, tenant: "contoso", clientID: "app-1",
        credentialStore: InMemoryCredentialStore())
    static let redirect = URL(string: "http://127.0.0.1:50123/callback")!

    static func query(_ url: URL) -> [String: String] {
        var fields: [String: String] = [:]
        for item in URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? [] { fields[item.name] = item.value }
        return fields
    }

    @Test("the authorization URL carries the code flow, PKCE S256, state, nonce and the app's parameters")
    func requestURL() throws {
        let claims = #"{"access_token":{"acrs":{"essential":true,"value":"c1"}}}"#
        let request = AuthorizationRequest(
            configuration: Self.configuration, redirectURI: Self.redirect,
            parameters: LatchInteractiveParameters(
                scopes: ["api.read", "offline_access"], claims: claims, prompt: .selectAccount, loginHint: "ada+1@example.com",
                extraQueryParameters: ["ui_locales": "he", "state": "forged", "client_id": "other"]))
        let url = request.url
        #expect(url.absoluteString.hasPrefix("https://id.example.com/contoso/oauth2/v2.0/authorize?"))
        let query = Self.query(url)
        #expect(query["response_type"] == "code")
        #expect(query["client_id"] == "app-1")
        #expect(query["redirect_uri"] == "http://127.0.0.1:50123/callback")
        #expect(query["scope"] == "openid api.read offline_access")
        #expect(query["state"] == request.state)
        #expect(query["nonce"] == request.nonce)
        #expect(query["code_challenge"] == request.pkce.challenge)
        #expect(query["code_challenge_method"] == "S256")
        #expect(query["prompt"] == "select_account")
        #expect(query["login_hint"] == "ada+1@example.com")
        #expect(query["claims"] == claims)
        #expect(query["ui_locales"] == "he")
        // `+` must reach the server as a plus, not a space.
        #expect(url.absoluteString.contains("login_hint=ada%2B1%40example.com"))
        #expect(request.state != request.nonce)
    }

    @Test("without scopes the defaults are asked for; no prompt, hint or claims are sent unless given")
    func defaults() {
        let request = AuthorizationRequest(
            configuration: Self.configuration, redirectURI: Self.redirect, parameters: LatchInteractiveParameters())
        let query = Self.query(request.url)
        #expect(query["scope"] == "openid offline_access")
        #expect(query["prompt"] == nil && query["login_hint"] == nil && query["claims"] == nil)
        #expect(LatchPrompt.allCases.map(\.rawValue) == ["none", "login", "select_account", "consent"])
    }

    static func request() -> AuthorizationRequest {
        AuthorizationRequest(
            configuration: configuration, redirectURI: redirect, parameters: LatchInteractiveParameters(), state: "s-123",
            nonce: "n-456", pkce: PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"))
    }

    @Test("a redirect with the request's state gives its code")
    func goodRedirect() throws {
        let code = try Self.request().code(
            from: URL(
                string: "http://127.0.0.1:50123/callback?code=abc&state=s-123&iss=https%3A%2F%2Fid.example.com%2Fcontoso%2Fv2.0")!
        )
        #expect(code == "abc")
        #expect(try Self.request().code(from: URL(string: "http://127.0.0.1:50123/callback?code=abc&state=s-123")!) == "abc")
    }

    @Test("a redirect whose iss names another server is refused (RFC 9207 mix-up defence)")
    func otherIssuer() {
        for issuer in ["https%3A%2F%2Fid.example.com", "https%3A%2F%2Fevil.example%2Fcontoso%2Fv2.0", ""] {
            let error = #expect(throws: LatchError.self) {
                try Self.request().code(
                    from: URL(string: "http://127.0.0.1:50123/callback?code=abc&state=s-123&iss=\(issuer)")!)
            }
            #expect(error?.code == .invalidAuthorizationResponse, "\(issuer)")
        }
    }

    @Test(
        "a missing or different state is stateMismatch, before anything else is read",
        arguments: [
            "?code=abc", "?code=abc&state=s-124", "?code=abc&state=", "?error=access_denied&state=other",
            "?state=S-123&code=abc",
        ])
    func stateMismatch(query: String) {
        let error = #expect(throws: LatchError.self) {
            try Self.request().code(from: URL(string: "http://127.0.0.1:50123/callback" + query)!)
        }
        #expect(error?.code == .stateMismatch)
        #expect(error?.code.rawValue == -42501)
        #expect(error?.name == "ERROR_STATE_MISMATCH")
        #expect(error?.recovery == .restartFlow)
    }

    @Test(
        "an error redirect maps to a precise code and keeps the OAuth error",
        arguments: [
            ("access_denied", LatchError.Code.userCanceled), ("login_required", .interactionRequired),
            ("interaction_required", .interactionRequired), ("consent_required", .interactionRequired),
            ("account_selection_required", .interactionRequired), ("invalid_scope", .invalidScope),
            ("unauthorized_client", .operationNotAllowed), ("server_error", .serverError),
            ("temporarily_unavailable", .serverError), ("invalid_request", .authorizationFailed),
            ("unsupported_response_type", .authorizationFailed),
        ])
    func errorRedirect(error: String, code: LatchError.Code) {
        let thrown = #expect(throws: LatchError.self) {
            try Self.request().code(
                from: URL(
                    string: "http://127.0.0.1:50123/callback?error=\(error)&error_description=Why+not&state=s-123")!)
        }
        #expect(thrown?.code == code)
        #expect(thrown?.oauthError == error)
        #expect(thrown?.failureReason == "Why not")
    }

    @Test("a redirect with neither code nor error is invalidAuthorizationResponse")
    func missingCode() {
        for query in ["?state=s-123", "?state=s-123&code="] {
            let error = #expect(throws: LatchError.self) {
                try Self.request().code(from: URL(string: "http://127.0.0.1:50123/callback" + query)!)
            }
            #expect(error?.code == .invalidAuthorizationResponse)
            #expect(error?.name == "ERROR_INVALID_AUTHORIZATION_RESPONSE")
        }
    }

    @Test("the parameters of an interactionRequired error carry its claims and login hint")
    func parametersFromError() {
        var error = LatchError(code: .interactionRequired, message: "m", claimsChallenge: #"{"id_token":{}}"#)
        error.loginHint = "ada@example.com"
        let parameters = LatchInteractiveParameters(error: error, scopes: ["api.read"], timeout: 12)
        #expect(parameters.claims == #"{"id_token":{}}"#)
        #expect(parameters.loginHint == "ada@example.com")
        #expect(parameters.scopes == ["api.read"])
        #expect(parameters.timeout == 12)
        #expect(parameters.prompt == nil)
    }

    @Test("the system browser runs --browser-command, else BROWSER, else xdg-open, with the URL")
    func systemBrowserInvocation() {
        let url = URL(string: "http://127.0.0.1:8080/default/oauth2/v2.0/authorize?a=b")!
        #expect(
            LatchSystemBrowser(command: ["firefox", "--new-window"], environment: ["BROWSER": "lynx"]).invocation(for: url)
                == ["firefox", "--new-window", url.absoluteString])
        #expect(
            LatchSystemBrowser(environment: ["BROWSER": "w3m -dump %s:lynx"]).invocation(for: url)
                == ["w3m", "-dump", url.absoluteString])
        #if os(Linux)
            #expect(LatchSystemBrowser(environment: [:]).invocation(for: url) == ["xdg-open", url.absoluteString])
        #endif
        #expect(LatchSystemBrowser().redirectURI == nil)
    }

    @Test("a browser command that fails is browserUnavailable")
    func failingBrowser() async {
        let browser = LatchSystemBrowser(command: ["false"])
        let error = await #expect(throws: LatchError.self) {
            _ = try await browser.open(URL(string: "http://127.0.0.1:1/x")!, redirectURI: Self.redirect)
        }
        #expect(error?.code == .browserUnavailable)
    }
}
