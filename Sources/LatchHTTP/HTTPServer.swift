import Foundation
internal import LatchLocking

#if canImport(Darwin)
    import Darwin
#else
    import Glibc
#endif

/// An HTTP/1.1 server (RFC 9112) on GNU libmicrohttpd that hands complete requests to an
/// ``HTTPResponder`` on a pool of worker threads, over plain TCP or TLS.
///
/// Every response carries `x-request-id` (the request's ``HTTPRequest/requestID``) and, when the
/// request had a sane one, `client-request-id` echoed back. Bodies over
/// ``HTTPServerConfiguration/maxBodyBytes`` get 413 and heads over
/// ``HTTPServerConfiguration/maxHeaderBytes`` get 431, as JSON error objects, without calling the
/// responder; a refused body still arriving is read and dropped first, within bounds, so that
/// clients that write their whole body before reading see the answer (a lingering close,
/// RFC 9112 §9.6; see ``HTTPServerConfiguration/maxDiscardedBodyBytes``). Connections are kept
/// alive (RFC 9112 §9.3), over TLS too.
///
/// Connections are limited in number (``HTTPServerConfiguration/connectionLimit``, and per client
/// address ``HTTPServerConfiguration/perAddressConnectionLimit``) and in time: a request must
/// arrive within ``HTTPServerConfiguration/headerTimeoutSeconds`` (a deadline this server
/// enforces, since libmicrohttpd only times out silence), and a connection may stay silent for
/// ``HTTPServerConfiguration/idleTimeoutSeconds``. Idle connections cost no worker: each worker
/// polls its share of them. Nor does a request the responder answers with
/// ``HTTPAnswer/blocking(_:)`` while it blocks: its connection is suspended and the answer is made
/// on one of up to ``HTTPServerConfiguration/blockingThreads`` threads of their own, at most
/// ``HTTPServerConfiguration/blockingAnswersPerAddress`` at once for one client address. A request
/// whose body cannot be delimited (a transfer coding other than `chunked`, or `Transfer-Encoding`
/// with `Content-Length`) is refused at once with 501 or 400 and its connection closed (RFC 9112
/// §6). Connections that end abnormally are counted
/// (``abnormalConnectionEndings``) and summed up in the log at most once a minute, instead of a
/// line each.
///
/// With ``HTTPServerConfiguration/tls`` set the server speaks HTTPS (``scheme`` is `"https"`);
/// ``replaceCertificate(chainPEM:privateKeyPEM:)`` swaps the certificate while serving.
///
/// ```swift
/// let server = HTTPServer(configuration: .init(port: 0), responder: router)
/// try server.start()
/// print("listening on", server.port)
/// server.shutdown()
/// ```
public final class HTTPServer: Sendable {
    /// One libmicrohttpd daemon and the core its callbacks share. A certificate change starts a
    /// new generation on the same listening socket and retires the previous one.
    private struct Generation {
        let id: Int
        let daemon: MHDDaemon
        let core: ServerCore
    }

    private struct Running {
        var current: Generation
        /// Generations replaced by a certificate change that still serve their open connections.
        var retiring: [Generation]
        var tls: HTTPServerConfiguration.TLS?
        let isIPv6: Bool
        var nextID: Int

        var all: [Generation] { retiring + [current] }
    }

    private enum State {
        case idle
        case running(Running)
        case stopped
    }

    private let configuration: HTTPServerConfiguration
    private let responder: any HTTPResponder
    private let state = Locked<State>(.idle)
    private let boundPort = Locked<Int>(0)
    /// The cores of every live generation, readable while ``shutdown(timeout:)`` holds `state`.
    private let liveCores = Locked<[ServerCore]>([])
    /// The open connections of every generation, for the request deadlines.
    private let connections: ConnectionRegistry
    /// Abnormal endings and libmicrohttpd's messages, server-wide.
    private let endings: AbnormalEndingLog
    /// Enforces the request deadlines and writes the summaries while the server runs.
    private let housekeeper: ServerHousekeeper
    /// ``HTTPServerConfiguration/connectionLimit`` as fitted to the open-file limit at start.
    private let connectionLimitInForce: Locked<Int>
    /// The threads that make blocking answers, for every generation.
    private let blockingPool: BlockingRequestPool

    /// Creates a server; nothing is bound until ``start()``.
    public init(configuration: HTTPServerConfiguration, responder: any HTTPResponder) {
        self.configuration = configuration
        self.responder = responder
        connections = ConnectionRegistry(shards: min(64, max(1, configuration.threadCount)))
        endings = AbnormalEndingLog(log: configuration.errorLog)
        housekeeper = ServerHousekeeper(
            registry: connections, endings: endings, headerTimeoutSeconds: configuration.headerTimeoutSeconds,
            summaryIntervalSeconds: configuration.abnormalEndingLogIntervalSeconds)
        connectionLimitInForce = Locked(configuration.connectionLimit)
        blockingPool = BlockingRequestPool(
            maximumThreads: configuration.blockingThreads, perKeyLimit: configuration.blockingAnswersPerAddress)
    }

