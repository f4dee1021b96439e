import Foundation
import LatchHTTP

/// The browser-facing family: the authorization endpoint (RFC 6749 § 3.1) with its hosted pages
/// (sign-in with a password or an e-mail code, sign-up, password reset, the second factor and
/// method registration, account chooser, consent), RP-initiated logout and the device
/// verification page. Failures under its paths are HTML pages (``HostedPageRenderer``).
///
/// The pages drive the same domain services as native auth, with a context that names the
/// browser (``ClientContext/browserCookie``): a sign-in that succeeds signs the browser in
/// instead of issuing tokens, and the authorization endpoint answers with a code. Each page's
/// state travels sealed in its form (``PageStateSealer``), bound to an anti-forgery cookie.
struct HostedPagesAPI: Sendable {
    let services: AuthServices
    let log: ServerLog
    let renderer = HostedPageRenderer()

    /// The paths this family owns.
    static let prefixes = [
        "/{tenant}/oauth2/v2.0/authorize", "/{tenant}/oauth2/v2.0/logout", "/{tenant}/oauth2/v2.0/devicelogin",
        "/{tenant}/login",
    ]
    /// The languages of the pages (discovery's `ui_locales_supported`).
    static let locales = PageText.supported
    /// The form field holding the anti-forgery token.
    static let tokenField = "csrf_token"
    /// The form field holding the sealed interaction.
    static let stateField = "interaction"

    /// Adds the group and the routes to `router`.
    func register(in router: inout Router) {
        router.addGroup("pages", prefixes: Self.prefixes, renderer: renderer)
        let api = self
        for method in ["GET", "POST"] {
            router.add(method, "/{tenant}/oauth2/v2.0/authorize") { request in
                api.run(request) { call in try api.authorize(&call) }
            }
            router.add(method, "/{tenant}/oauth2/v2.0/logout") { request in
                api.run(request) { call in try api.logout(&call) }
            }
        }
        router.add("GET", "/{tenant}/oauth2/v2.0/devicelogin") { request in
            api.run(request) { call in try api.devicePage(&call) }
        }
        router.add("GET", "/{tenant}/login") { request in api.run(request) { call in try api.show(&call) } }
        router.add("POST", "/{tenant}/login", mayBlock: { _ in true }) { request in
            api.run(request) { call in try api.submit(&call) }
        }
        router.add("GET", "/{tenant}/login/assets/style.css") { request in api.styleSheet(request) }
        router.add("GET", "/{tenant}/login/assets/form_post.js") { _ in
            HTTPResponse(
                status: 200,
                headers: HTTPHeaders([
                    ("Content-Type", "text/javascript; charset=utf-8"), ("Cache-Control", "public, max-age=3600"),
                    ("X-Content-Type-Options", "nosniff"),
                ]), body: Array(PageAssets.formPostScript.utf8))
        }
    }

    /// Whether the pages are served over HTTPS.
    var secure: Bool { services.tokens.origin.lowercased().hasPrefix("https://") }

    // MARK: - Authorization endpoint

    /// `GET` or `POST` `oauth2/v2.0/authorize` (RFC 6749 § 3.1: both methods; a POST carries the
    /// parameters as a form).
    private func authorize(_ call: inout PageCall) throws -> HTTPResponse {
        let values = call.request.method == "POST" ? try call.request.formParameters() : call.request.query
        var parameters = AuthorizationParameters()
        parameters.clientID = values["client_id"]
        parameters.redirectURI = values["redirect_uri"]
        parameters.responseType = values["response_type"]
        parameters.responseMode = values["response_mode"]
        parameters.scope = values["scope"]
        parameters.state = values["state"]
        parameters.nonce = values["nonce"]
        parameters.codeChallenge = values["code_challenge"]
        parameters.codeChallengeMethod = values["code_challenge_method"]
        parameters.prompt = values["prompt"]
        parameters.loginHint = values["login_hint"]
        parameters.maxAge = values["max_age"]
        parameters.uiLocales = values["ui_locales"]
        parameters.acrValues = values["acr_values"]
        parameters.claims = values["claims"]
        parameters.request = values["request"]
        parameters.requestURI = values["request_uri"]
        call.text = PageText.choose(
            (parameters.uiLocales ?? "").split(separator: " ").map(String.init)
                + PageText.tags(acceptLanguage: call.request.headers["Accept-Language"]))
        let request: AuthorizationRequest
        do {
            request = try services.authorization.check(parameters, tenant: call.tenant)
        } catch let refusal as AuthorizationRefusal {
            switch refusal {
            case .unredirectable(let reason):
                return errorPage(
                    &call, status: 400,
                    message: reason == .unknownClient || reason == .missingClient
                        ? call.text.badClient : call.text.badRedirect)
            case .redirect(let error, let description, let request):
                return AuthorizationResponse.error(
                    error, description: description, request: request, call: call, issuer: issuer(call))
            }
        }
        let client = try services.directory.client(id: request.clientID, in: call.tenant)
        var interaction = PageInteraction(
            purpose: .authorize, request: request, clientID: client.id, stage: .signIn,
            username: request.loginHint, locales: request.uiLocales, startedAt: now())
        return try continueAuthorization(&call, &interaction, client: client)
    }

