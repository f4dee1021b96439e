/// Sees every matched request before its handler does and may answer it instead: the hook behind
/// fault injection in tests (`LatchTesting.FaultInjector`). Production servers never set one.
///
/// `intercept(method:path:headers:)` runs synchronously on an HTTP worker thread, possibly on several
/// threads at once. It may block (for example to simulate latency), but every moment it blocks holds
/// a worker that other connections share.
///
/// Requests the HTTP layer refuses before routing (a body or head over the limit), and paths no
/// route matches, never reach it.
public protocol RequestInterceptor: Sendable {
    /// Returns a response to send instead of routing the request, or `nil` to let the server answer.
    ///
    /// - Parameters:
    ///   - method: The method token, uppercase, e.g. `"POST"`.
    ///   - path: The percent-decoded path without the query, e.g. `"/default/oauth2/v2.0/token"`.
    ///   - headers: The request header fields by lowercased name; repeated fields are joined with
    ///     `", "` (RFC 9110 §5.3). `x-request-id` holds the server's id for this request (the value
    ///     echoed in the response's `x-request-id` and used as `trace_id`), replacing any field of
    ///     that name the client sent.
    func intercept(method: String, path: String, headers: [String: String]) -> InterceptedResponse?
}
