/// The `application/x-www-form-urlencoded` parser of the WHATWG URL Standard §5.1, made strict
/// for OAuth (RFC 6749 §3.1: "Request and response parameters MUST NOT be included more than once").
enum FormURLEncoding {
    /// Parses `bytes` into a dictionary.
    ///
    /// - Parameter strict: when `true`, malformed percent-encoding, invalid UTF-8 and repeated names
    ///   throw ``HTTPError/badRequest(_:)``; when `false` they are repaired (kept literally, replaced
    ///   by U+FFFD, first occurrence wins) and nothing throws.
    /// - Parameter what: how messages name the source, e.g. "form parameter" or "query parameter".
    static func parse(_ bytes: ArraySlice<UInt8>, strict: Bool, what: String) throws(HTTPError) -> [String: String] {
        var result: [String: String] = [:]
        for sequence in bytes.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let nameBytes: ArraySlice<UInt8>
            let valueBytes: ArraySlice<UInt8>
            if let equals = sequence.firstIndex(of: UInt8(ascii: "=")) {
                nameBytes = sequence[sequence.startIndex..<equals]
                valueBytes = sequence[sequence.index(after: equals)...]
            } else {
                nameBytes = sequence[...]
                valueBytes = sequence[sequence.endIndex...]
            }
            let name = try decode(nameBytes, strict: strict, what: what, nameForMessage: nil)
            let value = try decode(valueBytes, strict: strict, what: what, nameForMessage: name)
            if result[name] != nil {
                if strict { throw .badRequest("\(what) '\(quoted(name))' is repeated") }
                continue
            }
            result[name] = value
        }
        return result
    }

    private static func decode(
        _ bytes: ArraySlice<UInt8>, strict: Bool, what: String, nameForMessage: String?
    ) throws(HTTPError) -> String {
        let subject = nameForMessage.map { "\(what) '\(quoted($0))'" } ?? "\(what) name"
        guard let decoded = PercentEncoding.decode(bytes, plusAsSpace: true, strict: strict) else {
            throw .badRequest("\(subject) has malformed percent-encoding")
        }
        if strict {
            guard let string = UTF8Validation.string(from: decoded) else {
                throw .badRequest("\(subject) is not valid UTF-8")
            }
            return string
        }
        return String(decoding: decoded, as: UTF8.self)
    }

    /// A parameter name shortened for messages.
    private static func quoted(_ name: String) -> String {
        name.count > 64 ? String(name.prefix(64)) + "…" : name
    }
}
