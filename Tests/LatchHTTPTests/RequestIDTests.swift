import Testing

@testable import LatchHTTP

@Suite struct RequestIDTests {
    private func makeServer() throws -> TestServer {
        try TestServer { router in
            router.add("GET", "/id") { request in .text(200, "\(request.requestID)|\(request.clientRequestID ?? "nil")") }
        }
    }

    @Test func everyResponseCarriesTheRequestID() throws {
        let server = try makeServer()
        let response = try server.send("GET", "/id")
        let id = try #require(response.headers["x-request-id"])
        #expect(id.count == 16)
        #expect(id.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        #expect(response.text == "\(id)|nil")
        #expect(try server.send("GET", "/missing").headers["x-request-id"]?.count == 16)
    }

    @Test func requestIDsAreUnique() {
        let ids = (0..<10_000).map { _ in HTTPRequest.makeRequestID() }
        #expect(Set(ids).count == ids.count)
    }

    @Test func saneClientRequestIDIsEchoed() throws {
        let server = try makeServer()
        let response = try server.send("GET", "/id", headers: [("client-request-id", "6f2d-aa")])
        #expect(response.headers["client-request-id"] == "6f2d-aa")
        #expect(response.text.hasSuffix("|6f2d-aa"))
        let onError = try server.send("GET", "/missing", headers: [("Client-Request-Id", "abc")])
        #expect(onError.headers["client-request-id"] == "abc")
    }

    @Test(arguments: [String(repeating: "a", count: 129), "caf\u{e9}", "tab\there"])
    func insaneClientRequestIDIsIgnored(value: String) throws {
        let server = try makeServer()
        let response = try server.send("GET", "/id", headers: [("client-request-id", value)])
        #expect(response.headers["client-request-id"] == nil)
        #expect(response.text.hasSuffix("|nil"))
    }

    @Test func clientRequestIDRules() {
        #expect(HTTPRequest.saneClientRequestID(String(repeating: "z", count: 128)) != nil)
        #expect(HTTPRequest.saneClientRequestID("") == nil)
        #expect(HTTPRequest(method: "GET", path: "/", headers: ["client-request-id": "x y"]).clientRequestID == "x y")
    }
}
