import Foundation

/// The plain-text and HTML bodies of the e-mail of each ``MessageKind``, naming the tenant.
///
/// The text part is the message's own body (the wording the flow chose, which the SMS webhook and
/// the development log also carry) under a line naming the tenant. The HTML part is this kind's
/// template: the tenant's name as a heading, a sentence saying what the message is for, the code
/// set large or the link as a button-like anchor (and written out, for clients that hide links),
/// and how long it stays valid. Every interpolated value is HTML-escaped. A message without a
/// kind (sealed before kinds were recorded) gets its body, escaped, paragraph by paragraph.
///
/// ```swift
/// let (text, html) = MailTemplate.render(message, tenantName: "Acme")
/// ```
public enum MailTemplate {
    /// The text and HTML bodies of `message` for the tenant called `tenantName`.
    public static func render(_ message: OutboxMessage, tenantName: String) -> (text: String, html: String) {
        let text = "\(tenantName)\n\n\(message.body)\n"
        guard let kind = message.kind, let wording = wording(kind, tenantName: tenantName) else {
            let paragraphs = message.body.components(separatedBy: "\n\n").map { "<p>\(HTML.escape($0))</p>" }
            return (text, document(subject: message.subject, tenantName: tenantName, content: paragraphs))
        }
        var content = ["<p>\(HTML.escape(wording.lead))</p>"]
        if kind.carriesLink, let link = message.link {
            let href = HTML.escape(link)
            content.append(
                "<p><a href=\"\(href)\" style=\"display:inline-block;padding:10px 18px;background:#1a56db;"
                    + "color:#ffffff;text-decoration:none;border-radius:4px\">\(HTML.escape(wording.action))</a></p>")
            content.append(
                "<p style=\"font-size:0.9em;color:#555555\">Or open this address: <a href=\"\(href)\">\(href)</a></p>")
        } else if let code = message.code {
            content.append(
                "<p style=\"font-size:1.8em;font-weight:bold;letter-spacing:0.15em\">\(HTML.escape(code))</p>")
        }
        var closing = kind.carriesLink ? "The link works once." : ""
        if let minutes = message.validMinutes {
            closing =
                kind.carriesLink ? "The link works once and expires in \(minutes) minutes." : "It expires in \(minutes) minutes."
        }
        closing += (closing.isEmpty ? "" : " ") + "If you did not ask for it, ignore this message."
        content.append("<p style=\"color:#555555\">\(HTML.escape(closing))</p>")
        return (text, document(subject: message.subject, tenantName: tenantName, content: content))
    }

    /// What the HTML part of `kind` says, or `nil` for a kind this server does not know.
    static func wording(_ kind: MessageKind, tenantName name: String) -> (lead: String, action: String)? {
        switch kind {
        case .signUpCode: ("Use this code to verify your e-mail address and finish signing up to \(name):", "")
        case .signInCode: ("Use this code to sign in to \(name):", "")
        case .passwordResetCode: ("Use this code to reset your \(name) password:", "")
        case .secondFactorCode: ("Use this verification code to finish signing in to \(name):", "")
        case .methodRegistrationCode: ("Use this code to confirm the new verification method of your \(name) account:", "")
        case .verifyEmailLink: ("Open this link to verify your e-mail address for \(name):", "Verify e-mail address")
        case .passwordResetLink: ("Open this link to choose a new \(name) password:", "Choose a new password")
        case .verifyAndChangeEmailLink:
            ("Open this link to make this the e-mail address of your \(name) account:", "Confirm this address")
        case .emailSignInLink: ("Open this link on the device where you asked to sign in to \(name):", "Sign in")
        default: nil
        }
    }

    /// A whole HTML document around `content`.
    private static func document(subject: String, tenantName: String, content: [String]) -> String {
        let lines =
            [
                "<!DOCTYPE html>",
                "<html lang=\"en\">",
                "<head><meta charset=\"utf-8\"><title>\(HTML.escape(subject))</title></head>",
                "<body style=\"font-family:Helvetica,Arial,sans-serif;line-height:1.5;color:#222222\">",
                "<p style=\"font-size:1.2em;font-weight:bold\">\(HTML.escape(tenantName))</p>",
            ] + content + ["</body>", "</html>"]
        return lines.joined(separator: "\n") + "\n"
    }
}
