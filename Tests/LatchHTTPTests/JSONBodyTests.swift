import Testing

@testable import LatchHTTP

@Suite struct JSONBodyTests {
    private func request(_ body: String, contentType: String? = "application/json") -> HTTPRequest {
        requestBytes(Array(body.utf8), contentType: contentType)
    }

    private func requestBytes(_ body: [UInt8], contentType: String? = "application/json") -> HTTPRequest {
        var headers = HTTPHeaders()
        if let contentType { headers.add("Content-Type", contentType) }
        return HTTPRequest(method: "POST", path: "/x", headers: headers, body: body)
    }

    private func message(_ body: String, contentType: String? = "application/json") -> String? {
        do {
            _ = try request(body, contentType: contentType).jsonObject()
            return nil
        } catch {
            #expect(error.status == 400 && error.code == "invalid_request")
            return error.message
        }
    }

    @Test func parsesEveryValueType() throws {
        let object = try request(
            #"""
            { "s": "a\"b\\c\u00e9\ud83d\ude00\n", "i": -42, "big": 12345678901234567890, "d": 1.5e2, "t": true,
              "f": false, "n": null, "a": [1, "x", [], {}], "o": {"k": "v"}, "e": "" }
            """#
        ).jsonObject()
        #expect(object["s"] as? String == "a\"b\\cé😀\n")
        #expect(object["i"] as? Int == -42)
        #expect(object["big"] as? Double == 1.2345678901234567e19)
        #expect(object["d"] as? Double == 150)
        #expect(object["t"] as? Bool == true)
        #expect(object["f"] as? Bool == false)
        #expect(object["n"] is JSONNull)
        #expect((object["a"] as? [any Sendable])?.count == 4)
        #expect((object["o"] as? [String: any Sendable])?["k"] as? String == "v")
        #expect(object["e"] as? String == "")
    }

    @Test func acceptsJSONMediaTypeVariants() throws {
        #expect(try request("{}", contentType: "application/json; charset=utf-8").jsonObject().isEmpty)
        #expect(try request(" {\"a\":1} \n", contentType: "application/merge-patch+json").jsonObject().count == 1)
    }

    @Test func rejectsWrongContentType() {
        #expect(message("{}", contentType: nil)?.contains("missing Content-Type") == true)
        #expect(message("{}", contentType: "text/plain")?.contains("must be application/json") == true)
        #expect(message("{}", contentType: "application/json; charset=latin1")?.contains("UTF-8") == true)
    }

    @Test(arguments: ["[]", "\"x\"", "1", "", "null"])
    func rejectsNonObjects(body: String) {
        #expect(message(body) != nil)
    }

    @Test(arguments: [
        "{", "{\"a\":}", "{\"a\" 1}", "{\"a\":1,}", "{\"a\":01}", "{\"a\":1.}", "{\"a\":tru}", "{\"a\":\"\\x\"}",
        "{\"a\":\"\u{01}\"}", "{\"a\":1} x", "{'a':1}", "{\"a\":\"\\ud800\"}", "{\"a\":1e999}", "{\"a\":NaN}",
    ])
    func rejectsMalformedJSON(body: String) {
        #expect(message(body) != nil)
    }

    @Test func rejectsDuplicateMembers() {
        #expect(message(#"{"a":1,"b":2,"a":3}"#) == "JSON member 'a' is repeated")
    }

    @Test func rejectsDeepNesting() {
        let deep = "{\"a\":" + String(repeating: "[", count: 100) + String(repeating: "]", count: 100) + "}"
        #expect(message(deep)?.contains("deeper") == true)
        let ok = "{\"a\":" + String(repeating: "[", count: 60) + String(repeating: "]", count: 60) + "}"
        #expect(message(ok) == nil)
    }

    @Test func rejectsInvalidUTF8() {
        #expect(throws: HTTPError.self) { try requestBytes([0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xFF, 0x22, 0x7D]).jsonObject() }
    }

    struct Login: Decodable { var username: String; var remember: Bool? }

    @Test func decodesDecodableBodies() throws {
        let login = try request(#"{"username":"ann","remember":true}"#).decodeJSON(Login.self)
        #expect(login.username == "ann" && login.remember == true)
        do {
            _ = try request(#"{"remember":true}"#).decodeJSON(Login.self)
            Issue.record("expected an error")
        } catch {
            #expect(error == .badRequest("missing member 'username'"))
        }
    }
}
