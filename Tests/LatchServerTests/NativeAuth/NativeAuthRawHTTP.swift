import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Sends one HTTP/1.1 request byte for byte over a loopback socket, for requests URLSession will not
/// send as written (it adds a `Content-Type` to every body).
enum NativeAuthRawHTTP {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Sends `head` (request line and headers, without the blank line) and `body` to
    /// `127.0.0.1:port`; returns the status and the JSON body of the answer.
    static func send(port: Int, head: String, body: Data) throws -> (status: Int, json: [String: Any]) {
        let fd = try LoopbackSocket.connect(port: port)
        defer { close(fd) }
        let request = Array((head + "\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n").utf8) + Array(body)
        var sent = 0
        while sent < request.count {
            let written = request[sent...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard written > 0 else { throw Failure(description: "write() failed") }
            sent += written
        }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            response.append(contentsOf: buffer[0..<count])
        }
        let text = String(decoding: response, as: UTF8.self)
        guard let statusLine = text.split(separator: "\r\n").first,
            let status = Int(statusLine.split(separator: " ").dropFirst().first ?? ""),
            let split = text.range(of: "\r\n\r\n")
        else { throw Failure(description: "malformed response: \(text.prefix(200))") }
        let json = (try? JSONSerialization.jsonObject(with: Data(text[split.upperBound...].utf8))) as? [String: Any] ?? [:]
        return (status, json)
    }
}
