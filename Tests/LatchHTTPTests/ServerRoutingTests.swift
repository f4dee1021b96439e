import Testing

@testable import LatchHTTP

@Suite struct ServerRoutingTests {
    @Test func servesRoutesWithParametersQueryAndRemoteAddress() throws {
        let server = try TestServer { router in
            router.add("GET", "/{tenant}/items/{id}") { request in
                .text(
                    200,
                    "\(request.pathParameters["tenant"]!)|\(request.pathParameters["id"]!)|\(request.query["q"] ?? "-")|\(request.remoteAddress)|\(request.path)"
                )
            }
        }
        let response = try server.send("GET", "/con%20toso/items/7?q=a+b%21&x")
        #expect(response.status == 200)
        #expect(response.text == "con toso|7|a b!|127.0.0.1|/con toso/items/7")
    }

    @Test func unknownPathAndWrongMethodOverTheWire() throws {
        let server = try TestServer { router in
            router.add("GET", "/a") { _ in .text(200, "a") }
        }
        let missing = try server.send("GET", "/b")
        #expect(missing.status == 404)
        #expect(missing.headers["content-type"] == "application/json; charset=utf-8")
        #expect(try JSONParser.parseObject(missing.body)["error"] as? String == "not_found")
        let wrong = try server.send("POST", "/a")
        #expect(wrong.status == 405)
        #expect(wrong.headers["allow"] == "GET, HEAD")
    }

    @Test func headGetsHeadersOnly() throws {
        let server = try TestServer { router in
            router.add("GET", "/doc") { _ in .text(200, "twelve bytes") }
        }
        let client = try RawHTTPClient(port: server.port)
        client.sendRequest("HEAD", "/doc", headers: [], body: [], close: false)
        let head = try client.readResponse(headOnly: true)
        #expect(head.status == 200)
        #expect(head.headers["content-length"] == "12")
        // The connection stays usable: no body bytes were sent.
        client.sendRequest("GET", "/doc", headers: [], body: [], close: true)
        #expect(try client.readResponse().text == "twelve bytes")
    }

    @Test func keepAliveServesSeveralRequestsOnOneConnection() throws {
        let server = try TestServer { router in
            router.add("POST", "/echo") { request in HTTPResponse(status: 200, body: request.body) }
        }
        let client = try RawHTTPClient(port: server.port)
        for index in 0..<5 {
            client.sendRequest("POST", "/echo", headers: [], body: Array("body \(index)".utf8), close: false)
            let response = try client.readResponse()
            #expect(response.text == "body \(index)")
        }
    }

    @Test func formAndJSONBodiesReachHandlers() throws {
        let server = try TestServer { router in
            router.add("POST", "/form") { request in
                let parameters = try request.formParameters()
                return .text(200, parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ","))
            }
            router.add("POST", "/json") { request in
                let object = try request.jsonObject()
                return .text(200, "\(object["n"] as? Int ?? -1)")
            }
        }
        let form = try server.send(
            "POST", "/form", headers: [("Content-Type", "application/x-www-form-urlencoded")], body: Array("b=2&a=x%2By".utf8))
        #expect(form.text == "a=x+y,b=2")
        let repeated = try server.send(
            "POST", "/form", headers: [("Content-Type", "application/x-www-form-urlencoded")], body: Array("a=1&a=2".utf8))
        #expect(repeated.status == 400)
        let error = try JSONParser.parseObject(repeated.body)
        #expect(error["error"] as? String == "invalid_request")
        #expect(error["error_description"] as? String == "form parameter 'a' is repeated")
        let json = try server.send(
            "POST", "/json", headers: [("Content-Type", "application/json")], body: Array(#"{"n": 5}"#.utf8))
        #expect(json.text == "5")
        let notObject = try server.send("POST", "/json", headers: [("Content-Type", "application/json")], body: Array("[1]".utf8))
        #expect(notObject.status == 400)
    }

    @Test func malformedBytesInPathAndHeadersDoNotCrash() throws {
        let server = try TestServer { router in
            router.add("GET", "/{x}") { request in
                .text(200, "\(request.pathParameters["x"]!.unicodeScalars.count)|\(request.headers["x-bad"] ?? "")")
            }
        }
        let client = try RawHTTPClient(port: server.port)
        client.write(
            [UInt8]("GET /%FF%C3\u{7F}ab HTTP/1.1\r\nHost: x\r\nX-Bad: ".utf8) + [0xFF, 0xFE, 0x41]
                + Array("\r\nConnection: close\r\n\r\n".utf8))
        let response = try client.readResponse()
        #expect(response.status == 200)
        #expect(response.text.hasSuffix("|\u{FFFD}\u{FFFD}A"))
    }
}
