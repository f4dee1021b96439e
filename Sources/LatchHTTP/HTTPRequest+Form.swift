extension HTTPRequest {
    /// The body as `application/x-www-form-urlencoded` parameters, parsed as the WHATWG URL Standard
    /// §5.1 describes (`&`-separated, `+` is a space, percent-decoded, UTF-8), but strictly.
    ///
    /// - Throws: ``HTTPError/badRequest(_:)`` (code `invalid_request`) when the `Content-Type` is not
    ///   `application/x-www-form-urlencoded` (or names a charset other than UTF-8), when a name or
    ///   value has malformed percent-encoding or is not valid UTF-8, or when a name repeats
    ///   (RFC 6749 §3.1).
    public func formParameters() throws(HTTPError) -> [String: String] {
        guard let mediaType else {
            throw .badRequest("missing Content-Type; expected application/x-www-form-urlencoded")
        }
        guard mediaType == "application/x-www-form-urlencoded" else {
            throw .badRequest("Content-Type must be application/x-www-form-urlencoded, not \(mediaType.prefix(64))")
        }
        if let charset = mediaTypeCharset, charset != "utf-8", charset != "utf8" {
            throw .badRequest("form body must be UTF-8, not charset \(charset.prefix(32))")
        }
        return try FormURLEncoding.parse(body[...], strict: true, what: "form parameter")
    }
}
