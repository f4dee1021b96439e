import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A blocking HTTP/1.1 client on one kept-alive connection from a chosen loopback source address,
/// for tests in which the server must see distinct peers over real sockets (URLSession cannot
/// choose its source address). Not thread-safe: one per thread.
final class SourceBoundClient {
    struct Failure: Error, CustomStringConvertible {
        let description: String
        var timedOut = false
    }

    /// A response: status, header fields by lowercased name, and the JSON object body.
    struct Answer {
        let status: Int
        let headers: [String: String]
        let json: [String: Any]

        func string(_ key: String) -> String? { json[key] as? String }
    }

    private let port: Int
    private let source: String
    private let timeoutSeconds: Int
    private var descriptor: Int32 = -1
    private var buffer: [UInt8] = []

    /// A client of `127.0.0.1:port` connecting from `source` (e.g. `"127.0.0.2"`); it connects on
    /// first use and again whenever the server has closed the connection, and gives up on a send or
    /// receive after `timeoutSeconds`.
    init(port: Int, source: String, timeoutSeconds: Int = 10) {
        self.port = port
        self.source = source
        self.timeoutSeconds = timeoutSeconds
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// POSTs `form` (URL-encoded) to `target`, e.g. `/default/oauth2/v2.0/initiate`.
    func post(_ target: String, form: [String: String]) throws -> Answer {
        let body = form.sorted { $0.key < $1.key }.map { "\(Self.encode($0.key))=\(Self.encode($0.value))" }
            .joined(separator: "&")
        let request = Array(
            ("POST \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                + "Content-Length: \(body.utf8.count)\r\n\r\n" + body).utf8)
        // A kept-alive connection the server closed meanwhile fails before any answer: once more
        // on a fresh one. A timeout is not retried.
        if descriptor >= 0 {
            do {
                return try exchange(request)
            } catch let failure as Failure where failure.timedOut {
                throw failure
            } catch {
                disconnect()
            }
        }
        return try exchange(request)
    }

    private func exchange(_ request: [UInt8]) throws -> Answer {
        if descriptor < 0 {
            descriptor = try LoopbackSocket.connect(port: port, from: source, timeoutSeconds: timeoutSeconds)
            buffer = []
        }
        var sent = 0
        while sent < request.count {
            let written = request[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { throw Failure(description: "send() failed") }
            sent += written
        }
        let headEnd = try readUntil { Self.headEnd(in: $0) }
        let head = String(decoding: buffer[..<headEnd], as: UTF8.self)
        buffer.removeFirst(headEnd + 4)
        var lines = head.split(separator: "\r\n")
        guard !lines.isEmpty, let status = Int(lines.removeFirst().split(separator: " ").dropFirst().first ?? "") else {
            throw Failure(description: "malformed response head: \(head.prefix(200))")
        }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = String(line[line.index(after: colon)...].drop { $0 == " " })
        }
        let length = headers["content-length"].flatMap(Int.init) ?? 0
        _ = try readUntil { $0.count >= length ? length : nil }
        let body = Data(buffer.prefix(length))
        buffer.removeFirst(length)
        if headers["connection"]?.lowercased() == "close" { disconnect() }
        let json = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
        return Answer(status: status, headers: headers, json: json)
    }

    /// Reads until `found` returns a value for the bytes buffered so far.
    private func readUntil(_ found: ([UInt8]) -> Int?) throws -> Int {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            if let value = found(buffer) { return value }
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                throw Failure(description: "no answer within \(timeoutSeconds) s", timedOut: true)
            }
            guard count > 0 else { throw Failure(description: "connection closed") }
            buffer.append(contentsOf: chunk[0..<count])
        }
    }

    private func disconnect() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        buffer = []
    }

    private static func headEnd(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }

    private static func encode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
