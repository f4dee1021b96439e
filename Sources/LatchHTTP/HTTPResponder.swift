/// Something that turns a request into a response: the one thing ``HTTPServer`` calls.
///
/// ``HTTPServer`` calls ``answer(to:)`` synchronously on a libmicrohttpd worker thread, possibly
/// on several threads at once, so conforming types must be `Sendable`. Every millisecond it blocks
/// holds a worker that other connections share; work that may block for long (to hash a password,
/// say) belongs in an ``HTTPAnswer/blocking(_:)`` answer, which the server runs elsewhere.
public protocol HTTPResponder: Sendable {
    /// Produces the response for `request`. Must not trap; failures become error responses.
    func respond(to request: HTTPRequest) -> HTTPResponse

    /// The response for `request`, or the work that makes it when that may block for long.
    func answer(to request: HTTPRequest) -> HTTPAnswer

    /// Renders a request refused by the server's limits before ``respond(to:)`` ran.
    func respond(to request: HTTPRequest, refusedWith error: HTTPError) -> HTTPResponse

    /// The largest body accepted for `method` on `path` (percent-decoded, no query), when it is
    /// not the server's ``HTTPServerConfiguration/maxBodyBytes``; asked once the head is read.
    func maximumBodyBytes(method: String, path: String) -> Int?
}

extension HTTPResponder {
    /// The response, made at once on the calling thread.
    public func answer(to request: HTTPRequest) -> HTTPAnswer {
        .response(respond(to: request))
    }

    /// Renders a request the server refused before ``respond(to:)`` could run: a body over the
    /// limit (413), a request head over the limit (431), or a body it cannot delimit (501 for a
    /// transfer coding other than `chunked`, 400 for `Transfer-Encoding` with `Content-Length`;
    /// RFC 9112 §6). `request` carries the method, target,
    /// headers and request ids but no body. The default is the error's generic JSON object;
    /// responders whose wire has its own error envelope override it.
    public func respond(to request: HTTPRequest, refusedWith error: HTTPError) -> HTTPResponse {
        error.response
    }

    /// The server's limit for every request.
    public func maximumBodyBytes(method: String, path: String) -> Int? { nil }
}
