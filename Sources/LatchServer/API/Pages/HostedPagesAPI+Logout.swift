import Foundation
import LatchHTTP

extension HostedPagesAPI {
    /// RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0 § 2, § 3): `GET` or `POST`
    /// `oauth2/v2.0/logout` with `id_token_hint`, `client_id`, `post_logout_redirect_uri`,
    /// `state` and `ui_locales`.
    ///
    /// The browser's sessions end at once when the request names its client (by a valid
    /// `id_token_hint` of this tenant, even expired, or by `client_id`), so a client can sign its
    /// user out without a page; without either the user confirms on a page first (§ 2: protects
    /// against a third party signing the user out). `post_logout_redirect_uri` must be one the
    /// client registered (compared like redirect URIs); the browser is then sent there with
    /// `state`, else shown a "signed out" page.
    func logout(_ call: inout PageCall) throws -> HTTPResponse {
        let values = call.request.method == "POST" ? try call.request.formParameters() : call.request.query
        call.text = PageText.choose(
            (values["ui_locales"] ?? "").split(separator: " ").map(String.init)
                + PageText.tags(acceptLanguage: call.request.headers["Accept-Language"]))
        var clientID = values["client_id"].flatMap { $0.isEmpty ? nil : $0 }
        if let hint = values["id_token_hint"], !hint.isEmpty {
            guard let audience = services.tokens.idTokenAudience(hint, tenant: call.tenant) else {
                return errorPage(&call, status: 400, message: call.text.badClient)
            }
            // § 2: a client_id that disagrees with the hint's audience is an error.
            if let clientID, clientID != audience { return errorPage(&call, status: 400, message: call.text.badClient) }
            clientID = audience
        }
        var client: Client?
        if let clientID { client = try services.directory.client(id: clientID, in: call.tenant) }
        var redirect: String?
        if let uri = values["post_logout_redirect_uri"], !uri.isEmpty {
            guard let client,
                RedirectURIRule.matches(
                    uri, registered: client.postLogoutRedirectURIs, anyLoopback: client.acceptsAnyLoopbackRedirect)
            else { return errorPage(&call, status: 400, message: call.text.badRedirect) }
            redirect = uri
        }
        let confirmed =
            values["confirm"] == "yes" && call.request.method == "POST"
            && services.actionForms.isValid(
                values[Self.tokenField], binding: call.newBinding ? nil : call.binding, code: Self.formPurpose)
        if client == nil, !confirmed {
            return logoutConfirmation(&call, values: values)
        }
        if let browser = call.browser {
            try services.browserSessions.signOut(
                browserCookie: browser, tenant: call.tenant, remoteAddress: call.request.remoteAddress)
        }
        call.clearBrowserCookie()
        if let redirect {
            var parameters: [(String, String)] = []
            if let state = values["state"], !state.isEmpty { parameters.append(("state", state)) }
            var headers = HostedPage.securityHeaders(formTargets: [])
            for cookie in call.cookies { headers.add("Set-Cookie", cookie) }
            headers.add("Location", parameters.isEmpty ? redirect : AuthorizationResponse.location(redirect, parameters))
            return HTTPResponse(status: 303, headers: headers, body: [])
        }
        return HostedPage(title: call.text.signedOutTitle, paragraphs: [call.text.signedOut]).response(chrome(call))
    }

    /// The page asking the user to confirm a logout no client asked for.
    private func logoutConfirmation(_ call: inout PageCall, values: [String: String]) -> HTTPResponse {
        var page = HostedPage(
            title: call.text.logoutTitle,
            paragraphs: [call.text.logoutLead.replacingOccurrences(of: "{app}", with: chrome(call).brandName)])
        var hidden = [
            (Self.tokenField, services.actionForms.token(binding: call.binding, code: Self.formPurpose)), ("confirm", "yes"),
        ]
        if let locales = values["ui_locales"] { hidden.append(("ui_locales", locales)) }
        page.form = HostedPage.Form(
            id: "logout", action: "\(call.tenantPath)/oauth2/v2.0/logout", hidden: hidden,
            buttons: [HostedPage.Button(name: "action", value: "logout", label: call.text.signOut)])
        return page.response(chrome(call))
    }
}