    deinit {
        state.withLock { state in
            if case .running(let running) = state {
                for generation in running.all { generation.daemon.stop() }
            }
            state = .stopped
        }
        housekeeper.stop()
        blockingPool.stop()
    }

    /// Whether the libmicrohttpd in use can serve TLS (`MHD_FEATURE_TLS`); Debian's is built with
    /// GnuTLS.
    public static var supportsTLS: Bool { MHDDaemon.supportsTLS }

    /// `"https"` when the server was configured with ``HTTPServerConfiguration/tls``, else `"http"`.
    public var scheme: String { configuration.tls == nil ? "http" : "https" }

    /// Binds the configured address and starts the worker threads.
    ///
    /// First the process's soft open-file limit (`RLIMIT_NOFILE`) is raised toward its hard limit
    /// to fit ``HTTPServerConfiguration/connectionLimit`` connections; if it cannot be, the limit
    /// in force is lowered (``effectiveConnectionLimit``) and a line in the error log says so.
    ///
    /// - Throws: ``HTTPServerError`` with kind ``HTTPServerError/Kind/addressInUse`` when the port
    ///   is taken, ``HTTPServerError/Kind/invalidAddress`` for an unusable host,
    ///   ``HTTPServerError/Kind/invalidConfiguration`` for a limit or timeout out of range,
    ///   ``HTTPServerError/Kind/invalidTLSCredentials`` when the TLS certificate, key or priorities
    ///   are refused, ``HTTPServerError/Kind/tlsUnavailable`` when libmicrohttpd lacks TLS, and
    ///   ``HTTPServerError/Kind/alreadyStarted`` when called twice.
    public func start() throws {
        try state.withLock { (state: inout State) throws(HTTPServerError) in
            guard case .idle = state else {
                throw HTTPServerError(kind: .alreadyStarted, message: "the server was already started")
            }
            if let problem = configuration.problem { throw HTTPServerError(kind: .invalidConfiguration, message: problem) }
            let fitted = FileDescriptorLimit.fit(connections: configuration.connectionLimit)
            if let note = fitted.note { configuration.errorLog(note) }
            connectionLimitInForce.store(fitted.limit)
            let socket = try ListeningSocket.open(host: configuration.host, port: configuration.port)
            let core = makeCore()
            let daemon = try MHDDaemon(
                core: core, listenDescriptor: socket.descriptor, isIPv6: socket.isIPv6, configuration: daemonConfiguration,
                tls: configuration.tls)
            state = .running(
                Running(
                    current: Generation(id: 0, daemon: daemon, core: core), retiring: [], tls: configuration.tls,
                    isIPv6: socket.isIPv6, nextID: 1))
            liveCores.withLock { $0 = [core] }
            boundPort.store(socket.port)
            housekeeper.start()
        }
    }

    /// The configuration daemons start with: the connection limits fitted to the open-file limit.
    private var daemonConfiguration: HTTPServerConfiguration {
        var fitted = configuration
        fitted.connectionLimit = connectionLimitInForce.load()
        fitted.perAddressConnectionLimit = min(fitted.perAddressConnectionLimit, fitted.connectionLimit)
        return fitted
    }

    private func makeCore() -> ServerCore {
        ServerCore(
            configuration: configuration, responder: responder, connections: connections, endings: endings,
            blockingPool: blockingPool)
    }

    /// The most simultaneous connections in force: ``HTTPServerConfiguration/connectionLimit``,
    /// or fewer if the process may not open that many files (see ``start()``).
    public var effectiveConnectionLimit: Int {
        connectionLimitInForce.load()
    }

    /// Connections that ended abnormally since ``start()``, by reason; every
    /// ``ConnectionEnding/all`` reason is present, zero included, so that metrics can show them.
    public var abnormalConnectionEndings: [ConnectionEnding: Int] {
        endings.totals
    }

    /// Connections open now, over every daemon generation.
    var openConnections: Int {
        connections.count
    }

    /// The port actually bound (the ephemeral one when configured with `0`); `0` before ``start()``.
    public var port: Int {
        boundPort.load()
    }

    /// Requests received but not yet completed (their responses not yet fully sent).
    public var inFlightRequests: Int {
        liveCores.withLock { cores in cores.reduce(0) { $0 + $1.inFlight.load() } }
    }

    /// Daemons replaced by a certificate change that are still serving their connections.
    var retiringDaemons: Int {
        state.withLock { state in
            guard case .running(let running) = state else { return 0 }
            return running.retiring.count
        }
    }

