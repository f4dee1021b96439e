#if canImport(Darwin)
    import Darwin
#else
    import Glibc
#endif

/// Creates the listening TCP socket that libmicrohttpd is handed via `MHD_OPTION_LISTEN_SOCKET`,
/// so that bind failures surface as precise Swift errors and the bound port is known at once.
/// Socket structures stay inside this file.
enum ListeningSocket {
    /// A bound, listening, non-blocking socket and its actual port.
    struct Bound {
        let descriptor: Int32
        let port: Int
        let isIPv6: Bool
    }

    static func open(host: String, port: Int, backlog: Int32 = 1024) throws(HTTPServerError) -> Bound {
        guard (0...65_535).contains(port) else {
            throw HTTPServerError(kind: .invalidConfiguration, message: "port \(port) is outside 0...65535")
        }
        let address = host == "localhost" ? "127.0.0.1" : host
        var v4 = sockaddr_in()
        var v6 = sockaddr_in6()
        let isIPv6: Bool
        if inet_pton(AF_INET, address, &v4.sin_addr) == 1 {
            isIPv6 = false
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = in_port_t(UInt16(port).bigEndian)
        } else if inet_pton(AF_INET6, address, &v6.sin6_addr) == 1 {
            isIPv6 = true
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = in_port_t(UInt16(port).bigEndian)
        } else {
            throw HTTPServerError(kind: .invalidAddress, message: "host '\(host)' is not a numeric IP address or localhost")
        }

        #if canImport(Darwin)
            let streamType = SOCK_STREAM
        #else
            let streamType = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        #endif
        let descriptor = socket(isIPv6 ? AF_INET6 : AF_INET, streamType, 0)
        guard descriptor >= 0 else {
            throw HTTPServerError(kind: .socketFailed, message: "socket() failed: \(describe(errno))")
        }
        var one: Int32 = 1
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        if isIPv6 {
            _ = setsockopt(descriptor, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &one, socklen_t(MemoryLayout<Int32>.size))
        }

        let bindResult: Int32 =
            isIPv6
            ? withUnsafePointer(to: &v6) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
            : withUnsafePointer(to: &v4) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        if bindResult != 0 {
            let code = errno
            close(descriptor)
            if code == EADDRINUSE {
                throw HTTPServerError(kind: .addressInUse, message: "cannot listen on \(host):\(port): address already in use")
            }
            throw HTTPServerError(kind: .socketFailed, message: "cannot bind \(host):\(port): \(describe(code))")
        }
        guard listen(descriptor, backlog) == 0 else {
            let code = errno
            close(descriptor)
            throw HTTPServerError(kind: .socketFailed, message: "cannot listen on \(host):\(port): \(describe(code))")
        }
        let flags = fcntl(descriptor, F_GETFL, 0)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
        return Bound(descriptor: descriptor, port: boundPort(descriptor, isIPv6: isIPv6) ?? port, isIPv6: isIPv6)
    }

    /// A second descriptor for the same listening socket (close-on-exec), so that a second
    /// daemon can accept on it while the first is retired.
    static func duplicate(_ descriptor: Int32) throws(HTTPServerError) -> Int32 {
        let copy = fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
        guard copy >= 0 else {
            throw HTTPServerError(kind: .socketFailed, message: "cannot duplicate the listening socket: \(describe(errno))")
        }
        return copy
    }

    static func close(_ descriptor: Int32) {
        #if canImport(Darwin)
            _ = Darwin.close(descriptor)
        #else
            _ = Glibc.close(descriptor)
        #endif
    }

    private static func boundPort(_ descriptor: Int32, isIPv6: Bool) -> Int? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard result == 0 else { return nil }
        return withUnsafePointer(to: &storage) { pointer in
            isIPv6
                ? pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
                : pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
        }
    }

    private static func describe(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return "\(String(cString: text)) (errno \(code))"
    }
}
