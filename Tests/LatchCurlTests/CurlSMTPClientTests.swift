import Foundation
import Testing

@testable import LatchCurl

/// The SMTP client's refusals before a connection, its failure classes (permanent only for a `5yz`
/// reply about the message, never for the login), and a real refused connection. The deliveries
/// themselves are checked against a real SMTP server by Tests/Interop/run-smtp-tests.sh.
@Suite("SMTP client")
struct CurlSMTPClientTests {
    @Test(
        "a URL that is not smtp or smtps with a host, or holds credentials, is refused",
        arguments: ["http://mail.example.com", "smtp://", "smtp://user:pw@mail.example.com", "smtp://user@mail.example.com"])
    func refusedURL(text: String) {
        #expect(throws: SMTPFailure.self) { try CurlSMTPClient(url: URL(string: text)!) }
    }

    @Test("smtps is always implicit TLS; smtp keeps the STARTTLS policy asked for")
    func security() throws {
        #expect(try CurlSMTPClient(url: URL(string: "smtps://mail.example.com")!, security: .none).security == .implicitTLS)
        #expect(
            try CurlSMTPClient(url: URL(string: "smtp://mail.example.com")!, security: .startTLSOpportunistic).security
                == .startTLSOpportunistic)
        #expect(
            SMTPTransportSecurity.startTLSRequired.guaranteesTLS && !SMTPTransportSecurity.startTLSOpportunistic.guaranteesTLS)
    }

    @Test("credentials never print their password")
    func credentials() {
        let credentials = SMTPCredentials(username: "latch", password: "hunter2-secret")
        for text in ["\(credentials)", String(reflecting: credentials), "\(Mirror(reflecting: credentials).children.map { $0 })"]
        {
            #expect(!text.contains("hunter2-secret"), "\(text)")
        }
    }

    @Test("an envelope address with a line break or brackets is refused before connecting")
    func envelopeInjection() throws {
        let client = try CurlSMTPClient(url: URL(string: "smtp://127.0.0.1:9")!, security: .none)
        #expect(throws: SMTPFailure.self) {
            try client.send([], from: "a@b.example>\r\nRCPT TO:<c@d.example", to: ["e@f.example"])
        }
        #expect(throws: SMTPFailure.self) { try client.send([], from: "a@b.example", to: []) }
    }

    /// CURLE_SEND_ERROR, what libcurl answers a refused `MAIL`, `RCPT` or `DATA` with.
    let sendError: UInt32 = 55

    @Test("5yz replies about the message are permanent; 4yz, the login and connections are transient")
    func classes() {
        let rcpt550 = SMTPFailure.from(curlResult: sendError, replyCode: 550, detail: "RCPT failed: 550", server: "s")
        #expect(rcpt550.kind == .rejected && rcpt550.isPermanent && rcpt550.replyCode == 550)
        #expect(rcpt550.description.contains("550") && rcpt550.description.contains("RCPT failed"))
        let rcpt451 = SMTPFailure.from(curlResult: sendError, replyCode: 451, detail: "RCPT failed: 451", server: "s")
        #expect(rcpt451.kind == .rejected && !rcpt451.isPermanent)
        for reply in [530, 535] {
            let login = SMTPFailure.from(curlResult: sendError, replyCode: reply, detail: "", server: "s")
            #expect(login.kind == .authentication && !login.isPermanent)
        }
        let lost = SMTPFailure.from(curlResult: sendError, replyCode: 0, detail: "", server: "s")
        #expect(lost.kind == .connection && !lost.isPermanent)
    }

    @Test("a refused connection is a transient connection failure naming the server")
    func refusedConnection() throws {
        let client = try CurlSMTPClient(
            url: URL(string: "smtp://127.0.0.1:9")!, security: .none,
            credentials: SMTPCredentials(username: "u", password: "pw-not-shown"),
            connectTimeout: 2, timeout: 4)
        do {
            try client.send(Array("Subject: x\r\n\r\nbody-not-shown\r\n".utf8), from: "a@b.example", to: ["c@d.example"])
            Issue.record("the send succeeded")
        } catch {
            #expect(error.kind == .connection && !error.isPermanent, "\(error)")
            #expect(error.description.contains("smtp://127.0.0.1:9"))
            #expect(!error.description.contains("pw-not-shown") && !error.description.contains("body-not-shown"))
        }
    }
}
