/// What a responder gives back for a request: the response itself, or the work that makes it
/// when that work may block for long.
public enum HTTPAnswer: Sendable {
    /// The response, made already.
    case response(HTTPResponse)
    /// Work that makes the response and may block for long (to hash a password, say).
    /// ``HTTPServer`` runs it on one of its blocking-request threads
    /// (``HTTPServerConfiguration/blockingThreads``) while the connection is set aside, so the
    /// worker thread goes on serving its other connections.
    case blocking(@Sendable () -> HTTPResponse)

    /// The response, making it on the calling thread if need be.
    public var response: HTTPResponse {
        switch self {
        case .response(let response): response
        case .blocking(let work): work()
        }
    }
}
