/// A reader of `WWW-Authenticate` field values (RFC 9110 § 11.6.1): a comma-separated list of
/// challenges, each an auth-scheme followed by a token68 or by auth-params `name = value`, where a
/// value is a token or a quoted string (RFC 9110 § 5.6.4: `\` escapes the next character).
enum AuthenticateHeader {
    /// One challenge: its scheme and its auth-params, in order (a token68 is not kept).
    struct Challenge {
        var scheme: String
        var parameters: [(name: String, value: String)] = []
    }

    /// The challenges of a field value. Lenient: a bare value may hold any character but a comma or
    /// white space (base64 `/`, `+` and `=` included), and malformed parts are skipped.
    static func challenges(_ field: String) -> [Challenge] {
        var reader = Reader(scalars: Array(field.unicodeScalars))
        var challenges: [Challenge] = []
        while true {
            reader.skip { $0 == "," || Reader.isSpace($0) }
            guard let first = reader.peek else { break }
            let word = reader.word()
            guard !word.isEmpty else {
                if first == "\"" { _ = reader.quoted() } else { reader.index += 1 }  // starts nothing: skipped
                continue
            }
            reader.skip(while: Reader.isSpace)
            guard reader.peek == "=" else {
                challenges.append(Challenge(scheme: word))
                continue
            }
            if reader.endsToken68() {
                reader.skip { $0 == "=" }  // the padding of a token68, e.g. `Negotiate a2V5==`
                continue
            }
            reader.index += 1
            reader.skip(while: Reader.isSpace)
            let value = reader.peek == "\"" ? reader.quoted() : reader.bare()
            if !challenges.isEmpty { challenges[challenges.count - 1].parameters.append((word, value)) }
        }
        return challenges
    }

    /// A cursor over the field's characters.
    private struct Reader {
        let scalars: [Unicode.Scalar]
        var index = 0

        var peek: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

        static func isSpace(_ scalar: Unicode.Scalar) -> Bool { scalar == " " || scalar == "\t" }

        mutating func skip(while matches: (Unicode.Scalar) -> Bool) {
            while let next = peek, matches(next) { index += 1 }
        }

        /// A scheme, a parameter name or a token68: up to white space, `,`, `=` or `"`.
        mutating func word() -> String {
            take { !Self.isSpace($0) && $0 != "," && $0 != "=" && $0 != "\"" }
        }

        /// A bare value: up to white space or `,`.
        mutating func bare() -> String {
            take { !Self.isSpace($0) && $0 != "," }
        }

        /// Whether the `=` run at the cursor is followed, after any white space, by the end of the
        /// field or a `,`: the padding of a token68 rather than the `=` of a parameter.
        func endsToken68() -> Bool {
            var after = index
            while after < scalars.count, scalars[after] == "=" { after += 1 }
            while after < scalars.count, Self.isSpace(scalars[after]) { after += 1 }
            return after == scalars.count || scalars[after] == ","
        }

        /// A quoted string at the cursor, without its quotes and with its escapes resolved; an
        /// unterminated one runs to the end.
        mutating func quoted() -> String {
            index += 1
            var text = ""
            while let next = peek {
                index += 1
                if next == "\"" { break }
                if next == "\\", let escaped = peek {
                    index += 1
                    text.unicodeScalars.append(escaped)
                } else {
                    text.unicodeScalars.append(next)
                }
            }
            return text
        }

        private mutating func take(while matches: (Unicode.Scalar) -> Bool) -> String {
            var text = ""
            while let next = peek, matches(next) {
                text.unicodeScalars.append(next)
                index += 1
            }
            return text
        }
    }
}
