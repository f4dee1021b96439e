import Foundation
import LatchHTTP

/// One hosted page: server-rendered HTML that works with scripting off, every echoed value
/// escaped, styled by the tenant's style sheet, and sent with headers that forbid inline script,
/// framing, caching and referrers.
struct HostedPage {
    /// A text field of a form, with its label and, after a refusal, its error.
    struct Field {
        var name: String
        var label: String
        var type = "text"
        var autocomplete: String?
        var value: String?
        var error: String?
        var required = true
        var inputMode: String?
    }

    /// A submit button: `name=value` is posted when it is pressed.
    struct Button {
        var name: String
        var value: String
        var label: String
        var secondary = false
    }

    /// A form that posts to the pages' endpoint.
    struct Form {
        var id: String
        var action: String
        var hidden: [(String, String)] = []
        var fields: [Field] = []
        var buttons: [Button] = []
    }

    /// A link below the form.
    struct Link {
        var id: String
        var href: String
        var label: String
    }

    var status = 200
    var title: String
    /// The heading's `id`.
    var headingID = "title"
    var paragraphs: [String] = []
    /// A message for the whole form (not tied to one field), announced to assistive technology.
    var alert: String?
    var list: [String] = []
    var form: Form?
    var links: [Link] = []

    /// The origin the page is served from, for the style sheet's URL.
    struct Chrome {
        var text: PageText
        var tenantPath: String
        var brandName: String
        var logoURL: String?
        /// Where forms may post and redirects after a post may go (CSP `form-action`), besides
        /// the page's own origin: the client's redirect URI after a sign-in form.
        var formTargets: [String] = []
        var cookies: [String] = []
    }

    /// The response for this page.
    func response(_ chrome: Chrome) -> HTTPResponse {
        let text = chrome.text
        var html = """
            <!DOCTYPE html>
            <html lang="\(HTML.escape(text.code))" dir="\(text.rightToLeft ? "rtl" : "ltr")">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="referrer" content="no-referrer">
            <title>\(HTML.escape(title)) – \(HTML.escape(chrome.brandName))</title>
            <link rel="stylesheet" href="\(HTML.escape(chrome.tenantPath))/login/assets/style.css">
            </head>
            <body>
            <a class="skip" href="#main">\(HTML.escape(text.skipToContent))</a>
            <header>
            """
        if let logo = chrome.logoURL { html += "<img class=\"logo\" src=\"\(HTML.escape(logo))\" alt=\"\">" }
        html += "<p class=\"brand\">\(HTML.escape(chrome.brandName))</p>\n</header>\n<main id=\"main\">\n"
        html += "<h1 id=\"\(headingID)\">\(HTML.escape(title))</h1>\n"
        if let alert { html += "<p class=\"alert\" role=\"alert\" id=\"form-error\">\(HTML.escape(alert))</p>\n" }
        for paragraph in paragraphs { html += "<p>\(HTML.escape(paragraph))</p>\n" }
        if !list.isEmpty {
            html += "<ul>\n" + list.map { "<li>\(HTML.escape($0))</li>\n" }.joined() + "</ul>\n"
        }
        if let form { html += render(form, hasAlert: alert != nil) }
        if !links.isEmpty {
            html += "<nav>\n"
            for link in links {
                html +=
                    "<p><a id=\"\(HTML.escape(link.id))\" href=\"\(HTML.escape(link.href))\">\(HTML.escape(link.label))</a></p>\n"
            }
            html += "</nav>\n"
        }
        html += "</main>\n</body>\n</html>\n"
        var headers = Self.securityHeaders(formTargets: chrome.formTargets)
        headers.add("Content-Type", "text/html; charset=utf-8")
        for cookie in chrome.cookies { headers.add("Set-Cookie", cookie) }
        return HTTPResponse(status: status, headers: headers, body: Array(html.utf8))
    }

    /// The headers of every page. `Content-Security-Policy` (CSP Level 3) allows style sheets,
    /// images and scripts from this origin only (no inline script or style), logos over `https`,
    /// no framing and no `<base>`. `form-action` lists this origin and `formTargets`: Chromium
    /// applies it to the redirects that follow a form's POST, so a sign-in form whose answer is a
    /// redirect to the client needs the client's redirect URI there.
    static func securityHeaders(formTargets: [String]) -> HTTPHeaders {
        let targets = (["'self'"] + formTargets).joined(separator: " ")
        let policy =
            "default-src 'none'; style-src 'self'; img-src 'self' https:; script-src 'self'; "
            + "form-action \(targets); frame-ancestors 'none'; base-uri 'none'"
        return HTTPHeaders([
            ("Cache-Control", "no-store"), ("Pragma", "no-cache"), ("Content-Security-Policy", policy),
            ("X-Frame-Options", "DENY"), ("Referrer-Policy", "no-referrer"), ("X-Content-Type-Options", "nosniff"),
        ])
    }

    private func render(_ form: Form, hasAlert: Bool) -> String {
        var html = "<form id=\"\(HTML.escape(form.id))\" method=\"post\" action=\"\(HTML.escape(form.action))\" novalidate"
        if hasAlert { html += " aria-describedby=\"form-error\"" }
        html += ">\n"
        for (name, value) in form.hidden {
            html += "<input type=\"hidden\" name=\"\(HTML.escape(name))\" value=\"\(HTML.escape(value))\">\n"
        }
        for field in form.fields {
            html += "<div class=\"field\">\n<label for=\"\(HTML.escape(field.name))\">\(HTML.escape(field.label))</label>\n"
            var attributes = "type=\"\(field.type)\" id=\"\(HTML.escape(field.name))\" name=\"\(HTML.escape(field.name))\""
            if let value = field.value, field.type != "password" { attributes += " value=\"\(HTML.escape(value))\"" }
            if let autocomplete = field.autocomplete { attributes += " autocomplete=\"\(autocomplete)\"" }
            if let inputMode = field.inputMode { attributes += " inputmode=\"\(inputMode)\"" }
            if field.required { attributes += " required aria-required=\"true\"" }
            if field.error != nil {
                attributes += " aria-invalid=\"true\" aria-describedby=\"\(HTML.escape(field.name))-error\""
            }
            html += "<input \(attributes)>\n"
            if let error = field.error {
                html += "<p class=\"error\" id=\"\(HTML.escape(field.name))-error\" role=\"alert\">\(HTML.escape(error))</p>\n"
            }
            html += "</div>\n"
        }
        html += "<div class=\"buttons\">\n"
        for button in form.buttons {
            html += "<button type=\"submit\" name=\"\(HTML.escape(button.name))\" value=\"\(HTML.escape(button.value))\""
            if button.secondary { html += " class=\"secondary\" formnovalidate" }
            html += ">\(HTML.escape(button.label))</button>\n"
        }
        html += "</div>\n</form>\n"
        return html
    }
}

/// Escaping for text and attribute values in the hosted pages.
enum HTML {
    /// `text` with the five HTML-significant characters replaced by character references (the
    /// hosted action page's escaping, shared).
    static func escape(_ text: String) -> String { ActionPage.escape(text) }
}
