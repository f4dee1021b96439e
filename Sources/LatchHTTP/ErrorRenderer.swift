/// Renders the failures the HTTP layer and the ``Router`` produce themselves (404, 405, 413, 431,
/// 400 or 501 for a request's framing, an ``HTTPError`` a handler throws, an unexpected error as
/// 500) in one wire family's envelope.
///
/// Each family registers one with ``Router/addGroup(_:prefixes:renderer:)``, so a client of that
/// family always receives errors it can decode.
public protocol ErrorRenderer: Sendable {
    /// The response for `error` on `request`. The router adds `Allow` to a 405 afterwards.
    func render(_ error: HTTPError, for request: HTTPRequest) -> HTTPResponse
}

/// The renderer of paths outside every group: the plain `{"error","error_description"}` object of
/// RFC 6749 § 5.2.
public struct PlainErrorRenderer: ErrorRenderer {
    /// Creates the renderer.
    public init() {}

    public func render(_ error: HTTPError, for request: HTTPRequest) -> HTTPResponse { error.response }
}

/// One route observed by ``Router/observer``: the request (with ``HTTPRequest/routePattern`` set
/// when a route matched), the answer, the group and the time the handler took.
public struct RouteObservation: Sendable {
    /// The request as routed.
    public var request: HTTPRequest
    /// The response sent.
    public var response: HTTPResponse
    /// The matched pattern, or `nil` when no route matched (404) or the request was refused.
    public var route: String?
    /// The name of the group whose paths the request fell under, if any.
    public var group: String?
    /// Seconds spent producing the response.
    public var seconds: Double
}
