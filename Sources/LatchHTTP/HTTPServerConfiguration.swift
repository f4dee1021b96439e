#if canImport(Darwin)
    import Darwin
#else
    import Glibc
#endif

/// Listening address, worker threads and limits of an ``HTTPServer``.
///
/// Limits map onto libmicrohttpd options (see the libmicrohttpd manual, "Options for the MHD
/// daemon"): `connectionLimit` is `MHD_OPTION_CONNECTION_LIMIT`, `perAddressConnectionLimit`
/// `MHD_OPTION_PER_IP_CONNECTION_LIMIT`, `idleTimeoutSeconds` `MHD_OPTION_CONNECTION_TIMEOUT`.
public struct HTTPServerConfiguration: Sendable {
    /// The numeric IPv4 or IPv6 address to bind (`"127.0.0.1"`, `"0.0.0.0"`, `"::1"`, `"::"`), or
    /// `"localhost"` (bound as `127.0.0.1`).
    public var host: String
    /// The TCP port; `0` picks a free ephemeral port (read it back from ``HTTPServer/port``).
    public var port: Int
    /// Worker threads (`MHD_OPTION_THREAD_POOL_SIZE`). Each worker serves its share of the
    /// connections and runs the responder on them synchronously, so a blocking handler delays
    /// only its own worker's connections. Default: `max(4, 4 × cores)`.
    public var threadCount: Int
    /// The largest request body accepted. A larger `Content-Length` is refused with 413 before the
    /// body is read (and instead of `100 Continue`). A body that grows past it while streaming
    /// (chunked, RFC 9112 §7.1) is dropped from then on and refused with 413 when it ends;
    /// libmicrohttpd 0.9.75 cannot queue a response mid-upload, so if more than 1 MiB beyond the
    /// limit arrives the connection is closed instead. Default 64 KiB.
    public var maxBodyBytes: Int
    /// The largest request head (request line plus header fields) accepted; larger heads get 431
    /// (RFC 6585 §5) with a JSON body. libmicrohttpd's own per-connection memory pool is sized to
    /// `maxHeaderBytes + 16 KiB`; a head too large even for that pool is answered by
    /// libmicrohttpd itself with 431 (414 when the request line alone is too long), a short HTML
    /// body and no `x-request-id`; the JSON 431 covers heads between the two sizes.
    public var maxHeaderBytes: Int
    /// The most simultaneous connections; further connections are accepted and closed at once.
    public var connectionLimit: Int
    /// The most simultaneous connections from one IP address; `0` means unlimited.
    public var perAddressConnectionLimit: Int
    /// Seconds a connection may stay idle (between or within requests) before it is closed.
    public var idleTimeoutSeconds: Int
    /// Receives the server's diagnostic lines (libmicrohttpd errors, dropped response headers).
    public var errorLog: @Sendable (String) -> Void

    /// Creates a configuration; every parameter has a production-sensible default.
    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        threadCount: Int = HTTPServerConfiguration.defaultThreadCount,
        maxBodyBytes: Int = 64 * 1024,
        maxHeaderBytes: Int = 16 * 1024,
        connectionLimit: Int = 1024,
        perAddressConnectionLimit: Int = 0,
        idleTimeoutSeconds: Int = 30,
        errorLog: @escaping @Sendable (String) -> Void = HTTPServerConfiguration.logToStandardError
    ) {
        self.host = host
        self.port = port
        self.threadCount = threadCount
        self.maxBodyBytes = maxBodyBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.connectionLimit = connectionLimit
        self.perAddressConnectionLimit = perAddressConnectionLimit
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.errorLog = errorLog
    }

    /// `max(4, 4 × online processors)`.
    public static var defaultThreadCount: Int {
        max(4, 4 * max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))))
    }

    /// Writes `line` to standard error (the default ``errorLog``).
    @Sendable
    public static func logToStandardError(_ line: String) {
        StandardError.write(line)
    }
}
