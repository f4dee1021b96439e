import Foundation

/// A mailbox as an e-mail header names it: an optional display name and an address
/// (`name-addr` / `addr-spec`, RFC 5322 § 3.4).
///
/// Parsing accepts `addr@example.com` and `Display Name <addr@example.com>` (the name may be
/// quoted), and refuses anything holding a line break or a control character, so no value read
/// from a command line or a tenant setting can add a header line. A non-ASCII name is written as
/// RFC 2047 encoded-words (§ 5 (3)); the address itself must be ASCII.
///
/// ```swift
/// let from = MailAddress(parsing: "Ünïcode Shop <no-reply@shop.example>")!
/// try from.headerValue()   // "=?UTF-8?B?w5xuw69jb2RlIFNob3A=?= <no-reply@shop.example>"
/// ```
public struct MailAddress: Sendable, Equatable, CustomStringConvertible {
    /// The display name, or `nil`.
    public var name: String?
    /// The address: `local@domain`, ASCII, no spaces.
    public var address: String

    /// A mailbox, or `nil` when `address` is not a plain `local@domain` or `name` holds a control
    /// character.
    public init?(name: String? = nil, address: String) {
        guard Self.isValidAddress(address) else { return nil }
        if let name, name.unicodeScalars.contains(where: Self.isControl) { return nil }
        let trimmed = name?.trimmingCharacters(in: .whitespaces)
        self.name = trimmed?.isEmpty == true ? nil : trimmed
        self.address = address
    }

    /// `text` as `addr@example.com` or `Name <addr@example.com>`, or `nil` when it is neither.
    public init?(parsing text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.unicodeScalars.contains(where: Self.isControl) else { return nil }
        guard trimmed.hasSuffix(">"), let open = trimmed.lastIndex(of: "<") else {
            self.init(address: trimmed)
            return
        }
        var name = trimmed[..<open].trimmingCharacters(in: .whitespaces)
        if name.count >= 2, name.hasPrefix("\""), name.hasSuffix("\"") {
            name = String(name.dropFirst().dropLast()).replacingOccurrences(of: "\\\"", with: "\"")
                .replacingOccurrences(of: "\\\\", with: "\\")
        }
        let address = String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)])
        self.init(name: name, address: address)
    }

    /// The mailbox with `name` as its display name when it has none of its own.
    public func named(_ fallback: String?) -> MailAddress {
        var copy = self
        if copy.name == nil, let fallback, !fallback.unicodeScalars.contains(where: Self.isControl) {
            copy.name = fallback.trimmingCharacters(in: .whitespaces).isEmpty ? nil : fallback
        }
        return copy
    }

    /// The domain of the address (what follows the last `@`).
    public var domain: String { address.split(separator: "@").last.map(String.init) ?? address }

    /// The value for a `From:` or `To:` field: the address alone, or the name (quoted, or encoded
    /// when not ASCII; RFC 5322 § 3.2.4, RFC 2047 § 5) and the address in angle brackets.
    public func headerValue() -> String {
        guard let name else { return address }
        let phrase: String
        if !name.unicodeScalars.allSatisfy({ $0.isASCII }) {
            phrase = EncodedWord.encode(name)
        } else if name.unicodeScalars.allSatisfy({ Self.isAtomText($0) || $0 == " " }) {
            phrase = name
        } else {
            phrase = "\"" + name.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        return "\(phrase) <\(address)>"
    }

    public var description: String { headerValue() }

    /// Whether `text` is a plain `local@domain`: printable ASCII without spaces, brackets, quotes or
    /// commas, one `@` with something on each side, at most 254 characters (RFC 5321 § 4.5.3.1).
    public static func isValidAddress(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, text.utf8.count <= 254 else { return false }
        return text.unicodeScalars.allSatisfy {
            $0.isASCII && $0.value > 32 && $0.value < 127 && !"<>()[]\\,;:\"".unicodeScalars.contains($0)
        }
    }

    /// `atext` of RFC 5322 § 3.2.3.
    static func isAtomText(_ scalar: Unicode.Scalar) -> Bool {
        guard scalar.isASCII, scalar.value > 32, scalar.value < 127 else { return false }
        return !"()<>[]:;@\\,.\"".unicodeScalars.contains(scalar)
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 32 || scalar.value == 127 || scalar == "\u{2028}" || scalar == "\u{2029}"
    }
}
