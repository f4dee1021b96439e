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
    static func connect(port: Int) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket() failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(descriptor)
            throw Failure(description: "cannot connect to 127.0.0.1:\(port)")
        }
        return descriptor
    }
}
