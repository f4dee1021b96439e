import Dispatch

/// Dispatches requests to handlers by method and path pattern, and renders every failure in the
/// envelope of the route group the path falls under.
///
/// A pattern is a path whose segments are literals or `{name}` placeholders, e.g.
/// `"/{tenant}/oauth2/v2.0/token"`. A placeholder matches exactly one non-empty segment and its
/// (percent-decoded) value lands in ``HTTPRequest/pathParameters``; literals match exactly, and a
/// literal route wins over a placeholder route at the same position.
///
/// Route groups (``addGroup(_:prefixes:renderer:)``) give each wire family its own
/// ``ErrorRenderer``: a path under one of a group's prefixes has its 404, 405, 413, 431, thrown
/// ``HTTPError`` and unexpected failures rendered by that group (the longest matching prefix wins);
/// other paths use ``fallbackRenderer``.
///
/// Outcomes:
/// - no route for the path: 404;
/// - a route for the path but not the method: 405 with an `Allow` header (RFC 9110 §15.5.6);
///   `HEAD` is served by the `GET` handler (RFC 9110 §9.3.2);
/// - a handler throws ``HTTPError``: that error, rendered;
/// - a handler throws anything else: 500 whose body carries only the request id, while the error
///   itself goes to ``errorLog``.
///
/// ```swift
/// var router = Router()
/// router.addGroup("oauth", prefixes: ["/{tenant}/v2.0"], renderer: OAuthErrors())
/// router.add("GET", "/{tenant}/v2.0/.well-known/openid-configuration") { request in
///     .json(200, discovery(for: request.pathParameters["tenant"]!))
/// }
/// ```
public struct Router: HTTPResponder {
    /// A route handler. It may throw ``HTTPError`` to answer with an error response.
    public typealias Handler = @Sendable (HTTPRequest) throws -> HTTPResponse
    /// Whether a routed request may block for long in its handler (see ``HTTPAnswer/blocking(_:)``).
    public typealias BlockingTest = @Sendable (HTTPRequest) -> Bool

    private struct Group: Sendable {
        let name: String
        let prefix: ArraySlice<Substring>
        let renderer: any ErrorRenderer
    }

    private var root = RouteNode()
    private var groups: [Group] = []

    /// Receives one line per unexpected (non-``HTTPError``) handler failure, with the request id.
    /// Defaults to standard error.
    public var errorLog: @Sendable (String) -> Void = HTTPServerConfiguration.logToStandardError

    /// Renders failures of paths outside every group.
    public var fallbackRenderer: any ErrorRenderer = PlainErrorRenderer()

    /// Sees every routed request after its response is made (metrics, access logs); `nil` costs nothing.
    public var observer: (@Sendable (RouteObservation) -> Void)?
    /// Turns an error a handler throws into the ``HTTPError`` it stands for (a dependency's outage
    /// as 503, say), rendered in the request's group instead of a 500; `nil` answers keep the 500.
    public var errorMapping: (@Sendable (any Error) -> HTTPError?)?

    /// Sees every request before its handler (or its 404 or 405) and may answer instead (fault
    /// injection in tests); the answer is observed under the matched route like any other. `nil`
    /// costs nothing.
    public var interceptor: (@Sendable (HTTPRequest) -> HTTPResponse?)?

    /// Creates a router without routes.
    public init() {}

    /// Adds a route; a later route with the same method and pattern replaces the earlier one.
    ///
    /// - Parameters:
    ///   - method: the method token; matched case-sensitively after uppercasing (RFC 9110 §9.1).
    ///   - pattern: a path starting with `/`, whose segments are literals or `{name}`.
    ///   - mayBlock: which of the route's requests may block for long in `handler` (a password
    ///     hash, say): ``answer(to:)`` hands those over as ``HTTPAnswer/blocking(_:)``. `nil`: none.
    ///   - maxBodyBytes: the largest body this route accepts, in place of the server's
    ///     ``HTTPServerConfiguration/maxBodyBytes``: a larger one (a bulk import, say) is read up
    ///     to it; a body over a smaller one is read, then answered 413. `nil`: the server's.
    public mutating func add(
        _ method: String, _ pattern: String, mayBlock: BlockingTest? = nil, maxBodyBytes: Int? = nil,
        _ handler: @escaping Handler
    ) {
        root.insert(
            RouteNode.segments(of: pattern), method: method.uppercased(), pattern: pattern, handler: handler,
            mayBlock: mayBlock, bodyLimit: maxBodyBytes)
    }

    /// The body limit of the route `method` and `path` lead to, when it sets its own.
    public func maximumBodyBytes(method: String, path: String) -> Int? {
        var parameters: [(String, Substring)] = []
        return root.match(RouteNode.segments(of: path), parameters: &parameters)?.bodyLimits[method.uppercased()]
    }

    /// Declares a group: paths under any of `prefixes` (patterns, `{name}` matching one segment)
    /// have their failures rendered by `renderer`.
    public mutating func addGroup(_ name: String, prefixes: [String], renderer: any ErrorRenderer) {
        for prefix in prefixes {
            groups.append(Group(name: name, prefix: RouteNode.segments(of: prefix), renderer: renderer))
        }
    }

