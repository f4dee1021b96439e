import Foundation
import LatchHTTP

/// The hosted action page that out-of-band links open (`reference/firebase-auth-protocol.md` § 7):
/// `GET` and `POST` at `/emulator/action` and `/__/auth/action`, with `mode`, `oobCode`, `apiKey`,
/// `continueUrl` and `lang` in the query. A family of its own, whose failures are HTML pages
/// (``ActionPageRenderer``).
///
/// `GET` never uses a code up (a mail scanner prefetching the link must not consume it): it shows
/// what the code is for and a form; the form's `POST` applies it. Every form carries an
/// anti-forgery token bound to a cookie and to the code (``ActionFormGuard``). A sign-in link
/// (`mode=signIn`) is completed by the app with `signInWithEmailLink`; the page only says so.
struct ActionPageAPI: Sendable {
    let services: AuthServices
    let log: ServerLog

    /// The paths of the page.
    static let paths = [OobLink.path, OobLink.hostedPath]
    /// The form field holding the anti-forgery token.
    static let tokenField = "csrfToken"

    /// Adds the group and the routes to `router`.
    func register(in router: inout Router) {
        router.addGroup("action-page", prefixes: Self.paths, renderer: ActionPageRenderer())
        let api = self
        for path in Self.paths {
            router.add("GET", path) { request in api.run(request) { try api.show(request, path: path) } }
            router.add("POST", path, mayBlock: { _ in true }) { request in
                api.run(request) { try api.submit(request, path: path) }
            }
        }
    }

    /// The cookie holding the browser binding of the anti-forgery tokens: `__Host-` prefixed
    /// (RFC 6265bis § 4.1.3.2) when the page is served over HTTPS.
    var cookieName: String { secure ? "__Host-latch-action" : "latch-action" }

    private var secure: Bool { services.tokens.origin.lowercased().hasPrefix("https://") }

    /// `GET`: what the code is for, and the form that applies it.
    private func show(_ request: HTTPRequest, path: String) throws -> HTTPResponse {
        let query = request.query
        guard let kind = OobLink.kind(mode: query["mode"]), let code = query["oobCode"], !code.isEmpty else {
            return ActionPage.invalidLink()
        }
        let context = try context(apiKey: query["apiKey"], request: request)
        let info = try services.oobCodes.check(context, code: code, kinds: [kind])
        if kind == .emailSignIn {
            return ActionPage.response(
                200, title: "Finish signing in in the app",
                paragraphs: [
                    "Open this link on the device where you asked to sign in, in the app you used: "
                        + "the app completes the sign-in for \(info.email)."
                ])
        }
        let binding = existingBinding(request) ?? services.actionForms.newBinding()
        let form = form(kind: kind, code: code, apiKey: query["apiKey"] ?? "", path: path, binding: binding)
        return ActionPage.response(
            200, title: Self.title(kind), paragraphs: [Self.prompt(kind, info)], form: form, cookie: cookie(binding))
    }

    /// `POST`: checks the anti-forgery token, then applies the code.
    private func submit(_ request: HTTPRequest, path: String) throws -> HTTPResponse {
        let form = try request.formParameters()
        guard let kind = OobLink.kind(mode: form["mode"]), kind != .emailSignIn, let code = form["oobCode"],
            !code.isEmpty
        else { return ActionPage.invalidLink() }
        let binding = existingBinding(request)
        guard services.actionForms.isValid(form[Self.tokenField], binding: binding, code: code) else {
            return ActionPage.response(
                403, title: "This form cannot be used",
                paragraphs: ["The form expired or did not come from this page. Open the link from your e-mail again."])
        }
        let context = try context(apiKey: form["apiKey"], request: request)
        let info = try services.oobCodes.check(context, code: code, kinds: [kind])
        switch kind {
        case .passwordReset:
            do {
                _ = try services.oobCodes.resetPassword(context, code: code, newPassword: form["newPassword"])
            } catch let failure as AuthFailure {
                let message: String
                switch failure {
                case .passwordPolicy(let violation): message = violation.explanation
                case .missingParameter(.newPassword): message = "Enter a new password."
                default: throw failure
                }
                var page = self.form(
                    kind: kind, code: code, apiKey: form["apiKey"] ?? "", path: path, binding: binding ?? "")
                page.fieldError = message
                return ActionPage.response(
                    400, title: Self.title(kind), paragraphs: [Self.prompt(kind, info)], form: page)
            }
            return ActionPage.response(
                200, title: "Your password has been changed",
                paragraphs: ["You can now sign in with your new password."], continueURL: info.continueURL)
        case .verifyEmail:
            _ = try services.oobCodes.apply(context, code: code)
            return ActionPage.response(
                200, title: "Your e-mail address is verified", paragraphs: ["You can now sign in with \(info.email)."],
                continueURL: info.continueURL)
        case .verifyAndChangeEmail:
            _ = try services.oobCodes.apply(context, code: code)
            return ActionPage.response(
                200, title: "Your e-mail address has been changed",
                paragraphs: ["Your account now uses \(info.newEmail ?? info.email)."], continueURL: info.continueURL)
        case .emailSignIn:
            return ActionPage.invalidLink()
        }
    }

