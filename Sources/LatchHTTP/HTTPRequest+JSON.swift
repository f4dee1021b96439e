extension HTTPRequest {
    /// The body as a JSON object (RFC 8259), with values of these types: `String`, `Bool`, `Int`
    /// (integers that fit), `Double` (other numbers), ``JSONNull``, `[any Sendable]` (arrays) and
    /// `[String: any Sendable]` (objects).
    ///
    /// - Throws: ``HTTPError/badRequest(_:)`` when `Content-Type` is not `application/json` (or a
    ///   `+json` type), or the body is not one valid JSON object: bad syntax, invalid UTF-8, a
    ///   repeated member name (RFC 8259 §4 leaves it undefined; Latch rejects it), or nesting
    ///   deeper than 64 levels.
    public func jsonObject() throws(HTTPError) -> [String: any Sendable] {
        try requireJSONContentType()
        return try JSONParser.parseObject(body)
    }

    func requireJSONContentType() throws(HTTPError) {
        guard let mediaType else {
            throw .badRequest("missing Content-Type; expected application/json")
        }
        guard mediaType == "application/json" || (mediaType.hasPrefix("application/") && mediaType.hasSuffix("+json")) else {
            throw .badRequest("Content-Type must be application/json, not \(mediaType.prefix(64))")
        }
        if let charset = mediaTypeCharset, charset != "utf-8", charset != "utf8" {
            throw .badRequest("JSON body must be UTF-8 (RFC 8259 §8.1), not charset \(charset.prefix(32))")
        }
    }
}
