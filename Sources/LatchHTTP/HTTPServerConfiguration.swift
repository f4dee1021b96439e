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
/// libmicrohttpd 0.9.75 has no deadline for a request to arrive, so ``headerTimeoutSeconds`` is
/// enforced by the server itself (see ``HTTPServer``).
///
/// The connection defaults keep one address from starving the others: 64 connections per address
/// out of 4,096, and a client must send each request within 10 seconds, so idle half-sent requests
/// (slowloris) cannot hold the server's connections.
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
    /// The most threads making ``HTTPAnswer/blocking(_:)`` answers at once, each while its
    /// connection is suspended (`MHD_suspend_connection`), so that a worker never waits on one.
    /// Threads start on demand and end after 30 idle seconds; with all of them busy, a further
    /// blocking answer is made on its worker as any other. `0` makes every answer on the workers.
    /// Default 256.
    public var blockingThreads: Int
    /// The most ``HTTPAnswer/blocking(_:)`` answers made at once for one client address. Further
    /// ones wait, their connections suspended and holding no thread, and start in arrival order
    /// as that address's earlier ones finish: one address cannot take every blocking-request
    /// thread, and the number of its requests under way at once stays what it is when every
    /// request is answered on the workers (a password check counts against its account while
    /// under way). Default `max(4, 4 × cores)`, as ``defaultThreadCount``.
    public var blockingAnswersPerAddress: Int
    /// The largest request body accepted; a larger one is refused with 413 (RFC 9110 §15.5.14).
    /// How the refusal reaches the client is described under ``maxDiscardedBodyBytes``. Default 64 KiB.
    public var maxBodyBytes: Int
    /// The largest request head (request line plus header fields) accepted; larger heads get 431
    /// (RFC 6585 §5) with a JSON body, sent as described under ``maxDiscardedBodyBytes``.
    /// libmicrohttpd's own per-connection memory pool is sized to `maxHeaderBytes + 16 KiB`; a head
    /// too large even for that pool is answered by libmicrohttpd itself with 431 (414 when the
    /// request line alone is too long), a short HTML body and no `x-request-id`, and the connection
    /// is closed at once; the JSON 431 covers heads between the two sizes.
    public var maxHeaderBytes: Int
    /// The most bytes of a refused request body (413 or 431) that are read and dropped so that the
    /// client can read the refusal: a lingering close (RFC 9112 §9.6). Default 8 MiB.
    ///
    /// Clients such as Python's `urllib` write the whole body before reading anything; if the
    /// server answered and closed while body bytes were still arriving, the kernel would reset the
    /// connection and the client would see a broken pipe instead of the answer. libmicrohttpd
    /// 0.9.75 can queue a response only before the body or after all of it, so a refused request
    /// is handled like this:
    /// - with `Expect: 100-continue` (RFC 9110 §10.1.1), or without a body, the refusal is sent at
    ///   once: the client has not sent a body and will not;
    /// - with a `Content-Length` up to this limit, or a chunked body, the body is read and dropped
    ///   and the refusal is sent when it has ended; the connection then stays open (keep-alive);
    /// - with a larger `Content-Length`, the refusal is sent at once and the connection closed:
    ///   such a client may see a reset instead;
    /// - a chunked body that goes on past this limit, or any refused body still arriving
    ///   ``discardTimeoutSeconds`` after the refusal was decided, has its connection closed with
    ///   no answer. A client that stops sending is closed after ``idleTimeoutSeconds``, so one
    ///   refused request holds its connection for at most `discardTimeoutSeconds +
    ///   idleTimeoutSeconds` and makes the server read at most this many bytes.
    ///   (``headerTimeoutSeconds`` stops applying once a request is refused.)
    public var maxDiscardedBodyBytes: Int
    /// The longest time spent reading and dropping a refused body (see ``maxDiscardedBodyBytes``)
    /// before the connection is closed without an answer. Default 10 seconds.
    public var discardTimeoutSeconds: Double
    /// The most simultaneous connections (`MHD_OPTION_CONNECTION_LIMIT`, shared out among the
    /// worker threads). At the limit, new connections wait in the listening socket's backlog.
    /// Default 4,096.
    ///
    /// Every connection holds a file descriptor: ``HTTPServer/start()`` raises the process's soft
    /// `RLIMIT_NOFILE` toward its hard limit to fit this many connections plus 256 descriptors for
    /// everything else, and when even the hard limit is too low it lowers the limit in force
    /// (``HTTPServer/effectiveConnectionLimit``) and says so in ``errorLog``.
    public var connectionLimit: Int
    /// The most simultaneous connections from one IP address (`MHD_OPTION_PER_IP_CONNECTION_LIMIT`);
    /// further connections from it are accepted and closed at once. `0` means unlimited; at most
    /// ``connectionLimit``. Default 64, so that one address cannot hold every connection.
    public var perAddressConnectionLimit: Int
    /// Seconds a client has to send a request, head and body (up to ``maxBodyBytes``), before the
    /// connection is closed: a deadline, not a silence, so a client dripping a byte at a time
    /// (slowloris) is cut off too. It counts from the connection's accept (the TLS handshake
    /// included) for the first request, and for each later one from its request line, or from
    /// ``idleTimeoutSeconds`` after the previous response at the latest. `0` turns it off.
    /// Default 10.
    public var headerTimeoutSeconds: Int
    /// Seconds a connection may stay silent before it is closed: between requests (keep-alive),
    /// while a body arrives, while a response is sent. `0` means never. Default 30.
    public var idleTimeoutSeconds: Int
    /// The shortest time between two log lines that sum up the connections that ended abnormally
    /// (``HTTPServer/abnormalConnectionEndings``) and the libmicrohttpd messages not repeated in
    /// the log: one client resetting thousands of connections costs a line or two, not thousands.
    /// Default 60 seconds.
    public var abnormalEndingLogIntervalSeconds: Double
    /// The certificate and key to serve HTTPS with; `nil` (the default) serves plain HTTP.
    /// ``HTTPServer/replaceCertificate(chainPEM:privateKeyPEM:)`` swaps the certificate later.
    public var tls: TLS?
    /// Receives the server's diagnostic lines (libmicrohttpd errors, dropped response headers).
    public var errorLog: @Sendable (String) -> Void

    /// Creates a configuration; every parameter has a production-sensible default.
    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        threadCount: Int = HTTPServerConfiguration.defaultThreadCount,
        blockingThreads: Int = 256,
        blockingAnswersPerAddress: Int = HTTPServerConfiguration.defaultBlockingAnswersPerAddress,
        maxBodyBytes: Int = 64 * 1024,
        maxHeaderBytes: Int = 16 * 1024,
        maxDiscardedBodyBytes: Int = 8 << 20,
        discardTimeoutSeconds: Double = 10,
        connectionLimit: Int = 4096,
        perAddressConnectionLimit: Int = 64,
        headerTimeoutSeconds: Int = 10,
        idleTimeoutSeconds: Int = 30,
        abnormalEndingLogIntervalSeconds: Double = 60,
        tls: TLS? = nil,
        errorLog: @escaping @Sendable (String) -> Void = HTTPServerConfiguration.logToStandardError
    ) {
        self.host = host
        self.port = port
        self.threadCount = threadCount
        self.blockingThreads = blockingThreads
        self.blockingAnswersPerAddress = blockingAnswersPerAddress
        self.maxBodyBytes = maxBodyBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.maxDiscardedBodyBytes = maxDiscardedBodyBytes
        self.discardTimeoutSeconds = discardTimeoutSeconds
        self.connectionLimit = connectionLimit
        self.perAddressConnectionLimit = perAddressConnectionLimit
        self.headerTimeoutSeconds = headerTimeoutSeconds
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.abnormalEndingLogIntervalSeconds = abnormalEndingLogIntervalSeconds
        self.tls = tls
        self.errorLog = errorLog
    }

    /// What is wrong with this configuration, or `nil` if the server can start with it.
    var problem: String? {
        if threadCount < 1 { return "the thread count must be positive" }
        if blockingThreads < 0 { return "the blocking-request thread count must not be negative" }
        if blockingAnswersPerAddress < 1 { return "the blocking answers per address must be positive" }
        if maxBodyBytes < 0 || maxDiscardedBodyBytes < 0 { return "body limits must not be negative" }
        if maxHeaderBytes < 256 { return "the header limit must be at least 256 bytes" }
        if connectionLimit < 1 { return "the connection limit must be positive" }
        if perAddressConnectionLimit < 0 || perAddressConnectionLimit > connectionLimit {
            return "the per-address connection limit must be between 0 (unlimited) and the connection limit (\(connectionLimit))"
        }
        if headerTimeoutSeconds < 0 || idleTimeoutSeconds < 0 { return "timeouts must not be negative" }
        if !(0...86_400).contains(discardTimeoutSeconds) { return "the discard timeout must be between 0 and 86400 seconds" }
        if !(abnormalEndingLogIntervalSeconds > 0) { return "the abnormal-ending log interval must be positive" }
        return nil
    }

    /// `max(4, 4 × online processors)`.
    public static var defaultThreadCount: Int {
        max(4, 4 * max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))))
    }

    /// `max(4, 4 × online processors)`, as ``defaultThreadCount``.
    public static var defaultBlockingAnswersPerAddress: Int { defaultThreadCount }

    /// Writes `line` to standard error (the default ``errorLog``).
    @Sendable
    public static func logToStandardError(_ line: String) {
        StandardError.write(line)
    }
}
