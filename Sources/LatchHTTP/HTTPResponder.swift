/// Something that turns a request into a response: the one thing ``HTTPServer`` calls.
///
/// `respond(to:)` runs synchronously on a libmicrohttpd worker thread, possibly on several threads
/// at once, so conforming types must be `Sendable`. It may block (for example to hash a password),
/// but every millisecond it blocks holds a worker that other connections share.
public protocol HTTPResponder: Sendable {
    /// Produces the response for `request`. Must not trap; failures become error responses.
    func respond(to request: HTTPRequest) -> HTTPResponse
}
