import Foundation
import LatchServer
import LatchTesting
import Testing

/// The hosted pages behind the authorization endpoint: sign-in, single sign-on and `prompt`,
/// `max_age`, the claims parameter's second factor, consent, the account chooser, sign-up,
/// password reset, languages, and the pages' anti-forgery and header rules.
@Suite("Hosted sign-in pages")
struct HostedSignInTests {
    static let password = "correct horse battery 9"

    @Test("prompt=none answers login_required without a session and a code with one")
    func promptNone() async throws {
        let server = try LatchTestServer.start(mode: .live)
        defer { server.stop() }
        _ = try server.createUser(email: "sso@example.com", password: Self.password)
        let flow = AuthorizationFlowFixture(server)
        let silent = try await flow.authorize(["prompt": "none"])
        #expect(silent.status == 303)
        #expect(silent.redirectQuery["error"] == "login_required")
        #expect(silent.redirectQuery["state"] == "state-1")
        _ = try flow.code(try await flow.authorizeSigningIn(email: "sso@example.com", password: Self.password))
        let browserCookie = try #require(flow.browser.setCookies.first { $0.hasPrefix("latch_browser=") })
        #expect(browserCookie.contains("HttpOnly"))
        #expect(browserCookie.contains("SameSite=Lax"))
        #expect(browserCookie.contains("Path=/default/"))
        // Single sign-on: no page, straight back with a code.
        _ = try flow.code(try await flow.authorize())
        _ = try flow.code(try await flow.authorize(["prompt": "none"]))
        // prompt=login asks again.
        let again = try await flow.authorize(["prompt": "login"])
        #expect(again.formID == "signin")
    }

