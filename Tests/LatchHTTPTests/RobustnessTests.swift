import LatchLocking
import Testing

@testable import LatchHTTP

#if canImport(Glibc)
    import Glibc
#endif

/// SplitMix64, so failures are reproducible.
private struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite struct RobustnessTests {
    @Test func survivesGarbageAndMutatedRequests() throws {
        let server = try TestServer(maxBodyBytes: 512, maxHeaderBytes: 1024) { router in
            router.add("POST", "/{a}/form") { request in .text(200, "\(try request.formParameters().count)") }
            router.add("POST", "/{a}/json") { request in .text(200, "\(try request.jsonObject().count)") }
            router.add("GET", "/ok") { _ in .text(200, "ok") }
        }
        let port = server.port
        let valid: [[UInt8]] = [
            Array(
                "POST /t/form?x=%41 HTTP/1.1\r\nHost: h\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 11\r\nclient-request-id: abc\r\n\r\na=1&b=%C3%A9"
                    .utf8),
            Array(
                "POST /t/json HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n9\r\n{\"a\":[1]}\r\n0\r\n\r\n"
                    .utf8),
            Array("GET http://h/ok?q HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\n\r\n".utf8),
        ]
        let statuses = Locked<[Int: Int]>([:])
        Background.concurrentPerform(iterations: 160, threads: 8) { index in
            var random = SeededGenerator(state: UInt64(index))
            var bytes: [UInt8]
            if index % 4 == 0 {
                bytes = (0..<Int.random(in: 0...600, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            } else {
                bytes = valid[index % valid.count]
                for _ in 0..<Int.random(in: 1...6, using: &random) {
                    let position = Int.random(in: 0..<bytes.count, using: &random)
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0: bytes[position] = UInt8.random(in: 0...255, using: &random)
                    case 1:
                        bytes.insert(
                            contentsOf: [UInt8](repeating: bytes[position], count: Int.random(in: 1...300, using: &random)),
                            at: position)
                    default: bytes.remove(at: position)
                    }
                }
            }
            guard let client = try? RawHTTPClient(port: port) else { return }
            // libmicrohttpd's epoll mode notices a half-closed client only at the idle timeout,
            // so read for a short while instead of waiting for end-of-file.
            client.setReceiveTimeout(milliseconds: 200)
            client.write(bytes)
            client.finishWriting()
            let reply = client.readToEnd()
            let status = reply.count >= 12 ? Int(String(decoding: reply[9..<12], as: UTF8.self)) ?? -1 : 0
            statuses.withLock { $0[status, default: 0] += 1 }
        }
        #expect(statuses.withLock { $0.keys.allSatisfy { $0 == 0 || (100...599).contains($0) } })
        #expect(try server.send("GET", "/ok").text == "ok")
        // Completion is reported just after the last response byte is written, so allow a moment.
        let deadline = ContinuousClock.now + .seconds(2)
        while server.server.inFlightRequests > 0 && ContinuousClock.now < deadline { usleep(5_000) }
        #expect(server.server.inFlightRequests == 0)
    }

    @Test func absoluteFormTargets() {
        #expect(HTTPRequest.splitTarget("http://h:1/a/b?c=d") == ("/a/b", "c=d"))
        #expect(HTTPRequest.splitTarget("https://h") == ("/", nil))
        #expect(HTTPRequest.splitTarget("http://h?x=1") == ("/", "x=1"))
        #expect(HTTPRequest.splitTarget("/p?") == ("/p", ""))
        #expect(HTTPRequest.splitTarget("*") == ("*", nil))
    }

    @Test func percentDecoding() {
        #expect(PercentEncoding.decodeLossy("/a%2Fb%zz%F0%9F%98%80%FF", plusAsSpace: false) == "/a/b%zz😀\u{FFFD}")
        #expect(PercentEncoding.decode(Array("a+b%20".utf8), plusAsSpace: true, strict: true) == Array("a b ".utf8))
        #expect(PercentEncoding.decode(Array("%".utf8), plusAsSpace: true, strict: true) == nil)
    }
}
