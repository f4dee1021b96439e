/// The state of one request while libmicrohttpd delivers it in pieces: the target (from the URI
/// callback), then the head, then body chunks, then the final call.
///
/// Only the worker thread that owns the connection touches it, one call at a time (libmicrohttpd
/// never processes one connection on two threads at once), so it needs no locking; while the
/// connection is suspended for a blocking answer, the blocking-request thread alone touches it (to
/// set ``readyResponse``), and suspending and resuming, which take libmicrohttpd's per-daemon
/// clean-up mutex, order its accesses before and after the worker's.
final class RequestContext: @unchecked Sendable {  // one thread at a time, as described above
    enum Stage {
        /// Created from the request line; the head has not been seen by the access handler yet.
        case started
        /// The head was accepted; body bytes may follow.
        case receivingBody
        /// The request was refused with `refusal` but its body is still arriving: the bytes are
        /// counted and dropped until the body ends, then the refusal is sent (RFC 9112 §9.6).
        case discardingBody(refusal: HTTPError, deadline: ContinuousClock.Instant)
        /// The connection is suspended while a blocking-request thread makes the response, which
        /// it leaves in ``RequestContext/readyResponse`` before resuming the connection.
        case answering
        /// A response was queued.
        case responded
    }

    var stage = Stage.started
    let target: String
    let requestID: String
    var method = ""
    var headers = HTTPHeaders()
    var body: [UInt8] = []
    /// The largest body accepted: the server's, raised to the route's own once a body outgrows it.
    var bodyLimit = 0
    /// Whether the route's own limit has been asked for.
    var bodyLimitResolved = false
    /// Body bytes read and dropped so far while ``Stage/discardingBody(refusal:deadline:)``.
    var discardedBytes = 0
    /// The correlation id echoed as `client-request-id`: the client's UUID or one of the server's.
    var correlationID = ""
    /// The connection the request arrived on, whose request deadline it ends.
    let connection: ConnectionState?
    /// Why the request ended abnormally when the server decided it (not libmicrohttpd): counted
    /// under this reason rather than libmicrohttpd's termination code.
    var abnormalEnding: ConnectionEnding?
    /// The response a blocking-request thread made, for the worker to queue once the connection
    /// is resumed.
    var readyResponse: HTTPResponse?

    init(target: String, connection: ConnectionState?) {
        self.target = target
        self.requestID = RequestIDGenerator.shared.next()
        self.connection = connection
    }
}
