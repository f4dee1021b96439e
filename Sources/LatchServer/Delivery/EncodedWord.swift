import Foundation

/// RFC 2047 encoded-words for non-ASCII text in header fields (a subject, a display name):
/// `=?UTF-8?B?<base64>?=`, each word at most 75 characters (§ 2), split between whole
/// characters so that no word cuts a UTF-8 sequence (§ 5), and the words joined by a folding
/// line break (CRLF and a space), which a reader drops between adjacent encoded-words (§ 6.2).
enum EncodedWord {
    /// The longest encoded-word (RFC 2047 § 2).
    static let maximumLength = 75
    /// `=?UTF-8?B?` and `?=`.
    private static let overhead = 12

    /// `text` as one or more encoded-words, folded.
    static func encode(_ text: String) -> String {
        // 4 base64 characters carry 3 bytes.
        let maximumBytes = (maximumLength - overhead) / 4 * 3
        var words: [String] = []
        var chunk: [UInt8] = []
        for character in text {
            let bytes = Array(String(character).utf8)
            if chunk.count + bytes.count > maximumBytes, !chunk.isEmpty {
                words.append(word(chunk))
                chunk = []
            }
            chunk += bytes
        }
        if !chunk.isEmpty || words.isEmpty { words.append(word(chunk)) }
        return words.joined(separator: "\r\n ")
    }

    private static func word(_ bytes: [UInt8]) -> String {
        "=?UTF-8?B?" + Data(bytes).base64EncodedString() + "?="
    }
}
