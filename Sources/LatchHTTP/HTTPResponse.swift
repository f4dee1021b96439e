/// A complete HTTP response: status, header fields and body.
///
/// The server adds `Content-Length` and `Date` itself (RFC 9110 §8.6, §6.6.1) and ignores any
/// `Content-Length` or `Transfer-Encoding` set here; for `HEAD` it sends the headers only
/// (RFC 9110 §9.3.2).
public struct HTTPResponse: Sendable {
    /// The final status code (RFC 9110 §15), 200...599; the server sends anything else as 500.
    public var status: Int
    /// The header fields, in order.
    public var headers: HTTPHeaders
    /// The body bytes.
    public var body: [UInt8]

    /// Creates a response.
    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON response: `Content-Type: application/json; charset=utf-8` and `Cache-Control: no-store`
    /// (RFC 6749 §5.1 requires `no-store` on token responses; Latch uses it on every JSON reply).
    /// Headers passed in are added after those two and may override them with ``HTTPHeaders/set(_:_:)``.
    public static func json(_ status: Int, _ body: [UInt8], headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        var all = HTTPHeaders()
        all.fields.reserveCapacity(2 + headers.count)
        all.add("Content-Type", "application/json; charset=utf-8")
        all.add("Cache-Control", "no-store")
        for field in headers {
            if HTTPHeaders.namesMatch(field.name, "Content-Type") || HTTPHeaders.namesMatch(field.name, "Cache-Control") {
                all.set(field.name, field.value)
            } else {
                all.add(field.name, field.value)
            }
        }
        return HTTPResponse(status: status, headers: all, body: body)
    }

    /// A text response with the given content type (default `text/plain; charset=utf-8`).
    public static func text(_ status: Int, _ body: String, contentType: String = "text/plain; charset=utf-8") -> HTTPResponse {
        HTTPResponse(status: status, headers: HTTPHeaders([("Content-Type", contentType)]), body: Array(body.utf8))
    }

    /// This response with the headers the server adds to every answer it sends for `request`:
    /// `x-request-id` and the `client-request-id` correlation id. The socket path adds the same
    /// headers while queueing; this is for answers produced without a socket.
    public func addingTraceHeaders(for request: HTTPRequest) -> HTTPResponse {
        var response = self
        response.headers.set("x-request-id", request.requestID)
        response.headers.set("client-request-id", request.correlationID)
        return response
    }
}