    /// The next step of an authorization: a code for the client, or the page the user needs.
    func continueAuthorization(_ call: inout PageCall, _ interaction: inout PageInteraction, client: Client) throws
        -> HTTPResponse
    {
        guard let request = interaction.request else { return errorPage(&call, status: 400, message: call.text.expired) }
        let accounts = try signedInAccounts(call)
        let step = try services.authorization.next(
            for: request, tenant: call.tenant, client: client, accounts: accounts, selected: interaction.selected,
            signedInNow: interaction.signedIn, consented: interaction.consented)
        switch step {
        case .issue(let session):
            let code = try services.authorization.issueCode(for: request, session: session)
            return AuthorizationResponse.success(code: code, request: request, call: call, issuer: issuer(call))
        case .refuse(let error, let description):
            return AuthorizationResponse.error(
                error, description: description, request: request, call: call, issuer: issuer(call))
        case .signIn(let hint):
            interaction.stage = .signIn
            interaction.signedIn = nil
            interaction.selected = nil
            if let hint { interaction.username = hint }
            return try signInPage(&call, interaction, client: client)
        case .chooseAccount(let accounts):
            interaction.stage = .chooser
            return try chooserPage(&call, interaction, client: client, accounts: accounts)
        case .consent(let session, let scopes):
            interaction.stage = .consent
            interaction.selected = session.id
            return try consentPage(&call, interaction, client: client, scopes: scopes)
        }
    }

    /// The browser's live sessions with their accounts, newest first.
    func signedInAccounts(_ call: PageCall) throws -> [SignedInAccount] {
        guard let browser = call.browser else { return [] }
        return try services.browserSessions.accounts(browserCookie: browser, tenant: call.tenant)
    }

    // MARK: - Pages

    /// `GET login?interaction=…&go=signup|reset|signin`: the links between the sign-in, sign-up
    /// and reset pages.
    private func show(_ call: inout PageCall) throws -> HTTPResponse {
        guard var interaction = open(call.request.query[Self.stateField], call: &call) else {
            return errorPage(&call, status: 400, message: call.text.expired)
        }
        let client = try services.directory.client(id: interaction.clientID, in: call.tenant)
        interaction.flow = nil
        switch call.request.query["go"] {
        case "signup":
            interaction.stage = .signUp
            return try signUpPage(&call, interaction, client: client)
        case "reset":
            interaction.stage = .reset
            return try resetPage(&call, interaction, client: client)
        default:
            interaction.stage = .signIn
            return try signInPage(&call, interaction, client: client)
        }
    }

    /// `POST login`: one of the pages' forms.
    private func submit(_ call: inout PageCall) throws -> HTTPResponse {
        let form = try call.request.formParameters()
        guard
            services.actionForms.isValid(
                form[Self.tokenField], binding: call.newBinding ? nil : call.binding, code: Self.formPurpose)
        else { return errorPage(&call, status: 403, message: call.text.forged) }
        guard var interaction = open(form[Self.stateField], call: &call) else {
            return errorPage(&call, status: 400, message: call.text.expired)
        }
        if interaction.stage == .deviceCode { return try deviceCodeEntered(&call, &interaction, form: form) }
        let client = try services.directory.client(id: interaction.clientID, in: call.tenant)
        return try step(&call, &interaction, form: form, client: client)
    }

