/// Checks how a request says its body is delimited (RFC 9112 §6), before libmicrohttpd reads it.
///
/// libmicrohttpd 0.9.75 decodes a body as chunked only when the first `Transfer-Encoding` field
/// is exactly `chunked` (any case, nothing around it); any other value makes it read a body of
/// unknown length that never ends, so the request would hang until the idle timeout. And it lets
/// `Transfer-Encoding` override a `Content-Length` silently, which is how requests are smuggled
/// past a proxy that trusts the other one. Such requests are refused here, answered at once, and
/// their connections closed, since the body after them cannot be delimited:
/// - `Transfer-Encoding` together with `Content-Length`: 400 (RFC 9112 §6.3: "ought to be handled
///   as an error"), as is `Transfer-Encoding` in an HTTP/1.0 request (RFC 9112 §6.1: faulty framing);
/// - a transfer coding other than `chunked` (`gzip`, `identity`, `gzip, chunked`): 501, as
///   RFC 9112 §6.1 advises for codings the server does not understand;
/// - `chunked` but not as libmicrohttpd reads it (`chunked, chunked`, two fields, parameters,
///   spaces after it, an empty value): 400.
enum RequestFraming {
    /// The refusal for the framing of a request with `headers` in protocol `version`
    /// (`"HTTP/1.1"`), or `nil` when libmicrohttpd reads its body correctly.
    static func refusal(headers: HTTPHeaders, version: String) -> HTTPError? {
        let fields = headers.values(for: "Transfer-Encoding")
        guard !fields.isEmpty else { return nil }
        if headers.contains("Content-Length") {
            return .badRequest("a request must not carry both Transfer-Encoding and Content-Length")
        }
        if version == "HTTP/1.0" {
            return .badRequest("Transfer-Encoding is not allowed in an HTTP/1.0 request")
        }
        if fields.count == 1 && HTTPHeaders.namesMatch(fields[0], "chunked") { return nil }
        let codings = fields.flatMap { $0.split(separator: ",") }.map { $0.trimmingASCIISpaces() }.filter { !$0.isEmpty }
        if let unknown = codings.first(where: { coding in
            let name = coding.prefix { $0 != ";" }.trimmingASCIISpaces()
            return !HTTPHeaders.namesMatch(String(name), "chunked")
        }) {
            return .notImplemented(
                "transfer coding '\(unknown.prefix(32))' is not supported; send the body with Content-Length or chunked")
        }
        return .badRequest("Transfer-Encoding must be exactly 'chunked'")
    }
}
