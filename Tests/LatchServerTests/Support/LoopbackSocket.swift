import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TCP socket connected to `127.0.0.1:port`, for tests that write raw bytes.
enum LoopbackSocket {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The connected descriptor; the caller closes it.
    /// - Parameters:
    ///   - source: the local IPv4 address to connect from (loopback answers on all of 127/8, so
    ///     `"127.0.0.2"` is a second client as far as the server can tell); `nil` lets the kernel
    ///     choose.
    ///   - timeoutSeconds: send and receive timeout (`SO_SNDTIMEO`, `SO_RCVTIMEO`); `nil` for none.
    static func connect(port: Int, from source: String? = nil, timeoutSeconds: Int? = nil) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket() failed") }
        if let timeoutSeconds {
            var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
            for option in [SO_RCVTIMEO, SO_SNDTIMEO] {
                _ = setsockopt(descriptor, SOL_SOCKET, option, &timeout, socklen_t(MemoryLayout<timeval>.size))
            }
        }
        if let source {
            var local = address(source, port: 0)
            guard call(Glibc.bind, descriptor, &local) == 0 else {
                close(descriptor)
                throw Failure(description: "cannot bind \(source)")
            }
        }
        var remote = address("127.0.0.1", port: port)
        guard call(Glibc.connect, descriptor, &remote) == 0 else {
            close(descriptor)
            throw Failure(description: "cannot connect to 127.0.0.1:\(port)")
        }
        return descriptor
    }

    private static func address(_ host: String, port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr(host)
        return address
    }

    /// Calls `bind` or `connect` with `address`.
    private static func call(
        _ function: (Int32, UnsafePointer<sockaddr>?, socklen_t) -> Int32, _ descriptor: Int32, _ address: inout sockaddr_in
    ) -> Int32 {
        withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                function(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
    }
}
