internal import CMicroHTTPD

/// Owns one running libmicrohttpd daemon: starts it on a listening socket, quiesces it, stops it.
/// Part of the private libmicrohttpd wrapper; its interface carries no C types.
///
/// Flags (libmicrohttpd manual, "Starting and stopping the server"):
/// `MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL | MHD_USE_ITC | MHD_USE_ERROR_LOG` with
/// `MHD_OPTION_THREAD_POOL_SIZE`: a pool of workers, each polling its own connections and the
/// shared listening socket. `MHD_USE_ITC` is what lets `MHD_quiesce_daemon` wake the workers.
///
/// `poll(2)` rather than epoll: with `MHD_USE_EPOLL`, libmicrohttpd 0.9.75 misses end-of-file when a
/// client's last bytes and its FIN arrive together (a request followed by `shutdown(SHUT_WR)`), so
/// such connections, and their in-flight count, linger until the idle timeout. Throughput under
/// `wrk -c32` was the same within noise; each worker polls only its share of the connections.
final class MHDDaemon {
    private let handle: OpaquePointer
    private let core: Unmanaged<ServerCore>
    private var listenDescriptor: Int32?

    /// Starts serving on `listenDescriptor`, which the daemon then owns.
    init(core: ServerCore, listenDescriptor: Int32, isIPv6: Bool, configuration: HTTPServerConfiguration) throws(HTTPServerError)
    {
        guard configuration.threadCount >= 1, configuration.maxBodyBytes >= 0, configuration.maxHeaderBytes >= 256,
            configuration.connectionLimit >= 1, configuration.perAddressConnectionLimit >= 0,
            configuration.idleTimeoutSeconds >= 0, configuration.maxDiscardedBodyBytes >= 0,
            configuration.discardTimeoutSeconds >= 0, configuration.discardTimeoutSeconds <= 86_400
        else {
            throw HTTPServerError(kind: .invalidConfiguration, message: "thread count, limits and timeout must be positive")
        }
        let retainedCore = Unmanaged.passRetained(core)
        let cls = retainedCore.toOpaque()
        var flags =
            MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_POLL.rawValue | MHD_USE_ITC.rawValue
            | MHD_USE_ERROR_LOG.rawValue
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
            MHD_OptionItem(option: .END, value: 0, ptr_value: nil),
        ]
        let started: OpaquePointer? = options.withUnsafeMutableBufferPointer { items in
            withVaList([MHD_OPTION.ARRAY.rawValue, items.baseAddress!, MHD_OPTION.END.rawValue]) { arguments in
                MHD_start_daemon_va(flags, 0, nil, nil, MHDRequestHandler.access, cls, arguments)
            }
        }
        guard let started else {
            retainedCore.release()
            throw HTTPServerError(kind: .daemonFailed, message: "libmicrohttpd could not start the daemon (see the error log)")
        }
        handle = started
        self.core = retainedCore
        self.listenDescriptor = listenDescriptor
    }

    /// Stops accepting: removes the listening socket from every worker (`MHD_quiesce_daemon`) and
    /// closes it, so new connection attempts are refused. Open connections keep being served.
    func quiesce() {
        guard listenDescriptor != nil else { return }
        listenDescriptor = nil
        let descriptor = MHD_quiesce_daemon(handle)
        if descriptor >= 0 { ListeningSocket.close(descriptor) }
    }

    /// Stops the daemon: closes every connection and joins the workers (`MHD_stop_daemon`).
    /// A handler still running is waited for. Call once.
    func stop() {
        MHD_stop_daemon(handle)
        core.release()
    }

    private static func address<Function>(of function: Function) -> Int {
        unsafeBitCast(function, to: Int.self)
    }
}