    /// Serves a new certificate (and key) from now on, without closing the listening socket or
    /// interrupting any request: the server keeps its TLS priorities.
    ///
    /// A new libmicrohttpd daemon is started with the new certificate on a duplicate of the
    /// listening socket, so a certificate or key that GnuTLS refuses is reported while the current
    /// one keeps serving. Then the current daemon is quiesced (`MHD_quiesce_daemon`): every
    /// connection accepted after this method returns gets the new certificate. The old daemon
    /// keeps serving the connections it has, answering with `Connection: close`, and is stopped
    /// once they have all closed, or after ``HTTPServerConfiguration/idleTimeoutSeconds`` plus
    /// up to 10 seconds for requests still in flight.
    ///
    /// - Parameters:
    ///   - chainPEM: The server certificate followed by any intermediates, as PEM.
    ///   - privateKeyPEM: The certificate's private key, as unencrypted PEM.
    /// - Throws: ``HTTPServerError`` with kind ``HTTPServerError/Kind/invalidTLSCredentials``
    ///   (the old certificate stays in use), ``HTTPServerError/Kind/notServingTLS`` for a plain
    ///   HTTP server, ``HTTPServerError/Kind/notRunning`` before ``start()`` or after
    ///   ``shutdown(timeout:)``.
    public func replaceCertificate(chainPEM: String, privateKeyPEM: String) throws(HTTPServerError) {
        let retired = try state.withLock { (state: inout State) throws(HTTPServerError) -> (Int, ServerCore) in
            guard case .running(var running) = state else {
                throw HTTPServerError(kind: .notRunning, message: "the server is not running")
            }
            guard var tls = running.tls else {
                throw HTTPServerError(kind: .notServingTLS, message: "the server serves plain HTTP; configure TLS to start with")
            }
            tls.certificateChainPEM = chainPEM
            tls.privateKeyPEM = privateKeyPEM
            let descriptor = try ListeningSocket.duplicate(running.current.daemon.listenDescriptor)
            let core = makeCore()
            let daemon = try MHDDaemon(
                core: core, listenDescriptor: descriptor, isIPv6: running.isIPv6, configuration: daemonConfiguration, tls: tls)
            let previous = running.current
            previous.core.draining.store(true)
            previous.daemon.quiesce()
            running.retiring.append(previous)
            running.current = Generation(id: running.nextID, daemon: daemon, core: core)
            running.nextID += 1
            running.tls = tls
            state = .running(running)
            liveCores.withLock { $0.append(core) }
            return (previous.id, previous.core)
        }
        retire(generation: retired.0, core: retired.1)
    }

    /// Stops gracefully: new connections are refused at once (`MHD_quiesce_daemon`, then the
    /// listening socket is closed), requests in flight may finish for up to `timeout` seconds and
    /// get `Connection: close`, then every connection is closed (`MHD_stop_daemon`). A handler
    /// still running after `timeout` is waited for, since a thread cannot be interrupted.
    /// Safe to call more than once and from several threads; later calls return once stopped.
    public func shutdown(timeout: Double = 10) {
        state.withLock { state in
            guard case .running(let running) = state else {
                state = .stopped
                return
            }
            let generations = running.all
            for generation in generations {
                generation.core.draining.store(true)
                generation.daemon.closeListener()
            }
            let deadline = ContinuousClock.now + .milliseconds(Int(max(0, timeout) * 1000))
            while generations.contains(where: { $0.core.inFlight.load() > 0 }) && ContinuousClock.now < deadline {
                usleep(2_000)
            }
            for generation in generations { generation.daemon.stop() }
            state = .stopped
        }
        liveCores.withLock { $0 = [] }
        housekeeper.stop()
        blockingPool.stop()
    }

    /// Stops a retired generation on a thread of its own once its connections have closed, or
    /// once the idle timeout has passed and its requests have finished (10 seconds more at most).
    private func retire(generation id: Int, core: ServerCore) {
        let idle = Duration.seconds(max(1, configuration.idleTimeoutSeconds))
        let thread = Thread { [weak self] in
            let idleDeadline = ContinuousClock.now + idle
            let finalDeadline = idleDeadline + .seconds(10)
            while core.openConnections.load() > 0 {
                let now = ContinuousClock.now
                if now > finalDeadline || (now > idleDeadline && core.inFlight.load() == 0) { break }
                usleep(10_000)
            }
            self?.stopRetired(generation: id)
        }
        thread.name = "latch-http-retire"
        thread.start()
    }

    private func stopRetired(generation id: Int) {
        state.withLock { state in
            guard case .running(var running) = state, let index = running.retiring.firstIndex(where: { $0.id == id }) else {
                return  // already stopped by shutdown
            }
            let generation = running.retiring.remove(at: index)
            state = .running(running)
            generation.daemon.stop()
            liveCores.withLock { cores in cores.removeAll { $0 === generation.core } }
        }
    }
}
