import Foundation
import LatchHTTP

/// The HTML of the hosted action page (`reference/firebase-auth-protocol.md` § 7, the page an
/// `oobLink` opens): small server-rendered documents without scripts, styles or external
/// resources, every echoed value HTML-escaped, sent with headers that forbid framing, caching,
/// referrers and any active content.
enum ActionPage {
    /// A form on the page: where it posts, its hidden fields, and an optional new-password field.
    struct Form {
        var action: String
        var hidden: [(String, String)]
        var button: String
        var passwordField = false
        /// A message tied to the password field (a policy refusal).
        var fieldError: String?
    }

    /// `Content-Security-Policy` (CSP Level 3): nothing may load, forms post only to this origin,
    /// no framing, no `<base>`.
    static let contentSecurityPolicy = "default-src 'none'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

    /// A page with `title`, `paragraphs`, an optional form and an optional link onwards.
    static func response(
        _ status: Int, title: String, paragraphs: [String], form: Form? = nil, continueURL: String? = nil,
        cookie: String? = nil
    ) -> HTTPResponse {
        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="referrer" content="no-referrer">
            <title>\(escape(title))</title>
            </head>
            <body>
            <main>
            <h1>\(escape(title))</h1>

            """
        for paragraph in paragraphs { html += "<p>\(escape(paragraph))</p>\n" }
        if let form { html += render(form) }
        if let continueURL { html += "<p><a href=\"\(escape(continueURL))\" rel=\"noreferrer\">Continue</a></p>\n" }
        html += "</main>\n</body>\n</html>\n"
        var headers = HTTPHeaders([
            ("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store"),
            ("Content-Security-Policy", contentSecurityPolicy), ("X-Frame-Options", "DENY"),
            ("Referrer-Policy", "no-referrer"), ("X-Content-Type-Options", "nosniff"),
        ])
        if let cookie { headers.add("Set-Cookie", cookie) }
        return HTTPResponse(status: status, headers: headers, body: Array(html.utf8))
    }

    /// The page for a link that cannot be used (unknown, used, expired, malformed).
    static func invalidLink(expired: Bool = false) -> HTTPResponse {
        response(
            400, title: expired ? "This link has expired" : "This link is not valid",
            paragraphs: [
                expired
                    ? "The link is too old to use. Ask for a new one from the app."
                    : "The link is malformed, or it was used already. Ask for a new one from the app."
            ])
    }

    private static func render(_ form: Form) -> String {
        var html = "<form method=\"post\" action=\"\(escape(form.action))\">\n"
        for (name, value) in form.hidden {
            html += "<input type=\"hidden\" name=\"\(escape(name))\" value=\"\(escape(value))\">\n"
        }
        if form.passwordField {
            html += "<p><label for=\"newPassword\">New password</label>\n"
            var attributes = "type=\"password\" id=\"newPassword\" name=\"newPassword\" autocomplete=\"new-password\" required"
            if form.fieldError != nil { attributes += " aria-invalid=\"true\" aria-describedby=\"newPassword-error\"" }
            html += "<input \(attributes)></p>\n"
            if let error = form.fieldError {
                html += "<p id=\"newPassword-error\" role=\"alert\">\(escape(error))</p>\n"
            }
        }
        html += "<p><button type=\"submit\">\(escape(form.button))</button></p>\n</form>\n"
        return html
    }

    /// `text` with the five HTML-significant characters replaced by character references, safe in
    /// element content and in double-quoted attribute values.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }
}
