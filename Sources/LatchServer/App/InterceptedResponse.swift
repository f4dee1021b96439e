/// The answer a ``RequestInterceptor`` sends instead of the server's own.
///
/// The server adds `Content-Length`, `Date` and `x-request-id` itself (and echoes `client-request-id`),
/// as for every response.
public struct InterceptedResponse: Sendable {
    /// The status code, 200...599.
    public var status: Int
    /// The header fields, in order, e.g. `[("Content-Type", "application/json"), ("Retry-After", "5")]`.
    public var headers: [(String, String)]
    /// The body bytes.
    public var body: [UInt8]

    /// Creates a response.
    public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
