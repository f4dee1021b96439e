internal import CMicroHTTPD
internal import LatchLocking

#if canImport(Darwin)
    import Darwin
#else
    import Glibc
#endif

/// Owns one running libmicrohttpd daemon: starts it on a listening socket, quiesces it, stops it.
/// Part of the private libmicrohttpd wrapper; its interface carries no C types.
///
/// Flags (libmicrohttpd manual, "Starting and stopping the server"):
/// `MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL | MHD_USE_ITC | MHD_USE_ERROR_LOG` with
/// `MHD_OPTION_THREAD_POOL_SIZE`: a pool of workers, each polling its own connections and the
/// shared listening socket. `MHD_USE_ITC` is what lets `MHD_quiesce_daemon` wake the workers.
/// `MHD_ALLOW_SUSPEND_RESUME` lets a connection be set aside while a blocking-request thread
/// answers it (``HTTPAnswer/blocking(_:)``); the libmicrohttpd manual forbids stopping a daemon
/// with a connection still suspended, so ``stop()`` first waits for those answers.
///
/// `poll(2)` rather than epoll: with `MHD_USE_EPOLL`, libmicrohttpd 0.9.75 misses end-of-file when a
/// client's last bytes and its FIN arrive together (a request followed by `shutdown(SHUT_WR)`), so
/// such connections, and their in-flight count, linger until the idle timeout. Throughput under
/// `wrk -c32` was the same within noise; each worker polls only its share of the connections.
///
/// TLS (`MHD_USE_TLS`): the certificate chain, key and GnuTLS priority string are passed as
/// `MHD_OPTION_HTTPS_MEM_CERT`, `MHD_OPTION_HTTPS_MEM_KEY` and `MHD_OPTION_HTTPS_PRIORITIES`, from
/// C copies this object owns until the daemon is stopped (the key's copy is zeroed then).
///
/// The listening socket is passed in (`MHD_OPTION_LISTEN_SOCKET`) and owned from then on. Once
/// quiesced, libmicrohttpd no longer closes it; the libmicrohttpd manual asks that it stay open
/// until `MHD_stop_daemon` returns, which ``stop()`` does unless ``closeListener()`` closed it
/// earlier to refuse new connections at once.
final class MHDDaemon {
    private let handle: OpaquePointer
    private let core: Unmanaged<ServerCore>
    /// The listening socket this daemon accepts on.
    let listenDescriptor: Int32
    private var isQuiesced = false
    private var isListenerClosed = false
    private let ownedStrings: [UnsafeMutablePointer<CChar>]
    private let secretString: UnsafeMutablePointer<CChar>?

    /// Whether this libmicrohttpd was built with TLS support (`MHD_FEATURE_TLS`).
    static var supportsTLS: Bool {
        MHD_is_feature_supported(MHD_FEATURE.FEATURE_TLS) == MHD_Result.YES
    }

