import Foundation
import Testing

@testable import LatchHTTP

/// Refusals sent before the body is read must reach clients that write the whole body before
/// reading (RFC 9112 §9.6), as Python's `urllib` does, without letting a client hold a
/// connection or make the server read without bound.
@Suite struct LingeringCloseTests {
    /// Posts `bodyBytes` bytes with `urllib` (standard library only) plus an optional large
    /// header, and prints what came back as one JSON object.
    private static let urllibPost = """
        import json, sys, urllib.error, urllib.request
        url, size, header = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
        headers = {"X-Big": "h" * header} if header else {}
        request = urllib.request.Request(url, data=b"x" * size, method="POST", headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=20) as response:
                print(json.dumps({"outcome": "ok", "status": response.status}))
        except urllib.error.HTTPError as error:
            print(json.dumps({"outcome": "http", "status": error.code, "body": json.loads(error.read())}))
        except Exception as error:
            print(json.dumps({"outcome": "error", "type": type(error).__name__, "detail": str(error)}))
        """

    private func makeServer(
        maxBodyBytes: Int = 64 * 1024, maxDiscardedBodyBytes: Int = 8 << 20, discardTimeoutSeconds: Double = 10
    ) throws -> TestServer {
        try TestServer(
            maxBodyBytes: maxBodyBytes, maxHeaderBytes: 16 * 1024, maxDiscardedBodyBytes: maxDiscardedBodyBytes,
            discardTimeoutSeconds: discardTimeoutSeconds
        ) { router in
            router.add("POST", "/upload") { request in .text(200, "got \(request.body.count)") }
            router.add("GET", "/ok") { _ in .text(200, "ok") }
        }
    }

    private func urllibPost(port: Int, bodyBytes: Int, headerBytes: Int = 0) async throws -> [String: any Sendable] {
        let outcome = try await ExternalTool.run(
            "python3", ["-c", Self.urllibPost, "http://127.0.0.1:\(port)/upload", "\(bodyBytes)", "\(headerBytes)"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        return try JSONParser.parseObject(Array(outcome.stdout.utf8))
    }

    @Test(.enabled(if: ExternalTool.isAvailable("python3")))
    func urllibReadsThe413ForAFourMebibyteBody() async throws {
        let server = try makeServer()
        let result = try await urllibPost(port: server.port, bodyBytes: 4 << 20)
        #expect(result["outcome"] as? String == "http", "\(result)")
        #expect(result["status"] as? Int == 413)
        let body = result["body"] as? [String: any Sendable]
        #expect(body?["error"] as? String == "invalid_request")
        #expect(body?["error_description"] as? String == "request body exceeds 65536 bytes")
    }

    @Test(.enabled(if: ExternalTool.isAvailable("python3")))
    func urllibReadsThe431ForAHugeHeaderWithABody() async throws {
        let server = try makeServer()
        let result = try await urllibPost(port: server.port, bodyBytes: 4 << 20, headerBytes: 20_000)
        #expect(result["outcome"] as? String == "http", "\(result)")
        #expect(result["status"] as? Int == 431)
        let body = result["body"] as? [String: any Sendable]
        #expect(body?["error_description"] as? String == "request header exceeds 16384 bytes")
    }

    @Test(.enabled(if: ExternalTool.isAvailable("python3")))
    func urllibStillUploadsABodyUnderTheLimit() async throws {
        let server = try makeServer()
        let result = try await urllibPost(port: server.port, bodyBytes: 60_000)
        #expect(result["outcome"] as? String == "ok", "\(result)")
    }

    @Test(.enabled(if: ExternalTool.isAvailable("python3")))
    func requestsReadsThe413WhenInstalled() async throws {
        let server = try makeServer()
        let script = """
            import json, sys
            try:
                import requests
            except ImportError:
                print(json.dumps({"outcome": "skipped"}))
                sys.exit(0)
            response = requests.post(sys.argv[1], data=b"x" * (4 << 20), timeout=20)
            print(json.dumps({"outcome": "http", "status": response.status_code, "body": response.json()}))
            """
        let outcome = try await ExternalTool.run("python3", ["-c", script, "http://127.0.0.1:\(server.port)/upload"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let result = try JSONParser.parseObject(Array(outcome.stdout.utf8))
        guard result["outcome"] as? String != "skipped" else { return }
        #expect(result["status"] as? Int == 413, "\(result)")
    }

    @Test(.enabled(if: ExternalTool.isAvailable("curl")))
    func curlReadsThe413WithAndWithoutExpectContinue() async throws {
        let server = try makeServer()
        let body = FileManager.default.temporaryDirectory.appendingPathComponent("latch-413-\(UUID().uuidString)")
        try Data(repeating: 0x78, count: 4 << 20).write(to: body)
        defer { try? FileManager.default.removeItem(at: body) }
        for expect in ["Expect: 100-continue", "Expect:"] {
            let outcome = try await ExternalTool.run(
                "curl",
                [
                    "-sS", "-o", "-", "-w", "\n%{http_code}", "-H", expect, "--data-binary", "@\(body.path)",
                    "http://127.0.0.1:\(server.port)/upload",
                ])
            #expect(outcome.status == 0, "\(expect): \(outcome.stderr)")
            #expect(outcome.stdout.hasSuffix("\n413"), "\(expect): \(outcome.stdout)")
            #expect(outcome.stdout.contains("request body exceeds 65536 bytes"))
        }
    }

    @Test func connectionStaysUsableAfterARefusedBodyIsDiscarded() throws {
        let server = try makeServer(maxBodyBytes: 1000)
        let client = try RawHTTPClient(port: server.port)
        client.sendRequest("POST", "/upload", headers: [], body: [UInt8](repeating: 65, count: 50_000), close: false)
        #expect(try client.readResponse().status == 413)
        client.sendRequest("GET", "/ok", headers: [], body: [], close: false)
        #expect(try client.readResponse().text == "ok")
    }

    @Test func slowlyDrippedRefusedBodyIsCutOffAfterTheDiscardTimeout() throws {
        let server = try makeServer(maxBodyBytes: 1000, discardTimeoutSeconds: 1)
        let client = try RawHTTPClient(port: server.port)
        client.write("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n")
        let started = ContinuousClock.now
        var closed = false
        while ContinuousClock.now - started < .seconds(4) {
            guard client.write([UInt8](repeating: 65, count: 10)) else {
                closed = true
                break
            }
            usleep(100_000)
        }
        #expect(closed)
        #expect(ContinuousClock.now - started < .seconds(3))
    }
}
