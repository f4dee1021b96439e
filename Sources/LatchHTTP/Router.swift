/// Dispatches requests to handlers by method and path pattern, and renders every failure.
///
/// A pattern is a path whose segments are literals or `{name}` placeholders, e.g.
/// `"/{tenant}/oauth2/v2.0/token"`. A placeholder matches exactly one non-empty segment and its
/// (percent-decoded) value lands in ``HTTPRequest/pathParameters``; literals match exactly, and a
/// literal route wins over a placeholder route at the same position.
///
/// Outcomes:
/// - no route for the path: 404 `{"error":"not_found",…}`;
/// - a route for the path but not the method: 405 with an `Allow` header (RFC 9110 §15.5.6);
///   `HEAD` is served by the `GET` handler (RFC 9110 §9.3.2);
/// - a handler throws ``HTTPError``: its ``HTTPError/response``;
/// - a handler throws anything else: 500 whose body carries only the request id, while the error
///   itself goes to ``errorLog``.
///
/// ```swift
/// var router = Router()
/// router.add("GET", "/{tenant}/v2.0/.well-known/openid-configuration") { request in
///     .json(200, discovery(for: request.pathParameters["tenant"]!))
/// }
/// ```
public struct Router: HTTPResponder {
    /// A route handler. It may throw ``HTTPError`` to answer with an error response.
    public typealias Handler = @Sendable (HTTPRequest) throws -> HTTPResponse

    private var root = RouteNode()

    /// Receives one line per unexpected (non-``HTTPError``) handler failure, with the request id.
    /// Defaults to standard error.
    public var errorLog: @Sendable (String) -> Void = HTTPServerConfiguration.logToStandardError

    /// Creates a router without routes.
    public init() {}

    /// Adds a route; a later route with the same method and pattern replaces the earlier one.
    ///
    /// - Parameters:
    ///   - method: the method token; matched case-sensitively after uppercasing (RFC 9110 §9.1).
    ///   - pattern: a path starting with `/`, whose segments are literals or `{name}`.
    public mutating func add(_ method: String, _ pattern: String, _ handler: @escaping Handler) {
        root.insert(RouteNode.segments(of: pattern), method: method.uppercased(), pattern: pattern, handler: handler)
    }

    /// Routes `request` and returns the handler's response or the rendered failure. Never throws.
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        var parameters: [(String, Substring)] = []
        guard let node = root.match(RouteNode.segments(of: request.path), parameters: &parameters) else {
            return HTTPError.notFound("no resource at this path").response
        }
        let handler: Handler
        if let exact = node.handlers[request.method] {
            handler = exact
        } else if request.method == "HEAD", let get = node.handlers["GET"] {
            handler = get
        } else {
            var methods = Set(node.handlers.keys)
            if methods.contains("GET") { methods.insert("HEAD") }
            var response = HTTPError.methodNotAllowed("method \(request.method.prefix(32)) is not allowed for this path").response
            response.headers.set("Allow", methods.sorted().joined(separator: ", "))
            return response
        }
        var routed = request
        routed.routePattern = node.pattern
        if !parameters.isEmpty {
            var values: [String: String] = [:]
            values.reserveCapacity(parameters.count)
            for (name, value) in parameters { values[name] = String(value) }
            routed.pathParameters = values
        }
        do {
            return try handler(routed)
        } catch let error as HTTPError {
            return error.response
        } catch {
            errorLog("request \(request.requestID) \(request.method) \(node.pattern ?? "?") failed: \(String(reflecting: error))")
            return HTTPError.internalServerError("internal error; request id \(request.requestID)").response
        }
    }
}