    /// Starts serving on `listenDescriptor`, which the daemon then owns, even when this throws.
    init(
        core: ServerCore, listenDescriptor: Int32, isIPv6: Bool, configuration: HTTPServerConfiguration,
        tls: HTTPServerConfiguration.TLS?
    ) throws(HTTPServerError) {
        if let problem = configuration.problem {
            ListeningSocket.close(listenDescriptor)
            throw HTTPServerError(kind: .invalidConfiguration, message: problem)
        }
        if let tls {
            do throws(HTTPServerError) {
                guard Self.supportsTLS else {
                    throw HTTPServerError(kind: .tlsUnavailable, message: "this libmicrohttpd was built without TLS support")
                }
                try tls.validate()
            } catch {
                ListeningSocket.close(listenDescriptor)
                throw error
            }
        }
        let retainedCore = Unmanaged.passRetained(core)
        let cls = retainedCore.toOpaque()
        var flags =
            MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_POLL.rawValue | MHD_USE_ITC.rawValue
            | MHD_USE_ERROR_LOG.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
        if isIPv6 { flags |= MHD_USE_IPv6.rawValue }

        var options: [MHD_OptionItem] = [
            // The logger goes first so that libmicrohttpd reports problems with later options through it.
            MHD_OptionItem(option: .EXTERNAL_LOGGER, value: Self.address(of: MHDRequestHandler.logger), ptr_value: cls),
            MHD_OptionItem(option: .LISTEN_SOCKET, value: Int(listenDescriptor), ptr_value: nil),
            MHD_OptionItem(option: .THREAD_POOL_SIZE, value: configuration.threadCount, ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_LIMIT, value: configuration.connectionLimit, ptr_value: nil),
            MHD_OptionItem(option: .PER_IP_CONNECTION_LIMIT, value: configuration.perAddressConnectionLimit, ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: configuration.idleTimeoutSeconds, ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_MEMORY_LIMIT, value: configuration.maxHeaderBytes + 16 * 1024, ptr_value: nil),
            MHD_OptionItem(option: .URI_LOG_CALLBACK, value: Self.address(of: MHDRequestHandler.uriLog), ptr_value: cls),
            MHD_OptionItem(option: .NOTIFY_COMPLETED, value: Self.address(of: MHDRequestHandler.completed), ptr_value: cls),
            MHD_OptionItem(
                option: .NOTIFY_CONNECTION, value: Self.address(of: MHDRequestHandler.connectionNotice), ptr_value: cls),
        ]
        var strings: [UnsafeMutablePointer<CChar>] = []
        var secret: UnsafeMutablePointer<CChar>?
        if let tls {
            let copies = [tls.certificateChainPEM, tls.priorities, tls.privateKeyPEM].map { (text: String) in strdup(text) }
            guard case let (certificate?, priorities?, key?) = (copies[0], copies[1], copies[2]) else {
                Self.release(copies.compactMap { $0 }, secret: nil)
                retainedCore.release()
                ListeningSocket.close(listenDescriptor)
                throw HTTPServerError(kind: .daemonFailed, message: "out of memory copying the TLS settings")
            }
            flags |= MHD_USE_TLS.rawValue
            strings = [certificate, priorities]
            secret = key
            options += [
                MHD_OptionItem(option: .HTTPS_MEM_CERT, value: 0, ptr_value: UnsafeMutableRawPointer(certificate)),
                MHD_OptionItem(option: .HTTPS_MEM_KEY, value: 0, ptr_value: UnsafeMutableRawPointer(key)),
                MHD_OptionItem(option: .HTTPS_PRIORITIES, value: 0, ptr_value: UnsafeMutableRawPointer(priorities)),
            ]
        }
        options.append(MHD_OptionItem(option: .END, value: 0, ptr_value: nil))
        let started: OpaquePointer? = options.withUnsafeMutableBufferPointer { items in
            withVaList([MHD_OPTION.ARRAY.rawValue, items.baseAddress!, MHD_OPTION.END.rawValue]) { arguments in
                MHD_start_daemon_va(flags, 0, nil, nil, MHDRequestHandler.access, cls, arguments)
            }
        }
        let startupLog = core.startupLog.withLock { log in
            defer { log = nil }
            return log ?? []
        }
        guard let started else {
            retainedCore.release()
            Self.release(strings, secret: secret)
            ListeningSocket.close(listenDescriptor)
            throw Self.startFailure(tls: tls, log: startupLog)
        }
        handle = started
        self.core = retainedCore
        self.listenDescriptor = listenDescriptor
        self.ownedStrings = strings
        self.secretString = secret
    }

    /// Stops accepting: removes the listening socket from every worker (`MHD_quiesce_daemon`).
    /// Open connections keep being served. The socket stays open (new connections wait in its
    /// backlog, or are taken by another daemon sharing it) until ``closeListener()`` or ``stop()``.
    func quiesce() {
        guard !isQuiesced else { return }
        isQuiesced = true
        _ = MHD_quiesce_daemon(handle)
    }

    /// Quiesces and closes the listening socket, so that new connection attempts are refused
    /// (unless another daemon shares the socket).
    func closeListener() {
        quiesce()
        guard !isListenerClosed else { return }
        isListenerClosed = true
        ListeningSocket.close(listenDescriptor)
    }

    /// Stops the daemon: closes every connection and joins the workers (`MHD_stop_daemon`), then
    /// closes the listening socket. A handler still running is waited for, on a worker or on a
    /// blocking-request thread (whose connection must be resumed before libmicrohttpd stops).
    /// Call once.
    func stop() {
        quiesce()
        core.takeUnretainedValue().closeSuspensions()
        MHD_stop_daemon(handle)
        if !isListenerClosed {
            isListenerClosed = true
            ListeningSocket.close(listenDescriptor)
        }
        core.release()
        Self.release(ownedStrings, secret: secretString)
    }

    /// The error for a daemon that did not start, naming what libmicrohttpd logged.
    private static func startFailure(tls: HTTPServerConfiguration.TLS?, log: [String]) -> HTTPServerError {
        let detail = log.isEmpty ? "see the error log" : log.joined(separator: "; ")
        let mentionsTLS = log.contains { line in
            let lower = line.lowercased()
            return ["tls", "x509", "certificate", "key", "priorit"].contains { lower.contains($0) }
        }
        if tls != nil && mentionsTLS {
            return HTTPServerError(
                kind: .invalidTLSCredentials, message: "the TLS certificate, key or priorities were refused: \(detail)")
        }
        return HTTPServerError(kind: .daemonFailed, message: "libmicrohttpd could not start the daemon: \(detail)")
    }

    /// Frees C strings from `strdup`, zeroing `secret` first.
    private static func release(_ strings: [UnsafeMutablePointer<CChar>], secret: UnsafeMutablePointer<CChar>?) {
        for string in strings { free(string) }
        if let secret {
            explicit_bzero(secret, strlen(secret))
            free(secret)
        }
    }

    private static func address<Function>(of function: Function) -> Int {
        unsafeBitCast(function, to: Int.self)
    }
}
