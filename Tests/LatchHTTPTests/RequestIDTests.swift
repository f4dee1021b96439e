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

    /// The shape of a UUID in its text form (RFC 9562 § 4).
    private static func isUUID(_ value: String?) -> Bool {
        guard let value else { return false }
        return HTTPRequest.saneClientRequestID(value) == value
    }

    @Test func aUUIDClientRequestIDIsEchoed() throws {
        let server = try makeServer()
        let sent = "6F2D8A3C-1B4E-4F00-9C2D-AA0011223344"
        let response = try server.send("GET", "/id", headers: [("client-request-id", sent)])
        #expect(response.headers["client-request-id"] == sent)
        #expect(response.text.hasSuffix("|\(sent)"))
        let lower = sent.lowercased()
        let onError = try server.send("GET", "/missing", headers: [("Client-Request-Id", lower)])
        #expect(onError.headers["client-request-id"] == lower)
    }

    @Test(arguments: [
        String(repeating: "a", count: 129), "caf\u{e9}", "tab\there", "6f2d-aa", "", "6F2D8A3C-1B4E-4F00-9C2D-AA001122334G",
        "6F2D8A3C1B4E-4F00-9C2D-AA0011223344-",
    ])
    func anythingElseGetsTheServersOwnUUID(value: String) throws {
        let server = try makeServer()
        let response = try server.send("GET", "/id", headers: [("client-request-id", value)])
        let echoed = response.headers["client-request-id"]
        #expect(Self.isUUID(echoed), "\(echoed ?? "nil")")
        #expect(echoed != value)
        #expect(response.text.hasSuffix("|nil"))
    }

    @Test func withoutAClientRequestIDTheServerSendsAFreshUUID() throws {
        let server = try makeServer()
        let first = try server.send("GET", "/id").headers["client-request-id"]
        let second = try server.send("GET", "/missing").headers["client-request-id"]
        #expect(Self.isUUID(first) && Self.isUUID(second))
        #expect(first != second)
        // RFC 9562 § 5.4 layout: version 4, variant 10xx.
        let uuid = try #require(first)
        #expect(Array(uuid)[14] == "4")
        #expect("89AB".contains(Array(uuid)[19]))
    }

    @Test func clientRequestIDRules() {
        #expect(HTTPRequest.saneClientRequestID("00000000-0000-0000-0000-000000000000") != nil)
        #expect(HTTPRequest.saneClientRequestID(String(repeating: "z", count: 128)) == nil)
        #expect(HTTPRequest.saneClientRequestID("") == nil)
        #expect(HTTPRequest(method: "GET", path: "/", headers: ["client-request-id": "x y"]).clientRequestID == nil)
        let request = HTTPRequest(method: "GET", path: "/", headers: ["client-request-id": "x y"])
        #expect(Self.isUUID(request.correlationID))
    }
}
