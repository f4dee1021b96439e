// Small string helpers for HTTP text: optional whitespace and one-line log output.

extension StringProtocol {
    /// The string without leading and trailing spaces and tabs (HTTP OWS, RFC 9110 §5.6.3).
    func trimmingASCIISpaces() -> SubSequence {
        var slice = self[...]
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return slice
    }
}

extension String {
    /// The string with CR and LF replaced by spaces, for one-line logs.
    func replacingNewlines() -> String {
        String(decoding: utf8.map { $0 == 0x0A || $0 == 0x0D ? 0x20 : $0 }, as: UTF8.self)
    }
}

extension Substring {
    /// The substring with CR and LF replaced by spaces, for one-line logs.
    func replacingNewlines() -> String { String(self).replacingNewlines() }
}