    /// The group whose prefix matches the most segments of `path`, if any.
    private func group(for path: String) -> Group? {
        let segments = RouteNode.segments(of: path)
        var best: Group?
        for group in groups where group.prefix.count <= segments.count {
            guard best.map({ group.prefix.count > $0.prefix.count }) ?? true else { continue }
            let matches = zip(group.prefix, segments).allSatisfy { pattern, segment in
                RouteNode.parameterName(pattern) != nil ? !segment.isEmpty : pattern == segment
            }
            if matches { best = group }
        }
        return best
    }

    private func render(_ error: HTTPError, for request: HTTPRequest, group: Group?) -> HTTPResponse {
        (group?.renderer ?? fallbackRenderer).render(error, for: request)
    }

    /// Routes `request` and returns the handler's response or the rendered failure. Never throws.
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        answer(to: request).response
    }

    /// Routes `request`: the response, or, for a route whose `mayBlock` test holds for it, the
    /// handler's work as ``HTTPAnswer/blocking(_:)``. ``observer`` sees either once it is made.
    public func answer(to request: HTTPRequest) -> HTTPAnswer {
        let start = observer == nil ? 0 : DispatchTime.now().uptimeNanoseconds
        let (resolution, routed) = resolve(request)
        switch resolution {
        case .answered(let response):
            return .response(observed(response, routed: routed, original: request, since: start))
        case .handler(let handler, blocking: false):
            return .response(observed(invoke(handler, routed), routed: routed, original: request, since: start))
        case .handler(let handler, blocking: true):
            return .blocking {
                self.observed(self.invoke(handler, routed), routed: routed, original: request, since: start)
            }
        }
    }

    /// Reports `response` to ``observer``, timed from `start`.
    private func observed(_ response: HTTPResponse, routed: HTTPRequest, original request: HTTPRequest, since start: UInt64)
        -> HTTPResponse
    {
        guard let observer else { return response }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds &- start) / 1e9
        observer(
            RouteObservation(
                request: routed, response: response, route: routed.routePattern,
                group: routed.routePattern == nil ? group(for: request.path)?.name : nil, seconds: seconds))
        return response
    }

    /// Where routing `request` leads: an answer already (intercepted, 404, 405), or a handler.
    private enum Resolution {
        case answered(HTTPResponse)
        case handler(Handler, blocking: Bool)
    }

    private func resolve(_ request: HTTPRequest) -> (Resolution, routed: HTTPRequest) {
        var parameters: [(String, Substring)] = []
        let node = root.match(RouteNode.segments(of: request.path), parameters: &parameters)
        var routed = request
        if let node {
            routed.routePattern = node.pattern
            if !parameters.isEmpty {
                var values: [String: String] = [:]
                values.reserveCapacity(parameters.count)
                for (name, value) in parameters { values[name] = String(value) }
                routed.pathParameters = values
            }
        }
        if let interceptor, let answer = interceptor(routed) { return (.answered(answer), routed) }
        guard let node else {
            return (
                .answered(render(.notFound("no resource at this path"), for: request, group: group(for: request.path))),
                request
            )
        }
        if let exact = node.handlers[request.method] {
            // A route below the server's limit refuses here; one above it was let through by the
            // HTTP layer, which asks ``maximumBodyBytes(method:path:)`` only past its own limit.
            if let limit = node.bodyLimits[request.method], request.body.count > limit {
                return (
                    .answered(render(.payloadTooLarge(limit: limit), for: request, group: group(for: request.path))), routed
                )
            }
            let blocking = node.mayBlock[request.method].map { $0(routed) } ?? false
            return (.handler(exact, blocking: blocking), routed)
        } else if request.method == "HEAD", let get = node.handlers["GET"] {
            return (.handler(get, blocking: node.mayBlock["GET"].map { $0(routed) } ?? false), routed)
        } else {
            var methods = Set(node.handlers.keys)
            if methods.contains("GET") { methods.insert("HEAD") }
            var response = render(
                .methodNotAllowed("method \(request.method.prefix(32)) is not allowed for this path"), for: request,
                group: group(for: request.path))
            response.headers.set("Allow", methods.sorted().joined(separator: ", "))
            return (.answered(response), routed)
        }
    }

    /// Runs `handler`, rendering what it throws.
    private func invoke(_ handler: Handler, _ request: HTTPRequest) -> HTTPResponse {
        do {
            return try handler(request)
        } catch let error as HTTPError {
            return render(error, for: request, group: group(for: request.path))
        } catch {
            if let mapped = errorMapping?(error) {
                return render(mapped, for: request, group: group(for: request.path))
            }
            errorLog(
                "request \(request.requestID) \(request.method) \(request.routePattern ?? "?") failed: \(String(reflecting: error))"
            )
            let failure = HTTPError.internalServerError("internal error; request id \(request.requestID)")
            return render(failure, for: request, group: group(for: request.path))
        }
    }

    /// Renders a request the server refused before routing (413, 431, and 400 or 501 for its
    /// framing) in its group's envelope.
    public func respond(to request: HTTPRequest, refusedWith error: HTTPError) -> HTTPResponse {
        let group = group(for: request.path)
        let response = render(error, for: request, group: group)
        observer?(RouteObservation(request: request, response: response, route: nil, group: group?.name, seconds: 0))
        return response
    }
}
