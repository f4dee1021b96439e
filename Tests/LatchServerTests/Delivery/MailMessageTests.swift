import Foundation
import Testing

@testable import LatchServer

/// The MIME message builder: the header fields, both parts, their encodings, CRLF and line
/// lengths, RFC 2047 for non-ASCII, and no way for a value to add a header line.
@Suite("Mail message")
struct MailMessageTests {
    static let date = Date(timeIntervalSince1970: 1_796_168_240)  // Tue, 01 Dec 2026 23:37:20 +0000

    static func message(subject: String = "Your sign-in code", fromName: String? = "Acme", text: String? = nil)
        -> MailMessage
    {
        MailMessage(
            from: MailAddress(name: fromName, address: "no-reply@acme.example")!,
            to: MailAddress(address: "ada@example.com")!, subject: subject, date: date,
            messageID: "0123456789abcdef0123456789abcdef@acme.example",
            text: text ?? "Acme\n\nYour sign-in code is 12345678", html: "<p>Your code: <b>12345678</b></p>")
    }

    /// The header block of `rendered`, as `name: value` lines (unfolded).
    static func headers(_ rendered: String) -> [String: String] {
        let block = rendered.components(separatedBy: "\r\n\r\n")[0].replacingOccurrences(of: "\r\n ", with: " ")
        var fields: [String: String] = [:]
        for line in block.components(separatedBy: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            fields[String(parts[0])] = parts[1].trimmingCharacters(in: .whitespaces)
        }
        return fields
    }

    @Test("the header names author, recipient, subject, date, id and MIME multipart/alternative")
    func header() throws {
        let rendered = try Self.message().rendered()
        let fields = Self.headers(rendered)
        #expect(fields["From"] == "Acme <no-reply@acme.example>")
        #expect(fields["To"] == "ada@example.com")
        #expect(fields["Subject"] == "Your sign-in code")
        #expect(fields["Date"] == "Tue, 01 Dec 2026 23:37:20 +0000")
        #expect(fields["Message-ID"] == "<0123456789abcdef0123456789abcdef@acme.example>")
        #expect(fields["MIME-Version"] == "1.0")
        #expect(fields["Auto-Submitted"] == "auto-generated")
        #expect(fields["Content-Type"]?.hasPrefix("multipart/alternative; boundary=\"=_latch_") == true)
    }

    @Test("both parts are UTF-8 quoted-printable between the boundaries, and the code is in each")
    func parts() throws {
        let message = Self.message()
        let rendered = try message.rendered()
        let boundary = message.boundary
        let sections = rendered.components(separatedBy: "--\(boundary)")
        #expect(sections.count == 4)  // preamble, text, html, "--" epilogue
        #expect(sections[1].contains("Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable"))
        #expect(sections[2].contains("Content-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable"))
        #expect(sections[1].contains("Your sign-in code is 12345678"))
        #expect(sections[2].contains("<b>12345678</b>"))
        #expect(sections[3] == "--\r\n")
    }

