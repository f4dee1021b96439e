internal import CMicroHTTPD

#if canImport(Darwin)
    import Darwin
#else
    import Glibc
#endif

/// One libmicrohttpd connection, as the access handler sees it: read the request head, learn the
/// peer address, queue a response. Part of the private libmicrohttpd wrapper: its C types never
/// leave the `MHD*.swift` files.
struct MHDConnection: @unchecked Sendable {  // a handle; only suspend/resume cross threads, as libmicrohttpd allows
    let handle: OpaquePointer

    /// Appends every request header field to `context.headers` and returns the size of the head
    /// (field names and values plus `": "` and CRLF each), using `MHD_get_connection_values_n`.
    func collectHeaders(into context: RequestContext) -> Int {
        var collector = HeaderCollector(context: Unmanaged.passUnretained(context))
        _ = withUnsafeMutablePointer(to: &collector) { pointer in
            MHD_get_connection_values_n(
                handle, .HEADER_KIND,
                { cls, _, key, keySize, value, valueSize in
                    guard let cls, let key else { return MHD_Result.YES }
                    let collector = cls.assumingMemoryBound(to: HeaderCollector.self)
                    let name = MHDConnection.string(key, keySize)
                    let text = value.map { MHDConnection.string($0, valueSize) } ?? ""
                    collector.pointee.context._withUnsafeGuaranteedRef { $0.headers.add(name, text) }
                    collector.pointee.total += keySize + valueSize + 4
                    return MHD_Result.YES
                },
                pointer)
        }
        return collector.total
    }

