/// An error a handler throws to end a request with a specific status and an OAuth-style error body.
///
/// ``Router`` renders it as `{"error": code, "error_description": message}` with `status`
/// (the shape of RFC 6749 §5.2, used by every Latch wire family for transport-level failures).
/// Equality compares all three fields, so tests can build the expected value.
public struct HTTPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The HTTP status code (RFC 9110 §15).
    public var status: Int
    /// A stable machine-readable code, rendered as `error`.
    public var code: String
    /// A human-readable explanation, rendered as `error_description`. Never put secrets here.
    public var message: String
    /// Seconds after which a retry may succeed, sent as `Retry-After` (RFC 9110 §10.2.3); `nil` sends none.
    public var retryAfter: Int?

    /// Creates an error with an explicit status, code and message.
    public init(status: Int, code: String, message: String, retryAfter: Int? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
    }

    /// A description for logs: status, code and message.
    public var description: String { "HTTP \(status) \(code): \(message)" }

    /// 400 Bad Request (RFC 9110 §15.5.1) with code `invalid_request`.
    public static func badRequest(_ message: String) -> HTTPError {
        HTTPError(status: 400, code: "invalid_request", message: message)
    }

    /// 401 Unauthorized (RFC 9110 §15.5.2) with code `unauthorized`.
    public static func unauthorized(_ message: String) -> HTTPError {
        HTTPError(status: 401, code: "unauthorized", message: message)
    }

    /// 403 Forbidden (RFC 9110 §15.5.4) with code `forbidden`.
    public static func forbidden(_ message: String) -> HTTPError {
        HTTPError(status: 403, code: "forbidden", message: message)
    }

    /// 404 Not Found (RFC 9110 §15.5.5) with code `not_found`.
    public static func notFound(_ message: String = "no resource at this path") -> HTTPError {
        HTTPError(status: 404, code: "not_found", message: message)
    }

    /// 405 Method Not Allowed (RFC 9110 §15.5.6) with code `method_not_allowed`.
    /// ``Router`` adds the required `Allow` header itself.
    public static func methodNotAllowed(_ message: String = "method not allowed for this path") -> HTTPError {
        HTTPError(status: 405, code: "method_not_allowed", message: message)
    }

    /// 413 Content Too Large (RFC 9110 §15.5.14) with code `invalid_request`.
    public static func payloadTooLarge(limit: Int) -> HTTPError {
        HTTPError(status: 413, code: "invalid_request", message: "request body exceeds \(limit) bytes")
    }

    /// 415 Unsupported Media Type (RFC 9110 §15.5.16) with code `invalid_request`.
    public static func unsupportedMediaType(_ message: String) -> HTTPError {
        HTTPError(status: 415, code: "invalid_request", message: message)
    }

    /// 429 Too Many Requests (RFC 6585 §4) with code `too_many_requests`.
    public static func tooManyRequests(_ message: String = "too many requests") -> HTTPError {
        HTTPError(status: 429, code: "too_many_requests", message: message)
    }

    /// 431 Request Header Fields Too Large (RFC 6585 §5) with code `invalid_request`.
    public static func headerFieldsTooLarge(limit: Int) -> HTTPError {
        HTTPError(status: 431, code: "invalid_request", message: "request header exceeds \(limit) bytes")
    }

    /// 500 Internal Server Error (RFC 9110 §15.6.1) with code `server_error`.
    public static func internalServerError(_ message: String) -> HTTPError {
        HTTPError(status: 500, code: "server_error", message: message)
    }

    /// 503 Service Unavailable (RFC 9110 §15.6.4) with code `temporarily_unavailable` (the name
    /// RFC 6749 §4.1.2.1 gives the condition) and `Retry-After`: a dependency such as the database
    /// is out of reach for now.
    public static func serviceUnavailable(_ message: String, retryAfter: Int) -> HTTPError {
        HTTPError(status: 503, code: "temporarily_unavailable", message: message, retryAfter: retryAfter)
    }

    /// `response` with this error's `Retry-After`, when it has one: for renderers that build the
    /// body in their own wire family's shape.
    public func addingRetryAfter(to response: HTTPResponse) -> HTTPResponse {
        guard let retryAfter else { return response }
        var response = response
        response.headers.add("Retry-After", String(retryAfter))
        return response
    }

    /// 501 Not Implemented (RFC 9110 §15.6.2) with code `not_implemented`: for example a request
    /// framed with a transfer coding the server does not understand (RFC 9112 §6.1).
    public static func notImplemented(_ message: String) -> HTTPError {
        HTTPError(status: 501, code: "not_implemented", message: message)
    }

    /// The JSON response that renders this error: `{"error": code, "error_description": message}`.
    public var response: HTTPResponse {
        var writer = JSONText()
        writer.beginObject()
        writer.member("error", code)
        writer.member("error_description", message)
        writer.endObject()
        return addingRetryAfter(to: .json(status, writer.bytes))
    }
}
