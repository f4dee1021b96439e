import Testing

@testable import LatchHTTP

/// Renders failures as `{"family": "t", "status": N, "code": "..."}`, to tell its envelope apart.
private struct FamilyRenderer: ErrorRenderer {
    func render(_ error: HTTPError, for request: HTTPRequest) -> HTTPResponse {
        .json(error.status, Array(#"{"family":"t","status":\#(error.status),"code":"\#(error.code)"}"#.utf8))
    }
}

/// Request framing the server cannot or must not trust (RFC 9112 §6) is refused at once, in the
/// route group's envelope, and the connection closed, instead of waiting for a body it cannot
/// delimit.
@Suite struct TransferEncodingTests {
    private func makeServer() throws -> TestServer {
        try TestServer { router in
            router.addGroup("t", prefixes: ["/t"], renderer: FamilyRenderer())
            router.add("POST", "/t/upload") { request in .text(200, "got \(request.body.count)") }
        }
    }

    /// Sends `head` alone (no body) and returns the answer, how long it took, and whether the
    /// server then closed the connection.
    private func refusal(of head: String, port: Int) throws -> (response: RawHTTPResponse, seconds: Duration, closed: Bool) {
        let client = try RawHTTPClient(port: port)
        client.setReceiveTimeout(milliseconds: 3000)
        let start = ContinuousClock.now
        client.write(head)
        let response = try client.readResponse()
        let elapsed = ContinuousClock.now - start
        return (response, elapsed, client.waitForClose(timeout: .seconds(1)) != nil)
    }

    @Test(
        "a transfer coding other than chunked gets an immediate 501 or 400 and the connection closed",
        arguments: ["gzip, chunked", "gzip", "identity", "chunked, chunked", "chunked;q=1", "x-custom", "", "chunked "])
    func unsupportedTransferCoding(coding: String) throws {
        let server = try makeServer()
        let result = try refusal(
            of: "POST /t/upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: \(coding)\r\n\r\n", port: server.port)
        #expect([400, 501].contains(result.response.status), "\(coding): \(result.response.status)")
        #expect(result.response.text.contains(#""family":"t""#), "\(coding): \(result.response.text)")
        #expect(result.response.headers["x-request-id"] != nil)
        #expect(result.seconds < .seconds(2), "\(coding): answered after \(result.seconds)")
        #expect(result.closed, "\(coding): connection left open")
    }

    @Test func unknownCodingIs501() throws {
        let server = try makeServer()
        let result = try refusal(of: "POST /t/upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", port: server.port)
        #expect(result.response.status == 501)
        #expect(result.response.text.contains(#""code":"not_implemented""#), "\(result.response.text)")
    }

    @Test func repeatedTransferEncodingFieldsAreRefused() throws {
        let server = try makeServer()
        let result = try refusal(
            of: "POST /t/upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n",
            port: server.port)
        #expect(result.response.status == 400)
        #expect(result.closed)
    }

    @Test func transferEncodingWithContentLengthIs400() throws {
        let server = try makeServer()
        let result = try refusal(
            of: "POST /t/upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n",
            port: server.port)
        #expect(result.response.status == 400)
        #expect(result.response.text.contains(#""family":"t""#), "\(result.response.text)")
        #expect(result.seconds < .seconds(2))
        #expect(result.closed)
    }

    @Test func chunkedInAnyCaseIsStillAccepted() throws {
        let server = try makeServer()
        let client = try RawHTTPClient(port: server.port)
        client.write("POST /t/upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: Chunked\r\nConnection: close\r\n\r\n")
        client.write("5\r\nhello\r\n0\r\n\r\n")
        #expect(try client.readResponse().text == "got 5")
    }

    @Test func notImplementedFactory() {
        let error = HTTPError.notImplemented("transfer coding 'gzip' is not supported")
        #expect(error.status == 501)
        #expect(error.code == "not_implemented")
    }
}
