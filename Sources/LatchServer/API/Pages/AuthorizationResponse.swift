import Foundation
import LatchHTTP

/// The authorization response (RFC 6749 § 4.1.2, § 4.1.2.1) sent to the client's redirect URI:
/// in the query of a `303 See Other` (RFC 9700 § 4.11: after a form's POST, 303 makes the browser
/// drop the body), or in an HTML form the browser posts (OAuth 2.0 Form Post Response Mode).
/// Every answer carries `iss` (RFC 9207) and `state` when the request had one.
enum AuthorizationResponse {
    /// A code.
    static func success(code: String, request: AuthorizationRequest, call: PageCall, issuer: String) -> HTTPResponse {
        respond([("code", code)], request: request, call: call, issuer: issuer)
    }

    /// An error.
    static func error(
        _ error: AuthorizationError, description: String, request: AuthorizationRequest, call: PageCall, issuer: String
    ) -> HTTPResponse {
        respond([("error", wireCode(error)), ("error_description", description)], request: request, call: call, issuer: issuer)
    }

    /// The wire code of `error` (RFC 6749 § 4.1.2.1, OpenID Connect Core § 3.1.2.6).
    static func wireCode(_ error: AuthorizationError) -> String {
        switch error {
        case .invalidRequest: "invalid_request"
        case .unauthorizedClient: "unauthorized_client"
        case .accessDenied: "access_denied"
        case .unsupportedResponseType: "unsupported_response_type"
        case .invalidScope: "invalid_scope"
        case .loginRequired: "login_required"
        case .consentRequired: "consent_required"
        case .interactionRequired: "interaction_required"
        case .accountSelectionRequired: "account_selection_required"
        case .requestNotSupported: "request_not_supported"
        case .requestURINotSupported: "request_uri_not_supported"
        }
    }

    /// The `form-action` source a page needs so that the redirect to `redirectURI` after its
    /// form's POST is allowed: the URI's origin, or its scheme for a private-use scheme.
    static func formTarget(_ redirectURI: String) -> String? {
        guard let components = URLComponents(string: redirectURI), let scheme = components.scheme?.lowercased() else {
            return nil
        }
        guard scheme == "http" || scheme == "https" else { return "\(scheme):" }
        guard let host = components.percentEncodedHost, !host.isEmpty else { return nil }
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return "\(scheme)://\(bracketed)" + (components.port.map { ":\($0)" } ?? "")
    }

    private static func respond(
        _ values: [(String, String)], request: AuthorizationRequest, call: PageCall, issuer: String
    ) -> HTTPResponse {
        var parameters = values
        if let state = request.state { parameters.append(("state", state)) }
        parameters.append(("iss", issuer))
        var headers = HostedPage.securityHeaders(formTargets: formTarget(request.redirectURI).map { [$0] } ?? [])
        for cookie in call.cookies { headers.add("Set-Cookie", cookie) }
        switch request.responseMode {
        case .query:
            headers.add("Location", location(request.redirectURI, parameters))
            return HTTPResponse(status: 303, headers: headers, body: [])
        case .formPost:
            headers.add("Content-Type", "text/html; charset=utf-8")
            var html = """
                <!DOCTYPE html>
                <html lang="\(call.text.code)" dir="\(call.text.rightToLeft ? "rtl" : "ltr")">
                <head><meta charset="utf-8"><title>\(HTML.escape(call.text.redirecting))</title>
                <script src="\(HTML.escape(call.tenantPath))/login/assets/form_post.js"></script></head>
                <body>
                <form method="post" action="\(HTML.escape(request.redirectURI))">

                """
            for (name, value) in parameters {
                html += "<input type=\"hidden\" name=\"\(HTML.escape(name))\" value=\"\(HTML.escape(value))\">\n"
            }
            html += "<p>\(HTML.escape(call.text.redirecting))</p>\n"
            html += "<button type=\"submit\">\(HTML.escape(call.text.continueToApp))</button>\n</form>\n</body>\n</html>\n"
            return HTTPResponse(status: 200, headers: headers, body: Array(html.utf8))
        }
    }

    /// `redirectURI` with `parameters` added to its query (RFC 6749 § 4.1.2: keep its own query).
    static func location(_ redirectURI: String, _ parameters: [(String, String)]) -> String {
        let encoded = parameters.map { "\(formEncode($0.0))=\(formEncode($0.1))" }.joined(separator: "&")
        guard var components = URLComponents(string: redirectURI) else { return redirectURI }
        let existing = components.percentEncodedQuery.map { $0.isEmpty ? "" : $0 + "&" } ?? ""
        components.percentEncodedQuery = existing + encoded
        return components.string ?? redirectURI
    }

    /// `application/x-www-form-urlencoded` escaping of one name or value.
    static func formEncode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}