    @Test("every line ends in CRLF, is 7-bit and at most 76 characters in the bodies (998 anywhere)")
    func lines() throws {
        let long = String(repeating: "Grüße aus Köln, wo die Sonne scheint. ", count: 20) + "\nend  "
        let rendered = try Self.message(text: long).rendered()
        #expect(!rendered.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        #expect(!rendered.replacingOccurrences(of: "\r\n", with: "").contains("\r"))
        #expect(rendered.utf8.allSatisfy { $0 < 128 })
        for line in rendered.components(separatedBy: "\r\n") { #expect(line.utf8.count <= 998) }
        let body = rendered.components(separatedBy: "\r\n\r\n").dropFirst().joined(separator: "\r\n\r\n")
        for line in body.components(separatedBy: "\r\n") { #expect(line.utf8.count <= 76, "\(line)") }
        #expect(rendered.contains("Gr=C3=BC=C3=9Fe"))
        #expect(rendered.contains("end =20"))  // trailing whitespace is encoded
    }

    @Test("quoted-printable decodes back to the text")
    func quotedPrintableRoundTrip() {
        let text = "Line one = two\nÜmlaut and a very long line " + String(repeating: "x", count: 200) + " \tend"
        let encoded = QuotedPrintable.encode(text)
        var bytes: [UInt8] = []
        let joined = encoded.replacingOccurrences(of: "=\r\n", with: "")
        let utf8 = Array(joined.utf8)
        var position = 0
        while position < utf8.count {
            if utf8[position] == UInt8(ascii: "="), position + 2 < utf8.count,
                let value = UInt8(String(decoding: utf8[(position + 1)...(position + 2)], as: UTF8.self), radix: 16)
            {
                bytes.append(value)
                position += 3
            } else {
                bytes.append(utf8[position])
                position += 1
            }
        }
        #expect(String(decoding: bytes, as: UTF8.self) == text.replacingOccurrences(of: "\n", with: "\r\n"))
    }

    @Test("a non-ASCII subject and display name are RFC 2047 encoded-words of at most 75 characters")
    func encodedWords() throws {
        let subject = "Ihr Anmeldecode für Bäckerei Müller – gültig zehn Minuten, bitte nicht weitergeben"
        let rendered = try Self.message(subject: subject, fromName: "Bäckerei Müller").rendered()
        let block = rendered.components(separatedBy: "\r\n\r\n")[0]
        #expect(block.contains("From: =?UTF-8?B?QsOkY2tlcmVpIE3DvGxsZXI=?= <no-reply@acme.example>"))
        let words = block.components(separatedBy: CharacterSet(charactersIn: " \r\n")).filter { $0.hasPrefix("=?") }
        #expect(words.count >= 3)
        for word in words { #expect(word.count <= 75, "\(word)") }
        let decoded = Self.headers(rendered)["Subject"]!.components(separatedBy: " ").map { word in
            let base64 = word.dropFirst("=?UTF-8?B?".count).dropLast(2)
            return String(decoding: Data(base64Encoded: String(base64))!, as: UTF8.self)
        }
        #expect(decoded.joined() == subject)
    }

    @Test("an ASCII name with specials is quoted")
    func quotedName() {
        #expect(
            MailAddress(name: "Acme, Inc. \"Auth\"", address: "a@b.example")!.headerValue()
                == "\"Acme, Inc. \\\"Auth\\\"\" <a@b.example>")
    }

    @Test(
        "a line break or control character in a header value is refused",
        arguments: ["Hello\r\nBcc: victim@example.com", "Hello\nX-Injected: 1", "Hello\rX: 1", "Bell\u{07}"])
    func injectionRefused(subject: String) {
        #expect(throws: MailMessage.InvalidHeader(field: "Subject")) { try Self.message(subject: subject).rendered() }
        #expect(MailAddress(name: subject, address: "a@b.example") == nil)
        #expect(MailAddress(parsing: "\(subject) <a@b.example>") == nil)
        #expect(MailAddress(address: "a@b.example\r\nBcc: c@d.example") == nil)
    }

    @Test(
        "sender addresses parse as addr or Name <addr>, and nothing else",
        arguments: [
            ("no-reply@acme.example", "no-reply@acme.example", nil),
            ("Acme <no-reply@acme.example>", "no-reply@acme.example", "Acme"),
            ("\"Acme, Inc.\" <no-reply@acme.example>", "no-reply@acme.example", "Acme, Inc."),
            ("  Bäckerei Müller   <shop@latch.test> ", "shop@latch.test", "Bäckerei Müller"),
        ] as [(String, String, String?)])
    func parsing(text: String, address: String, name: String?) {
        let parsed = MailAddress(parsing: text)
        #expect(parsed?.address == address)
        #expect(parsed?.name == name)
    }

    @Test(
        "malformed sender addresses are refused", arguments: ["", "no-at-sign", "a@", "@b", "a b@c.example", "<>", "A <a@b@c>"])
    func malformed(text: String) {
        #expect(MailAddress(parsing: text) == nil)
    }
}
