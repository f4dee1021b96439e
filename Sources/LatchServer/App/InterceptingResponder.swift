import LatchHTTP

/// Puts a ``RequestInterceptor`` in front of `next`: a non-`nil` interception answers the request,
/// otherwise `next` does. The composition root installs it only when one is configured, so servers
/// without an interceptor pay nothing.
struct InterceptingResponder: HTTPResponder {
    let next: any HTTPResponder
    let interceptor: any RequestInterceptor

    func respond(to request: HTTPRequest) -> HTTPResponse {
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
            return next.respond(to: request)
        }
        return HTTPResponse(status: answer.status, headers: HTTPHeaders(answer.headers), body: answer.body)
    }

    func respond(to request: HTTPRequest, refusedWith error: HTTPError) -> HTTPResponse {
        next.respond(to: request, refusedWith: error)
    }
}
