import LatchHTTP

/// Bridges a ``RequestInterceptor`` to the router's interception hook: it sees each matched
/// request before its handler, and a non-`nil` interception answers it. The composition root
/// installs it only when one is configured, so servers without an interceptor pay nothing.
enum InterceptorBridge {
    static func answer(_ request: HTTPRequest, by interceptor: any RequestInterceptor) -> HTTPResponse? {
        var headers: [String: String] = [:]
        for field in request.headers {
            let name = field.name.lowercased()
            if let earlier = headers[name] {
                headers[name] = earlier + ", " + field.value
            } else {
                headers[name] = field.value
            }
        }
        headers["x-request-id"] = request.requestID
        guard let answer = interceptor.intercept(method: request.method, path: request.path, headers: headers) else {
            return nil
        }
        return HTTPResponse(status: answer.status, headers: HTTPHeaders(answer.headers), body: answer.body)
    }
}