    /// The purpose the pages' anti-forgery tokens are made for.
    static let formPurpose = "hosted-pages"

    /// The sealed state of `text` for this browser, when it opens and is recent.
    func open(_ text: String?, call: inout PageCall) -> PageInteraction? {
        guard !call.newBinding,
            let interaction = services.pageState.open(text, binding: call.binding, as: PageInteraction.self),
            now() - interaction.startedAt <= PageInteraction.lifetime, interaction.startedAt <= now() + 60
        else { return nil }
        call.text = PageText.choose(
            interaction.locales + PageText.tags(acceptLanguage: call.request.headers["Accept-Language"]))
        return interaction
    }

    /// The hidden fields of a form in `interaction`.
    func hiddenFields(_ call: PageCall, _ interaction: PageInteraction) throws -> [(String, String)] {
        [
            (Self.tokenField, services.actionForms.token(binding: call.binding, code: Self.formPurpose)),
            (Self.stateField, try services.pageState.seal(interaction, binding: call.binding)),
        ]
    }

    /// The chrome of every page of `call`.
    func chrome(_ call: PageCall, formTargets: [String] = []) -> HostedPage.Chrome {
        let branding = call.tenant.settings.branding
        return HostedPage.Chrome(
            text: call.text, tenantPath: call.tenantPath, brandName: branding.displayName ?? call.tenant.name,
            logoURL: branding.validLogoURL, formTargets: formTargets, cookies: call.cookies)
    }

    /// An error page.
    func errorPage(_ call: inout PageCall, status: Int, message: String) -> HTTPResponse {
        HostedPage(status: status, title: call.text.errorTitle, paragraphs: [message]).response(chrome(call))
    }

    /// `GET login/assets/style.css`: the tenant's style sheet.
    private func styleSheet(_ request: HTTPRequest) -> HTTPResponse {
        let branding = (try? services.directory.tenant(named: request.pathParameters["tenant"] ?? ""))?.settings.branding
        return HTTPResponse(
            status: 200,
            headers: HTTPHeaders([
                ("Content-Type", "text/css; charset=utf-8"), ("Cache-Control", "public, max-age=300"),
                ("X-Content-Type-Options", "nosniff"),
            ]), body: Array(PageAssets.styleSheet(branding ?? Branding()).utf8))
    }

    /// The tenant's issuer, for RFC 9207's `iss` response parameter.
    func issuer(_ call: PageCall) -> String { services.tokens.issuer(for: call.tenant) }

    func now() -> Int { Int(services.clock.now().timeIntervalSince1970) }

    /// Runs a page handler: every failure becomes a page, never a stack trace or a JSON body.
    private func run(_ request: HTTPRequest, _ body: (inout PageCall) throws -> HTTPResponse) -> HTTPResponse {
        let tenant: Tenant
        do {
            tenant = try services.directory.tenant(named: request.pathParameters["tenant"] ?? "")
        } catch {
            return renderer.render(HTTPError(status: 404, code: "not_found", message: "The tenant does not exist."), for: request)
        }
        var call = PageCall(request: request, tenant: tenant, secure: secure)
        do {
            return try body(&call)
        } catch let error as HTTPError {
            return renderer.render(error, for: request)
        } catch AuthFailure.tooManyAttempts(let retryAfter) {
            var response = errorPage(
                &call, status: 429, message: call.text.tooMany.replacingOccurrences(of: "{seconds}", with: String(retryAfter)))
            response.headers.add("Retry-After", String(max(1, retryAfter)))
            return response
        } catch AuthFailure.unknownClient {
            return errorPage(&call, status: 400, message: call.text.badClient)
        } catch let failure as AuthFailure {
            log.info("page refused", [("failure", "\(failure)")], request: request)
            return errorPage(&call, status: 400, message: call.text.expired)
        } catch {
            if let outage = StoreOutage.httpError(for: error) {
                StoreOutage.log(error, log, request: request)
                return renderer.render(outage, for: request)
            }
            log.error("page failed", [("error", "\(error)")], request: request)
            return errorPage(&call, status: 500, message: call.text.errorTitle + " (\(request.requestID))")
        }
    }
}