    /// The client and tenant of the link's API key.
    private func context(apiKey: String?, request: HTTPRequest) throws -> ClientContext {
        let (tenant, client) = try services.directory.client(apiKey: apiKey)
        return ClientContext(tenant: tenant, client: client, remoteAddress: request.remoteAddress)
    }

    /// The form that applies `code`, with its anti-forgery token.
    private func form(kind: OobCodeKind, code: String, apiKey: String, path: String, binding: String) -> ActionPage.Form {
        ActionPage.Form(
            action: path,
            hidden: [
                ("mode", OobLink.mode(of: kind)), ("oobCode", code), ("apiKey", apiKey),
                (Self.tokenField, services.actionForms.token(binding: binding, code: code)),
            ],
            button: kind == .passwordReset ? "Save password" : "Confirm",
            passwordField: kind == .passwordReset)
    }

    /// The `Set-Cookie` value for `binding`: HTTP-only, same-site strict, for the code's lifetime.
    private func cookie(_ binding: String) -> String {
        var cookie = "\(cookieName)=\(binding); Path=/; Max-Age=\(Int(OobCodeService.lifetime)); HttpOnly; SameSite=Strict"
        if secure { cookie += "; Secure" }
        return cookie
    }

    /// The binding in the request's `Cookie` header (RFC 6265 § 5.4), if it looks like one.
    private func existingBinding(_ request: HTTPRequest) -> String? { PageCall.cookie(cookieName, in: request) }

    /// Runs a page handler: a domain failure becomes a page, never a 500.
    private func run(_ request: HTTPRequest, _ body: () throws -> HTTPResponse) -> HTTPResponse {
        do {
            return try body()
        } catch let error as HTTPError {
            return ActionPageRenderer().render(error, for: request)
        } catch AuthFailure.codeExpired {
            return ActionPage.invalidLink(expired: true)
        } catch AuthFailure.tooManyAttempts(let retryAfter) {
            var page = ActionPage.response(
                429, title: "Too many attempts", paragraphs: ["Wait a little and open the link again."])
            page.headers.add("Retry-After", String(max(1, retryAfter)))
            return page
        } catch AuthFailure.userDisabled {
            return ActionPage.response(
                400, title: "This account is disabled", paragraphs: ["Contact the app's support to enable it again."])
        } catch AuthFailure.userAlreadyExists {
            return ActionPage.response(
                400, title: "This address is taken", paragraphs: ["Another account uses this e-mail address already."])
        } catch is AuthFailure {
            return ActionPage.invalidLink()
        } catch {
            if let outage = StoreOutage.httpError(for: error) {
                StoreOutage.log(error, log, request: request)
                return ActionPageRenderer().render(outage, for: request)
            }
            log.error("action page failed", [("error", "\(error)")], request: request)
            return ActionPage.response(
                500, title: "Something went wrong", paragraphs: ["Try again in a moment."])
        }
    }

    private static func title(_ kind: OobCodeKind) -> String {
        switch kind {
        case .verifyEmail: "Verify your e-mail address"
        case .passwordReset: "Choose a new password"
        case .verifyAndChangeEmail: "Confirm your new e-mail address"
        case .emailSignIn: "Finish signing in in the app"
        }
    }

    private static func prompt(_ kind: OobCodeKind, _ info: OobCodeInfo) -> String {
        switch kind {
        case .verifyEmail: "Confirm that \(info.email) is your e-mail address."
        case .passwordReset: "Choose a new password for \(info.email)."
        case .verifyAndChangeEmail: "Confirm that your account should use \(info.newEmail ?? info.email) from now on."
        case .emailSignIn: "Open this link in the app."
        }
    }
}

/// Renders the failures of the action page's paths (404, 405, 413, a malformed form) as HTML pages.
struct ActionPageRenderer: ErrorRenderer {
    func render(_ error: HTTPError, for request: HTTPRequest) -> HTTPResponse {
        switch error.status {
        case 404: ActionPage.response(404, title: "Page not found", paragraphs: ["There is nothing at this address."])
        case 405:
            ActionPage.response(405, title: "Not allowed", paragraphs: ["This page does not answer that request."])
        case 503:
            error.addingRetryAfter(
                to: ActionPage.response(503, title: "Temporarily unavailable", paragraphs: ["Try again in a moment."]))
        case 500...: ActionPage.response(error.status, title: "Something went wrong", paragraphs: ["Try again later."])
        default: ActionPage.response(error.status, title: "Bad request", paragraphs: ["The request was not understood."])
        }
    }
}