    /// The peer's IP address as text, or `""`.
    ///
    /// `MHD_get_connection_info` is variadic, so Swift cannot import it; it is called through a
    /// non-variadic function pointer. That is sound on the SysV x86-64 and AArch64 ABIs (named
    /// arguments are passed identically) and the function reads no variadic arguments for
    /// `MHD_CONNECTION_INFO_CLIENT_ADDRESS`, `_CONNECTION_FD` or `_SOCKET_CONTEXT`.
    func clientAddress() -> String {
        guard let getInfo = MHDConnection.getConnectionInfo,
            let info = getInfo(handle, MHD_ConnectionInfoType.CONNECTION_INFO_CLIENT_ADDRESS.rawValue),
            let address = info.pointee.client_addr
        else { return "" }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                var bytes = v4.pointee.sin_addr
                _ = inet_ntop(AF_INET, &bytes, &text, socklen_t(text.count))
            }
        case AF_INET6:
            address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                var bytes = v6.pointee.sin6_addr
                _ = inet_ntop(AF_INET6, &bytes, &text, socklen_t(text.count))
            }
        default:
            return ""
        }
        return text.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return "" }
            return String(cString: base)
        }
    }

    /// The socket's descriptor (`MHD_CONNECTION_INFO_CONNECTION_FD`), or -1.
    func descriptor() -> Int32 {
        guard let getInfo = MHDConnection.getConnectionInfo,
            let info = getInfo(handle, MHD_ConnectionInfoType.CONNECTION_INFO_CONNECTION_FD.rawValue)
        else { return -1 }
        return info.pointee.connect_fd
    }

    /// Takes the connection out of its worker's polling (`MHD_suspend_connection`); only from the
    /// access handler, and only on a daemon started with `MHD_ALLOW_SUSPEND_RESUME`.
    func suspend() {
        MHD_suspend_connection(handle)
    }

    /// Hands a suspended connection back to its worker (`MHD_resume_connection`), from any thread;
    /// libmicrohttpd then calls the access handler again, on the worker.
    func resume() {
        MHD_resume_connection(handle)
    }

    /// The ``ConnectionState`` kept in the socket context when the connection was accepted
    /// (`MHD_CONNECTION_INFO_SOCKET_CONTEXT`), if any.
    func state() -> ConnectionState? {
        guard let getInfo = MHDConnection.getConnectionInfo,
            let info = getInfo(handle, MHD_ConnectionInfoType.CONNECTION_INFO_SOCKET_CONTEXT.rawValue),
            let context = info.pointee.socket_context
        else { return nil }
        return Unmanaged<ConnectionState>.fromOpaque(context).takeUnretainedValue()
    }

    /// Builds a libmicrohttpd response from `response` (body copied with `RESPMEM_MUST_COPY`), adds
    /// its headers plus `x-request-id` and, when known, `client-request-id`, and queues it.
    /// Returns `false` if libmicrohttpd refused, which the caller turns into closing the connection.
    func queue(_ response: HTTPResponse, context: RequestContext, closeConnection: Bool, log: @Sendable (String) -> Void) -> Bool
    {
        let status = (200...599).contains(response.status) ? response.status : 500
        let created: OpaquePointer? = response.body.withUnsafeBytes { raw in
            MHD_create_response_from_buffer(
                raw.count, raw.baseAddress.map { UnsafeMutableRawPointer(mutating: $0) },
                MHD_ResponseMemoryMode.RESPMEM_MUST_COPY)
        }
        guard let mhdResponse = created else {
            log("libmicrohttpd could not allocate a response for request \(context.requestID)")
            return false
        }
        defer { MHD_destroy_response(mhdResponse) }
        for field in response.headers {
            guard MHDConnection.isAcceptable(name: field.name, value: field.value) else {
                log("request \(context.requestID): dropped response header '\(field.name.prefix(64))' (not allowed or malformed)")
                continue
            }
            if MHD_add_response_header(mhdResponse, field.name, field.value) != MHD_Result.YES {
                log("request \(context.requestID): libmicrohttpd refused response header '\(field.name.prefix(64))'")
            }
        }
        _ = MHD_add_response_header(mhdResponse, "x-request-id", context.requestID)
        if !context.correlationID.isEmpty {
            _ = MHD_add_response_header(mhdResponse, "client-request-id", context.correlationID)
        }
        if closeConnection {
            _ = MHD_add_response_header(mhdResponse, "Connection", "close")
        }
        return MHD_queue_response(handle, UInt32(status), mhdResponse) == MHD_Result.YES
    }

    // MARK: - Helpers

    /// What the header iterator callback accumulates, on the caller's stack.
    private struct HeaderCollector {
        let context: Unmanaged<RequestContext>
        var total = 0
    }

    /// Lossy UTF-8 text for `count` bytes at `pointer` (invalid bytes become U+FFFD; never traps).
    static func string(_ pointer: UnsafePointer<CChar>, _ count: Int) -> String {
        let bytes = UnsafeRawBufferPointer(start: pointer, count: max(0, count))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether a response header may be handed to libmicrohttpd: a token name (RFC 9110 §5.1),
    /// a value without CR, LF or NUL (RFC 9110 §5.5), and not one of the framing headers that
    /// libmicrohttpd computes itself (`Content-Length`, `Transfer-Encoding`, RFC 9112 §6).
    static func isAcceptable(name: String, value: String) -> Bool {
        guard !name.isEmpty, name.utf8.allSatisfy(isTokenCharacter) else { return false }
        guard !value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }) else { return false }
        return !HTTPHeaders.namesMatch(name, "Content-Length") && !HTTPHeaders.namesMatch(name, "Transfer-Encoding")
    }

    private static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
            UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
            UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    private typealias GetConnectionInfo = @convention(c) (OpaquePointer?, UInt32) -> UnsafePointer<MHD_ConnectionInfo>?

    /// `MHD_get_connection_info`, looked up once in the already-loaded libmicrohttpd.
    private static let getConnectionInfo: GetConnectionInfo? = {
        #if canImport(Darwin)
            let everywhere = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
        #else
            let everywhere = UnsafeMutableRawPointer(bitPattern: 0)  // RTLD_DEFAULT
        #endif
        guard let symbol = dlsym(everywhere, "MHD_get_connection_info") else { return nil }
        return unsafeBitCast(symbol, to: GetConnectionInfo.self)
    }()
}
