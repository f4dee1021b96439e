import Foundation
import Testing

@testable import LatchServer

/// The e-mail templates: one per message kind, naming the tenant, with the code or the link, and
/// every interpolated value HTML-escaped.
@Suite("Mail templates")
struct MailTemplateTests {
    static func message(kind: MessageKind?, code: String? = "12345678", link: String? = nil) -> OutboxMessage {
        OutboxMessage(
            tenantID: "t1", recipient: "ada@example.com", subject: "Subject", body: "The body \(code ?? "")",
            code: code, createdAt: Date(), kind: kind, link: link, validMinutes: 10)
    }

    @Test("every kind has its own wording naming the tenant", arguments: MessageKind.all)
    func everyKind(kind: MessageKind) throws {
        let wording = try #require(MailTemplate.wording(kind, tenantName: "Acme"))
        #expect(wording.lead.contains("Acme"))
        #expect(kind.carriesLink == !wording.action.isEmpty)
        let link = kind.carriesLink ? "https://auth.example/__/auth/action?mode=x&oobCode=abc" : nil
        let (text, html) = MailTemplate.render(Self.message(kind: kind, code: "abc", link: link), tenantName: "Acme")
        #expect(text.hasPrefix("Acme\n\nThe body abc"))
        #expect(html.contains("<p style=\"font-size:1.2em;font-weight:bold\">Acme</p>"))
        #expect(html.contains(HTML.escape(wording.lead)))
        if let link {
            #expect(html.contains("href=\"\(HTML.escape(link))\""))
            #expect(html.contains("The link works once and expires in 10 minutes."))
        } else {
            #expect(html.contains(">abc</p>"))
            #expect(html.contains("It expires in 10 minutes."))
        }
    }

    @Test("the codes of the flows carry their kind from FlowEngine's purposes")
    func purposes() {
        #expect(CodePurpose.signUp.messageKind == .signUpCode)
        #expect(CodePurpose.signIn.messageKind == .signInCode)
        #expect(CodePurpose.passwordReset.messageKind == .passwordResetCode)
        #expect(CodePurpose.secondFactor.messageKind == .secondFactorCode)
        #expect(CodePurpose.methodRegistration.messageKind == .methodRegistrationCode)
        for kind in OobCodeKind.allCases {
            #expect(MessageKind.all.contains(MessageKind(rawValue: OobCodeService.purpose(kind))))
        }
    }

    @Test("the tenant's name, the code and the link are escaped in HTML")
    func escaping() {
        let hostile = "<script>alert(1)</script> & \"Co\""
        let (_, html) = MailTemplate.render(
            Self.message(kind: .emailSignInLink, code: "c", link: "https://x.example/?a=1&b=\"><img src=x>"),
            tenantName: hostile)
        #expect(!html.contains("<script>"))
        #expect(!html.contains("<img"))
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Co&quot;"))
        let (_, codeHTML) = MailTemplate.render(Self.message(kind: .signInCode, code: "<b>1</b>"), tenantName: "A")
        #expect(codeHTML.contains("&lt;b&gt;1&lt;/b&gt;"))
    }

    @Test("a message without a kind (sealed before kinds) is sent as its body, escaped")
    func withoutKind() {
        let message = OutboxMessage(
            tenantID: "t1", recipient: "ada@example.com", subject: "S", body: "Line <one>\n\nLine two", code: "1",
            createdAt: Date())
        let (text, html) = MailTemplate.render(message, tenantName: "Acme")
        #expect(text == "Acme\n\nLine <one>\n\nLine two\n")
        #expect(html.contains("<p>Line &lt;one&gt;</p>\n<p>Line two</p>"))
    }
}
