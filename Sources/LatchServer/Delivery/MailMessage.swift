import Foundation

/// An e-mail message in Internet Message Format (RFC 5322) with MIME bodies (RFC 2045, 2046):
/// a `multipart/alternative` of a `text/plain` and a `text/html` part, both UTF-8 and
/// quoted-printable, so every line is 7-bit and at most 76 characters (well under RFC 5322
/// § 2.1.1's 998).
///
/// The header holds `From`, `To`, `Subject` (RFC 2047 encoded-words when not ASCII), `Date`
/// (RFC 5322 § 3.3), `Message-ID` (§ 3.6.4), `MIME-Version` and `Content-Type`, and
/// `Auto-Submitted: auto-generated` (RFC 3834 § 5), so auto-responders stay quiet. Every line
/// ends in CRLF. A subject holding a line break or another control character is refused
/// (``InvalidHeader``): no value can add a header line.
///
/// ```swift
/// let message = MailMessage(
///     from: MailAddress(name: "Acme", address: "no-reply@acme.example")!,
///     to: MailAddress(address: "ada@example.com")!, subject: "Your sign-in code",
///     date: Date(), messageID: "5f0c…@acme.example", text: "Your code is 123456", html: "<p>…</p>")
/// let bytes = try message.rendered()
/// ```
public struct MailMessage: Sendable, Equatable {
    /// A header value that would break the header block: it holds a line break or a control
    /// character. Names the field, never the value.
    public struct InvalidHeader: Error, Sendable, Equatable, CustomStringConvertible {
        /// The field's name.
        public let field: String

        public var description: String { "the \(field) header holds a line break or a control character" }
    }

    /// The author (`From`).
    public var from: MailAddress
    /// The recipient (`To`).
    public var to: MailAddress
    /// The subject, as Unicode text.
    public var subject: String
    /// The origination date (`Date`).
    public var date: Date
    /// The unique id, `left@right` without angle brackets (`Message-ID`).
    public var messageID: String
    /// The plain-text body.
    public var text: String
    /// The HTML body, a whole document.
    public var html: String

    /// Creates a message.
    public init(
        from: MailAddress, to: MailAddress, subject: String, date: Date, messageID: String, text: String, html: String
    ) {
        self.from = from
        self.to = to
        self.subject = subject
        self.date = date
        self.messageID = messageID
        self.text = text
        self.html = html
    }

    /// The boundary of the two parts: `=_` cannot occur in quoted-printable text (an `=` there is
    /// always followed by two hexadecimal digits or a line break), so the boundary is never part of
    /// a body (RFC 2046 § 5.1.1).
    var boundary: String {
        let safe = messageID.unicodeScalars.filter { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }
        return "=_latch_" + String(String.UnicodeScalarView(safe.prefix(40)))
    }

    /// The message as sent: header, blank line, body, CRLF line endings.
    /// - Throws: ``InvalidHeader`` when the subject or the message id holds a control character.
    public func rendered() throws(InvalidHeader) -> String {
        guard !subject.unicodeScalars.contains(where: MailAddress.isControl) else { throw InvalidHeader(field: "Subject") }
        guard !messageID.isEmpty, messageID.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 32 && $0.value < 127 }),
            !messageID.contains("<"), !messageID.contains(">")
        else { throw InvalidHeader(field: "Message-ID") }
        let boundary = self.boundary
        let lines = [
            "From: \(from.headerValue())",
            "To: \(to.headerValue())",
            "Subject: \(Self.subjectValue(subject))",
            "Date: \(Self.dateValue(date))",
            "Message-ID: <\(messageID)>",
            "MIME-Version: 1.0",
            "Auto-Submitted: auto-generated",
            "Content-Type: multipart/alternative; boundary=\"\(boundary)\"",
            "",
            "This is a message in MIME format (RFC 2045).",
            "",
            "--\(boundary)",
            "Content-Type: text/plain; charset=utf-8",
            "Content-Transfer-Encoding: quoted-printable",
            "",
            QuotedPrintable.encode(text),
            "--\(boundary)",
            "Content-Type: text/html; charset=utf-8",
            "Content-Transfer-Encoding: quoted-printable",
            "",
            QuotedPrintable.encode(html),
            "--\(boundary)--",
            "",
        ]
        return lines.joined(separator: "\r\n")
    }

    /// The subject as a field value: as it is when ASCII and short, else encoded-words (folded).
    static func subjectValue(_ subject: String) -> String {
        if subject.unicodeScalars.allSatisfy({ $0.isASCII }), subject.utf8.count <= 900, !subject.contains("=?") {
            return subject
        }
        return EncodedWord.encode(subject)
    }

    /// `date-time` of RFC 5322 § 3.3 in UTC: `Tue, 01 Dec 2026 23:37:20 +0000`.
    static func dateValue(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int?) -> String {
            let number = value ?? 0
            return number < 10 ? "0\(number)" : "\(number)"
        }
        return "\(days[((parts.weekday ?? 1) - 1) % 7]), \(two(parts.day)) \(months[((parts.month ?? 1) - 1) % 12]) "
            + "\(parts.year ?? 1970) \(two(parts.hour)):\(two(parts.minute)):\(two(parts.second)) +0000"
    }
}
