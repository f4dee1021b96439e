import LatchHTTP

#if canImport(Glibc)
    import Glibc
#endif

/// A response as read off the wire.
struct RawHTTPResponse {
    var status: Int
    var headers: HTTPHeaders
    var body: [UInt8]
    var text: String { String(decoding: body, as: UTF8.self) }
}

enum RawHTTPError: Error, Equatable {
    case connectFailed(Int32)
    case closedEarly
    case malformed
}

/// A deliberately simple blocking HTTP/1.1 client over a raw socket, for exact control over bytes.
final class RawHTTPClient {
    let descriptor: Int32
    private var buffer: [UInt8] = []

    /// Connects to 127.0.0.1:`port` with 5 s send/receive timeouts, from `source` (an IPv4
    /// address such as `"127.0.0.2"`: loopback answers on all of 127/8) when given.
    init(port: Int, from source: String? = nil) throws(RawHTTPError) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw .connectFailed(errno) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var local = Self.address(source ?? "0.0.0.0", port: 0)
        var remote = Self.address("127.0.0.1", port: port)
        let bound = source == nil || Self.call(Glibc.bind, descriptor, &local) == 0
        if !bound || Self.call(Glibc.connect, descriptor, &remote) != 0 {
            let code = errno
            Glibc.close(descriptor)
            throw .connectFailed(code)
        }
        self.descriptor = descriptor
    }

    private static func address(_ host: String, port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        _ = inet_pton(AF_INET, host, &address.sin_addr)
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

    /// Changes the receive timeout (5 s by default).
    func setReceiveTimeout(milliseconds: Int) {
        var timeout = timeval(tv_sec: milliseconds / 1000, tv_usec: Int((milliseconds % 1000) * 1000))
        _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit {
        Glibc.close(descriptor)
    }

    /// Writes all of `bytes`; returns false if the peer closed or reset.
    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                Glibc.send(descriptor, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
            }
            if written <= 0 { return false }
            offset += written
        }
        return true
    }

    @discardableResult
    func write(_ text: String) -> Bool { write(Array(text.utf8)) }

    /// Writes a request head (and body) in HTTP/1.1 syntax.
    func sendRequest(
        _ method: String, _ target: String, headers: [(String, String)], body: [UInt8], close: Bool
    ) {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        let hasFraming = headers.contains { ["content-length", "transfer-encoding"].contains($0.0.lowercased()) }
        if !hasFraming && (!body.isEmpty || method == "POST" || method == "PUT") {
            head += "Content-Length: \(body.count)\r\n"
        }
        if close { head += "Connection: close\r\n" }
        head += "\r\n"
        write(Array(head.utf8) + body)
    }

    /// Reads one response; `headOnly` for responses to HEAD.
    func readResponse(headOnly: Bool = false) throws(RawHTTPError) -> RawHTTPResponse {
        let headEnd = try readUntilHeadEnd()
        let head = String(decoding: buffer[..<headEnd], as: UTF8.self)
        buffer.removeFirst(headEnd + 4)
        var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        guard !lines.isEmpty else { throw .malformed }
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw .malformed }
        var headers = HTTPHeaders()
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.add(String(line[..<colon]), String(line[line.index(after: colon)...].drop { $0 == " " }))
        }
        var body: [UInt8] = []
        if headOnly || status == 204 || status == 304 || (100..<200).contains(status) {
            body = []
        } else if let length = headers["content-length"].flatMap({ Int($0) }) {
            while buffer.count < length {
                guard try fill() else { throw .closedEarly }
            }
            body = Array(buffer[..<length])
            buffer.removeFirst(length)
        } else {
            while try fill() {}
            body = buffer
            buffer = []
        }
        return RawHTTPResponse(status: status, headers: headers, body: body)
    }

    /// Half-closes the connection: the server reads end-of-file after what was written.
    func finishWriting() {
        _ = Glibc.shutdown(descriptor, Int32(SHUT_WR))
    }

    /// Makes closing this client reset the connection (`SO_LINGER` with a zero timeout), as a
    /// client that crashes or gives up does.
    func resetOnClose() {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
    }

    /// Waits up to `timeout` for the server to close the connection, discarding anything it
    /// sends, and returns how long that took; `nil` if the connection is still open.
    func waitForClose(timeout: Duration) -> Duration? {
        let start = ContinuousClock.now
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let left = timeout - (ContinuousClock.now - start)
            guard left > .zero else { return nil }
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(max(1, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
            guard poll(&entry, 1, milliseconds) > 0 else { continue }
            let count = chunk.withUnsafeMutableBytes { Glibc.recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count == 0 || (count < 0 && errno != EAGAIN && errno != EINTR) { return ContinuousClock.now - start }
        }
    }

    /// Reads and returns everything until the server closes the connection.
    func readToEnd() -> [UInt8] {
        while (try? fill()) == true {}
        defer { buffer = [] }
        return buffer
    }

    /// Whether the server closed the connection (reads EOF or reset within the timeout).
    func isClosedByPeer() -> Bool {
        (try? fill()) != true
    }

    private func readUntilHeadEnd() throws(RawHTTPError) -> Int {
        while true {
            if let end = headEnd() { return end }
            guard try fill() else { throw .closedEarly }
        }
    }

    private func headEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        for index in 0...(buffer.count - 4)
        where buffer[index] == 13 && buffer[index + 1] == 10 && buffer[index + 2] == 13 && buffer[index + 3] == 10 {
            return index
        }
        return nil
    }

    /// Reads more bytes; false on EOF or error.
    private func fill() throws(RawHTTPError) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let count = chunk.withUnsafeMutableBytes { Glibc.recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return false }
        buffer.append(contentsOf: chunk[..<count])
        return true
    }

    /// One request on a fresh connection with `Connection: close`.
    static func exchange(
        port: Int, method: String, target: String, headers: [(String, String)] = [], body: [UInt8] = []
    ) throws(RawHTTPError) -> RawHTTPResponse {
        let client = try RawHTTPClient(port: port)
        client.sendRequest(method, target, headers: headers, body: body, close: true)
        return try client.readResponse(headOnly: method == "HEAD")
    }
}
