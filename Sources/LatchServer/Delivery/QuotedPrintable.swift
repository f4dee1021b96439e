import Foundation

/// The quoted-printable content transfer encoding (RFC 2045 § 6.7) of UTF-8 text: printable ASCII
/// stays as it is, every other byte (and `=`) becomes `=XY`, a space or tab before a line break is
/// encoded, line breaks become CRLF, and lines longer than 76 characters are cut with a soft line
/// break (`=` at the end of a line). The output is 7-bit and holds no line over 76 characters.
enum QuotedPrintable {
    /// The longest encoded line, soft break included (RFC 2045 § 6.7 (5)).
    static let maximumLineLength = 76

    /// `text` encoded; `\n`, `\r\n` and `\r` all end a line.
    static func encode(_ text: String) -> String {
        let normalized = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        return normalized.split(separator: "\n", omittingEmptySubsequences: false).map { encodeLine(Array($0.utf8)) }
            .joined(separator: "\r\n")
    }

    private static func encodeLine(_ bytes: [UInt8]) -> String {
        var lines: [String] = []
        var current = ""
        for (index, byte) in bytes.enumerated() {
            let isLast = index == bytes.count - 1
            let token: String
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") {
                token = isLast ? escape(byte) : String(UnicodeScalar(byte))
            } else if byte >= 33, byte <= 126, byte != UInt8(ascii: "=") {
                token = String(UnicodeScalar(byte))
            } else {
                token = escape(byte)
            }
            // Room for the token and, unless this is the line's end, a soft break after it.
            let limit = isLast ? maximumLineLength : maximumLineLength - 1
            if current.utf8.count + token.utf8.count > limit {
                lines.append(current + "=")
                current = ""
            }
            current += token
        }
        lines.append(current)
        return lines.joined(separator: "\r\n")
    }

    private static func escape(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        return "=" + String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]], as: UTF8.self)
    }
}
