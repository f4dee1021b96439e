import Testing

@testable import LatchHTTP

private struct SecretFailure: Error { var detail = "db password is hunter2" }

@Suite struct ErrorRenderingTests {
    @Test func thrownHTTPErrorRendersAsJSON() throws {
        let server = try TestServer { router in
            router.add("GET", "/teapot") { _ in throw HTTPError(status: 418, code: "teapot", message: "short \"and\" stout\n") }
        }
        let response = try server.send("GET", "/teapot")
        #expect(response.status == 418)
        #expect(response.headers["cache-control"] == "no-store")
        let json = try JSONParser.parseObject(response.body)
        #expect(json["error"] as? String == "teapot")
        #expect(json["error_description"] as? String == "short \"and\" stout\n")
    }

    @Test func otherErrorsBecome500WithOnlyTheRequestID() throws {
        let log = LogCollector()
        let server = try TestServer(errorLog: log.sink) { router in
            router.add("POST", "/boom") { _ in throw SecretFailure() }
        }
        let response = try server.send("POST", "/boom")
        #expect(response.status == 500)
        let id = try #require(response.headers["x-request-id"])
        #expect(!response.text.contains("hunter2"))
        #expect(!response.text.contains("SecretFailure"))
        #expect(response.text.contains(id))
        let json = try JSONParser.parseObject(response.body)
        #expect(json["error"] as? String == "server_error")
        let line = try #require(log.all.first)
        #expect(line.contains(id))
        #expect(line.contains("hunter2"))
    }

    @Test func handlerHeadersAreSanitized() throws {
        let log = LogCollector()
        let server = try TestServer(errorLog: log.sink) { router in
            router.add("GET", "/h") { _ in
                HTTPResponse(
                    status: 200,
                    headers: HTTPHeaders([
                        ("X-Ok", "1"), ("X-Split", "a\r\nSet-Cookie: evil=1"), ("Bad Name", "x"), ("Content-Length", "99"),
                    ]), body: Array("hi".utf8))
            }
        }
        let response = try server.send("GET", "/h")
        #expect(response.status == 200)
        #expect(response.text == "hi")
        #expect(response.headers["x-ok"] == "1")
        #expect(response.headers["set-cookie"] == nil)
        #expect(response.headers["x-split"] == nil)
        #expect(log.all.count == 3)
    }

    @Test func emptyBodyAndOddStatus() throws {
        let server = try TestServer { router in
            router.add("DELETE", "/x") { _ in HTTPResponse(status: 204) }
            router.add("GET", "/odd") { _ in HTTPResponse(status: 42) }
        }
        #expect(try server.send("DELETE", "/x").status == 204)
        #expect(try server.send("GET", "/odd").status == 500)
    }
}
