import Synchronization

#if canImport(Darwin)
    import Darwin
#else
    import Glibc
#endif

/// An HTTP/1.1 server (RFC 9112) on GNU libmicrohttpd that hands complete requests to an
/// ``HTTPResponder`` on a pool of worker threads.
///
/// Every response carries `x-request-id` (the request's ``HTTPRequest/requestID``) and, when the
/// request had a sane one, `client-request-id` echoed back. Bodies over
/// ``HTTPServerConfiguration/maxBodyBytes`` get 413 and heads over
/// ``HTTPServerConfiguration/maxHeaderBytes`` get 431, as JSON error objects, without calling the
/// responder; a refused body still arriving is read and dropped first, within bounds, so that
/// clients that write their whole body before reading see the answer (a lingering close,
/// RFC 9112 §9.6; see ``HTTPServerConfiguration/maxDiscardedBodyBytes``). Connections are kept
/// alive (RFC 9112 §9.3).
///
/// ```swift
/// let server = HTTPServer(configuration: .init(port: 0), responder: router)
/// try server.start()
/// print("listening on", server.port)
/// server.shutdown()
/// ```
public final class HTTPServer: Sendable {
    private enum State {
        case idle
        case running(MHDDaemon, ServerCore)
        case stopped
    }

    private let configuration: HTTPServerConfiguration
    private let responder: any HTTPResponder
    private let state = Mutex<State>(.idle)
    private let boundPort = Atomic<Int>(0)
    private let liveCore = Mutex<ServerCore?>(nil)

    /// Creates a server; nothing is bound until ``start()``.
    public init(configuration: HTTPServerConfiguration, responder: any HTTPResponder) {
        self.configuration = configuration
        self.responder = responder
    }

    deinit {
        state.withLock { state in
            if case .running(let daemon, _) = state {
                daemon.quiesce()
                daemon.stop()
            }
            state = .stopped
        }
    }

    /// Binds the configured address and starts the worker threads.
    ///
    /// - Throws: ``HTTPServerError`` with kind ``HTTPServerError/Kind/addressInUse`` when the port
    ///   is taken, ``HTTPServerError/Kind/invalidAddress`` for an unusable host, and
    ///   ``HTTPServerError/Kind/alreadyStarted`` when called twice.
    public func start() throws {
        try state.withLock { (state: inout State) throws(HTTPServerError) in
            guard case .idle = state else {
                throw HTTPServerError(kind: .alreadyStarted, message: "the server was already started")
            }
            let socket = try ListeningSocket.open(host: configuration.host, port: configuration.port)
            let core = ServerCore(configuration: configuration, responder: responder)
            do throws(HTTPServerError) {
                let daemon = try MHDDaemon(
                    core: core, listenDescriptor: socket.descriptor, isIPv6: socket.isIPv6, configuration: configuration)
                state = .running(daemon, core)
            } catch {
                ListeningSocket.close(socket.descriptor)
                throw error
            }
            liveCore.withLock { $0 = core }
            boundPort.store(socket.port, ordering: .releasing)
        }
    }

    /// The port actually bound (the ephemeral one when configured with `0`); `0` before ``start()``.
    public var port: Int {
        boundPort.load(ordering: .acquiring)
    }

    /// Requests received but not yet completed (their responses not yet fully sent).
    public var inFlightRequests: Int {
        liveCore.withLock { $0?.inFlight.load(ordering: .relaxed) ?? 0 }
    }

    /// Stops gracefully: new connections are refused at once (`MHD_quiesce_daemon`, then the
    /// listening socket is closed), requests in flight may finish for up to `timeout` seconds and
    /// get `Connection: close`, then every connection is closed (`MHD_stop_daemon`). A handler
    /// still running after `timeout` is waited for, since a thread cannot be interrupted.
    /// Safe to call more than once and from several threads; later calls return once stopped.
    public func shutdown(timeout: Double = 10) {
        state.withLock { state in
            guard case .running(let daemon, let core) = state else {
                state = .stopped
                return
            }
            core.draining.store(true, ordering: .relaxed)
            daemon.quiesce()
            let deadline = ContinuousClock.now + .milliseconds(Int(max(0, timeout) * 1000))
            while core.inFlight.load(ordering: .relaxed) > 0 && ContinuousClock.now < deadline {
                usleep(2_000)
            }
            daemon.stop()
            state = .stopped
        }
        liveCore.withLock { $0 = nil }
    }
}
