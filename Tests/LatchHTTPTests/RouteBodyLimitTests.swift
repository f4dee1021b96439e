import Testing

@testable import LatchHTTP

/// A route may set its own body limit (`Router.add(_:_:maxBodyBytes:_:)`), larger or smaller than the
/// server's; every other route keeps the server's.
@Suite struct RouteBodyLimitTests {
    private func makeServer() throws -> TestServer {
        try TestServer(maxBodyBytes: 1000, maxHeaderBytes: 2048, maxDiscardedBodyBytes: 1 << 20) { router in
            router.add("POST", "/upload") { request in .text(200, "got \(request.body.count)") }
            router.add("POST", "/bulk/{name}", maxBodyBytes: 5000) { request in .text(200, "bulk \(request.body.count)") }
            router.add("POST", "/tiny", maxBodyBytes: 10) { request in .text(200, "tiny \(request.body.count)") }
        }
    }

    @Test func aRouteWithALargerLimitAcceptsBodiesUpToIt() throws {
        let server = try makeServer()
        #expect(try server.send("POST", "/bulk/x?y=1", body: [UInt8](repeating: 65, count: 5000)).text == "bulk 5000")
        #expect(try server.send("POST", "/bulk/x", body: [UInt8](repeating: 65, count: 5001)).status == 413)
    }

    @Test func otherRoutesKeepTheServerLimit() throws {
        let server = try makeServer()
        #expect(try server.send("POST", "/upload", body: [UInt8](repeating: 65, count: 1001)).status == 413)
        #expect(try server.send("POST", "/tiny", body: [UInt8](repeating: 65, count: 11)).status == 413)
        #expect(try server.send("POST", "/tiny", body: [UInt8](repeating: 65, count: 10)).text == "tiny 10")
    }

    @Test func theRouterAnswersEachRoutesLimit() throws {
        var router = Router()
        router.add("POST", "/bulk/{name}", maxBodyBytes: 5000) { _ in .text(200, "") }
        router.add("GET", "/bulk/{name}") { _ in .text(200, "") }
        #expect(router.maximumBodyBytes(method: "POST", path: "/bulk/a") == 5000)
        #expect(router.maximumBodyBytes(method: "GET", path: "/bulk/a") == nil)
        #expect(router.maximumBodyBytes(method: "POST", path: "/elsewhere") == nil)
    }
}
