/// Why a connection ended abnormally: before a request was answered, or turned away. A growing
/// set of values, keyed by ``name`` (a metrics label).
///
/// ``HTTPServer/abnormalConnectionEndings`` counts them. Most come from libmicrohttpd's
/// `MHD_RequestTerminationCode` (libmicrohttpd manual, "Signature of the callback used by MHD to
/// notify the application about completed requests"); the others from the server's own checks.
/// Connections that close after their last response, or time out idle between requests, end
/// normally and are not counted.
public struct ConnectionEnding: Hashable, Sendable, CustomStringConvertible {
    /// The metrics label: lowercase with underscores (`"header_timeout"`).
    public let name: String
    /// The words the log uses (`"header timeout"`).
    public var description: String { name.replacingUnderscores() }

    private init(_ name: String) { self.name = name }

    /// The request did not arrive within ``HTTPServerConfiguration/headerTimeoutSeconds``
    /// (a slow or stalled client, slowloris).
    public static let headerTimeout = ConnectionEnding("header_timeout")
    /// The connection stayed silent for ``HTTPServerConfiguration/idleTimeoutSeconds`` while a
    /// request was under way (`MHD_REQUEST_TERMINATED_TIMEOUT_REACHED`).
    public static let timeout = ConnectionEnding("timeout")
    /// The client closed or reset the connection while a request was under way
    /// (`MHD_REQUEST_TERMINATED_CLIENT_ABORT`, `MHD_REQUEST_TERMINATED_READ_ERROR`).
    public static let clientAbort = ConnectionEnding("client_abort")
    /// libmicrohttpd closed the connection after an error: malformed framing, out of memory, a
    /// response it could not send (`MHD_REQUEST_TERMINATED_WITH_ERROR`).
    public static let error = ConnectionEnding("error")
    /// A refused body was too large or too slow to read and drop (see
    /// ``HTTPServerConfiguration/maxDiscardedBodyBytes``), so the connection was closed unanswered.
    public static let refusedBodyCutOff = ConnectionEnding("refused_body_cut_off")
    /// The connection was accepted and closed at once because a connection limit was reached
    /// (libmicrohttpd reports this only in its log: "Server reached connection limit").
    public static let connectionLimit = ConnectionEnding("connection_limit")

    /// Every value, in the order summaries list ties.
    public static let all: [ConnectionEnding] = [
        .headerTimeout, .timeout, .clientAbort, .error, .refusedBodyCutOff, .connectionLimit,
    ]
}

extension String {
    fileprivate func replacingUnderscores() -> String {
        String(map { $0 == "_" ? " " : $0 })
    }
}