    @Test("max_age: an older sign-in shows the sign-in page, or login_required with prompt=none")
    func maxAge() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        _ = try server.createUser(email: "age@example.com", password: Self.password)
        let flow = AuthorizationFlowFixture(server)
        let first = try await flow.exchange(
            try flow.code(try await flow.authorizeSigningIn(email: "age@example.com", password: Self.password)))
        let authTime = try #require(try DecodedJWT(first.string("id_token")!).claims["auth_time"] as? Int)
        server.clock.advance(by: 120)
        _ = try flow.code(try await flow.authorize(["max_age": "300"]))
        let stale = try await flow.authorize(["max_age": "60"])
        #expect(stale.formID == "signin")
        #expect(stale.html.contains("value=\"age@example.com\""))
        let silent = try await flow.authorize(["max_age": "60", "prompt": "none"])
        #expect(silent.redirectQuery["error"] == "login_required")
        let fresh = try await flow.exchange(
            try flow.code(try await flow.signIn(stale, email: "age@example.com", password: Self.password)))
        let newAuthTime = try #require(try DecodedJWT(fresh.string("id_token")!).claims["auth_time"] as? Int)
        #expect(newAuthTime >= authTime + 120)
    }

    @Test("a claims request for the mfa class runs the second factor, and its session then satisfies it silently")
    func claimsTriggerMFA() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let user = try server.createUser(email: "mfa@example.com", password: Self.password)
        try SecondFactorTests.addMethods([(.email, "mfa-second@example.com")], to: user, in: server)
        let flow = AuthorizationFlowFixture(server)
        let claims = #"{"id_token":{"acr":{"essential":true,"values":["mfa"]}}}"#
        _ = try flow.code(try await flow.authorizeSigningIn(email: "mfa@example.com", password: Self.password))
        // The password session lacks the factor: prompt=none says so, a normal request asks for it.
        let silent = try await flow.authorize(["claims": claims, "prompt": "none"])
        #expect(silent.redirectQuery["error"] == "interaction_required")
        let signIn = try await flow.authorize(["claims": claims])
        #expect(signIn.formID == "signin")
        let mfaPage = try await flow.signIn(signIn, email: "mfa@example.com", password: Self.password)
        #expect(mfaPage.formID == "mfa", "\(mfaPage.html)")
        let code = try #require(try server.latestCode(to: "mfa-second@example.com"))
        let wrong = try await flow.browser.submit(mfaPage, ["code": "00000000", "action": "verify_code"])
        #expect(wrong.formID == "mfa")
        #expect(wrong.error("code") != nil)
        #expect(wrong.html.contains("aria-describedby=\"code-error\""))
        let done = try await flow.browser.submit(wrong, ["code": code, "action": "verify_code"])
        let tokens = try await flow.exchange(try flow.code(done))
        let idToken = try DecodedJWT(tokens.string("id_token")!)
        #expect(idToken.string("acr") == "mfa")
        #expect((idToken.claims["amr"] as? [String])?.contains("mfa") == true)
        _ = try flow.code(try await flow.authorize(["acr_values": "mfa", "prompt": "none"]))
    }

    @Test("a user without a strong method registers one on the pages when the claims ask for mfa")
    func registrationStep() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        _ = try server.createUser(email: "reg@example.com", password: Self.password)
        let flow = AuthorizationFlowFixture(server)
        let page = try await flow.authorizeSigningIn(
            email: "reg@example.com", password: Self.password, ["acr_values": "mfa"])
        #expect(page.formID == "register", "\(page.html)")
        let codePage = try await flow.browser.submit(page, ["contact": "reg-backup@example.com", "channel": "email"])
        #expect(codePage.formID == "code", "\(codePage.html)")
        let code = try #require(try server.latestCode(to: "reg-backup@example.com"))
        let done = try await flow.browser.submit(codePage, ["code": code, "action": "verify_code"])
        let tokens = try await flow.exchange(try flow.code(done))
        #expect(try DecodedJWT(tokens.string("id_token")!).string("acr") == "mfa")
    }

    @Test("a third-party client asks for consent once; deny sends access_denied; prompt=none says consent_required")
    func consent() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        _ = try server.createUser(email: "consent@example.com", password: Self.password)
        try AuthorizationFlowFixture.register(
            server, id: "partner", redirectURIs: ["https://partner.example.com/cb"], thirdParty: true)
        var flow = AuthorizationFlowFixture(server)
        flow.clientID = "partner"
        flow.redirectURI = "https://partner.example.com/cb"
        let consentPage = try await flow.authorizeSigningIn(email: "consent@example.com", password: Self.password)
        #expect(consentPage.formID == "consent", "\(consentPage.html)")
        #expect(consentPage.html.contains("App partner"))
        let denied = try await flow.browser.submit(consentPage, ["decision": "deny"])
        #expect(denied.redirectQuery["error"] == "access_denied")
        let silent = try await flow.authorize(["prompt": "none"])
        #expect(silent.redirectQuery["error"] == "consent_required")
        let again = try await flow.authorize()
        #expect(again.formID == "consent")
        _ = try flow.code(try await flow.browser.submit(again, ["decision": "allow"]))
        _ = try flow.code(try await flow.authorize(["prompt": "none"]))
        #expect(try await flow.authorize(["prompt": "consent"]).formID == "consent")
        // A third-party client may not use the browserless grants.
        let native = try await WireClient(server, clientID: "partner").post(
            "oauth2/v2.0/token", ["grant_type": "password", "username": "consent@example.com", "password": Self.password])
        #expect(native.error == "unauthorized_client")
    }

    @Test("two accounts in one browser: the chooser picks one; prompt=none says account_selection_required")
    func accountChooser() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        _ = try server.createUser(email: "one@example.com", password: Self.password)
        _ = try server.createUser(email: "two@example.com", password: Self.password)
        let flow = AuthorizationFlowFixture(server)
        _ = try flow.code(try await flow.authorizeSigningIn(email: "one@example.com", password: Self.password))
        _ = try flow.code(
            try await flow.authorizeSigningIn(email: "two@example.com", password: Self.password, ["prompt": "login"]))
        let silent = try await flow.authorize(["prompt": "none"])
        #expect(silent.redirectQuery["error"] == "account_selection_required")
        let hinted = try await flow.authorize(["prompt": "none", "login_hint": "one@example.com"])
        let hintedTokens = try await flow.exchange(try flow.code(hinted))
        #expect(try DecodedJWT(hintedTokens.string("id_token")!).string("email") == "one@example.com")
        let chooser = try await flow.authorize(["prompt": "select_account"])
        #expect(chooser.formID == "chooser")
        #expect(chooser.html.contains("one@example.com") && chooser.html.contains("two@example.com"))
        let sessionID = try #require(
            PageBrowser.Page.first(#"name="account" value="([^"]+)">two@example.com"#, in: chooser.html))
        let tokens = try await flow.exchange(try flow.code(try await flow.browser.submit(chooser, ["account": sessionID])))
        #expect(try DecodedJWT(tokens.string("id_token")!).string("email") == "two@example.com")
        let other = try await flow.browser.submit(try await flow.authorize(["prompt": "select_account"]), ["account": "other"])
        #expect(other.formID == "signin")
    }

    @Test("sign-up on the pages: e-mail code from the outbox, then a code for the client")
    func signUp() async throws {
        let server = try LatchTestServer.start(mode: .live)
        defer { server.stop() }
        let flow = AuthorizationFlowFixture(server)
        let signIn = try await flow.authorize()
        let signUp = try await flow.browser.get(try #require(signIn.link("signup-link")))
        #expect(signUp.formID == "signup")
        let weak = try await flow.browser.submit(signUp, ["username": "new@example.com", "password": "123", "action": "signup"])
        #expect(weak.formID == "signup")
        #expect(weak.error("password") != nil)
        let codePage = try await flow.browser.submit(
            weak, ["username": "new@example.com", "password": Self.password, "action": "signup"])
        #expect(codePage.formID == "code", "\(codePage.html)")
        let code = try #require(try server.latestCode(to: "new@example.com"))
        let tokens = try await flow.exchange(
            try flow.code(try await flow.browser.submit(codePage, ["code": code, "action": "verify_code"])))
        #expect(try DecodedJWT(tokens.string("id_token")!).string("email") == "new@example.com")
        let existing = try await flow.browser.submit(
            try await flow.browser.get(try #require(try await flow.authorize(["prompt": "login"]).link("signup-link"))),
            ["username": "new@example.com", "password": Self.password, "action": "signup"])
        #expect(existing.error("username") != nil)
    }

    @Test("sign-in with an e-mail code instead of the password, and a wrong password tied to its field")
    func codeSignInAndErrors() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        _ = try server.createUser(email: "otp@example.com", password: Self.password)
        let flow = AuthorizationFlowFixture(server)
        let wrong = try await flow.authorizeSigningIn(email: "otp@example.com", password: "wrong password 1")
        #expect(wrong.status == 400)
        #expect(wrong.formID == "signin")
        #expect(wrong.error("password") != nil)
        #expect(wrong.html.contains("aria-invalid=\"true\" aria-describedby=\"password-error\""))
        let empty = try await flow.browser.submit(wrong, ["username": "", "password": "", "action": "password"])
        #expect(empty.error("username") != nil && empty.error("password") != nil)
        let codePage = try await flow.browser.submit(empty, ["username": "otp@example.com", "action": "send_code"])
        #expect(codePage.formID == "code", "\(codePage.html)")
        let code = try #require(try server.latestCode(to: "otp@example.com"))
        _ = try flow.code(try await flow.browser.submit(codePage, ["code": code, "action": "verify_code"]))
    }

    @Test("password reset on the pages ends signed in with the new password")
    func passwordReset() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        _ = try server.createUser(email: "reset@example.com", password: Self.password)
        let flow = AuthorizationFlowFixture(server)
        let reset = try await flow.browser.get(try #require(try await flow.authorize().link("reset-link")))
        #expect(reset.formID == "reset")
        let codePage = try await flow.browser.submit(reset, ["username": "reset@example.com", "action": "send_code"])
        let code = try #require(try server.latestCode(to: "reset@example.com"))
        let newPassword = try await flow.browser.submit(codePage, ["code": code, "action": "verify_code"])
        #expect(newPassword.formID == "new-password")
        _ = try flow.code(
            try await flow.browser.submit(newPassword, ["new_password": "a brand new passphrase 7", "action": "save"]))
        let second = AuthorizationFlowFixture(server)
        _ = try second.code(
            try await second.authorizeSigningIn(email: "reset@example.com", password: "a brand new passphrase 7"))
    }

    @Test("a form without its cookie or token, or with altered state, is refused")
    func antiForgery() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        _ = try server.createUser(email: "csrf@example.com", password: Self.password)
        let flow = AuthorizationFlowFixture(server)
        let page = try await flow.authorize()
        var fields = page.hidden.merging(["username": "csrf@example.com", "password": Self.password, "action": "password"]) {
            $1
        }
        fields["csrf_token"] = "AAAA"
        #expect(try await flow.browser.post("/default/login", fields).status == 403)
        fields = page.hidden.merging(["username": "csrf@example.com", "password": Self.password, "action": "password"]) {
            $1
        }
        fields["interaction"] = String(fields["interaction"]!.dropLast(4)) + "AAAA"
        #expect(try await flow.browser.post("/default/login", fields).status == 400)
        // Another browser (no cookie) cannot replay the first one's form.
        let stranger = PageBrowser(server)
        let replay = try await stranger.post(
            "/default/login",
            page.hidden.merging(["username": "csrf@example.com", "password": Self.password, "action": "password"]) { $1 })
        #expect(replay.status == 403)
        // Expired state.
        server.clock.advance(by: Double(1801))
        let late = try await flow.signIn(page, email: "csrf@example.com", password: Self.password)
        #expect(late.status == 400)
        #expect(late.location == nil)
    }

    @Test("every page forbids framing, inline script and caching; languages follow ui_locales and Accept-Language")
    func headersAndLanguages() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        try server.updateTenant {
            $0.branding = Branding(displayName: "Acme", color: "#ffcc00", logoURL: "https://acme.example/l.png")
        }
        let flow = AuthorizationFlowFixture(server)
        let page = try await flow.authorize(["ui_locales": "he-IL en"])
        #expect(page.html.contains("<html lang=\"he\" dir=\"rtl\">"))
        #expect(page.html.contains("Acme"))
        #expect(page.html.contains("src=\"https://acme.example/l.png\""))
        let csp = try #require(page.headers["content-security-policy"])
        #expect(csp.contains("frame-ancestors 'none'") && csp.contains("script-src 'self'") && !csp.contains("unsafe"))
        #expect(page.headers["x-frame-options"] == "DENY")
        #expect(page.headers["cache-control"] == "no-store")
        #expect(!page.html.contains("<script") && !page.html.contains("style="))
        for field in ["username", "password"] { #expect(page.html.contains("<label for=\"\(field)\">")) }
        flow.browser.acceptLanguage = "pl-PL, en;q=0.5"
        #expect(try await flow.authorize().html.contains("<html lang=\"pl\" dir=\"ltr\">"))
        let style = try await flow.browser.get("/default/login/assets/style.css")
        #expect(style.headers["content-type"] == "text/css; charset=utf-8")
        #expect(style.html.contains("--accent: #ffcc00; --on-accent: #000000"))
    }

    @Test("response_mode=form_post answers with a form to the redirect URI and no inline script")
    func formPost() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        _ = try server.createUser(email: "post@example.com", password: Self.password)
        let flow = AuthorizationFlowFixture(server)
        let page = try await flow.authorizeSigningIn(
            email: "post@example.com", password: Self.password, ["response_mode": "form_post"])
        #expect(page.status == 200)
        #expect(page.html.contains("<form method=\"post\" action=\"http://127.0.0.1:5555/cb\">"))
        #expect(page.html.contains("<script src=\"/default/login/assets/form_post.js\"></script>"))
        #expect(page.headers["content-security-policy"]?.contains("form-action 'self' http://127.0.0.1:5555") == true)
        let code = try #require(page.hidden["code"])
        #expect(page.hidden["state"] == "state-1")
        #expect(try await flow.exchange(code).status == 200)
    }

    @Test("a sign-in renews the browser cookie: a value planted before it signs nobody in")
    func cookieRenewed() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        _ = try server.createUser(email: "fix@example.com", password: Self.password)
        _ = try server.createUser(email: "fix2@example.com", password: Self.password)
        let flow = AuthorizationFlowFixture(server)
        let planted = String(repeating: "p", count: 43)
        flow.browser.cookies["latch_browser"] = planted
        _ = try flow.code(try await flow.authorizeSigningIn(email: "fix@example.com", password: Self.password))
        let first = try #require(flow.browser.cookies["latch_browser"])
        #expect(first != planted)
        let attacker = PageBrowser(server)
        attacker.cookies["latch_browser"] = planted
        let silent = try await attacker.get(attacker.authorizePath(flow.parameters(["prompt": "none"])))
        #expect(silent.redirectQuery["error"] == "login_required")
        // A second account signs in: the cookie is renewed again and both sessions move with it.
        _ = try flow.code(
            try await flow.authorizeSigningIn(email: "fix2@example.com", password: Self.password, ["prompt": "login"]))
        #expect(flow.browser.cookies["latch_browser"] != first)
        let chooser = try await flow.authorize(["prompt": "select_account"])
        #expect(chooser.html.contains("fix@example.com") && chooser.html.contains("fix2@example.com"))
    }
}
