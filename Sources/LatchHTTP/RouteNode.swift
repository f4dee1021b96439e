/// One node of ``Router``'s route tree: one path segment deep.
struct RouteNode: Sendable {
    /// Children reached by a literal segment.
    var literalChildren: [String: RouteNode] = [:]
    /// Children reached by a `{name}` segment, in the order they were added.
    var parameterChildren: [(name: String, node: RouteNode)] = []
    /// Handlers of routes ending here, by method.
    var handlers: [String: Router.Handler] = [:]
    /// Which requests to routes ending here may block for long, by method (absent: none).
    var mayBlock: [String: Router.BlockingTest] = [:]
    /// Body limits of routes ending here that differ from the server's, by method.
    var bodyLimits: [String: Int] = [:]
    /// The pattern of the routes ending here.
    var pattern: String?

    /// Adds `handler` at the end of `segments`.
    mutating func insert(
        _ segments: ArraySlice<Substring>, method: String, pattern: String, handler: @escaping Router.Handler,
        mayBlock: Router.BlockingTest? = nil, bodyLimit: Int? = nil
    ) {
        guard let segment = segments.first else {
            handlers[method] = handler
            self.mayBlock[method] = mayBlock
            bodyLimits[method] = bodyLimit
            self.pattern = pattern
            return
        }
        let rest = segments.dropFirst()
        if let name = RouteNode.parameterName(segment) {
            if let index = parameterChildren.firstIndex(where: { $0.name == name }) {
                parameterChildren[index].node.insert(
                    rest, method: method, pattern: pattern, handler: handler, mayBlock: mayBlock, bodyLimit: bodyLimit)
            } else {
                var child = RouteNode()
                child.insert(rest, method: method, pattern: pattern, handler: handler, mayBlock: mayBlock, bodyLimit: bodyLimit)
                parameterChildren.append((name: name, node: child))
            }
        } else {
            literalChildren[String(segment), default: RouteNode()].insert(
                rest, method: method, pattern: pattern, handler: handler, mayBlock: mayBlock, bodyLimit: bodyLimit)
        }
    }

    /// The node matching `segments` and the parameter values bound on the way. Literal segments are
    /// tried before parameters at every level, backtracking when a literal branch fails deeper.
    func match(_ segments: ArraySlice<Substring>, parameters: inout [(String, Substring)]) -> RouteNode? {
        guard let segment = segments.first else {
            return handlers.isEmpty ? nil : self
        }
        let rest = segments.dropFirst()
        if let child = literalChildren[String(segment)], let found = child.match(rest, parameters: &parameters) {
            return found
        }
        guard !segment.isEmpty else { return nil }
        for (name, child) in parameterChildren {
            parameters.append((name, segment))
            if let found = child.match(rest, parameters: &parameters) {
                return found
            }
            parameters.removeLast()
        }
        return nil
    }

    /// `name` for a segment spelled `{name}`, else `nil`.
    static func parameterName(_ segment: Substring) -> String? {
        guard segment.count > 2, segment.first == "{", segment.last == "}" else { return nil }
        return String(segment.dropFirst().dropLast())
    }

    /// The segments of a path or pattern: `"/"` has none, `"/a/b"` has `a` and `b`,
    /// `"/a/"` has `a` and an empty one.
    static func segments(of path: String) -> ArraySlice<Substring> {
        // Split on the UTF-8 view: `/` is ASCII, and Character (grapheme) splitting is the costliest
        // step of routing otherwise.
        var bytes = path.utf8[...]
        if bytes.first == UInt8(ascii: "/") { bytes = bytes.dropFirst() }
        if bytes.isEmpty { return [] }
        return bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map { Substring($0) }[...]
    }
}
