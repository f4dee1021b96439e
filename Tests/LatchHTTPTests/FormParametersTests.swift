import Testing

@testable import LatchHTTP

@Suite struct FormParametersTests {
    private func form(_ body: String, contentType: String? = "application/x-www-form-urlencoded") -> HTTPRequest {
        formBytes(Array(body.utf8), contentType: contentType)
    }

    private func formBytes(_ body: [UInt8], contentType: String? = "application/x-www-form-urlencoded") -> HTTPRequest {
        var headers = HTTPHeaders()
        if let contentType { headers.add("Content-Type", contentType) }
        return HTTPRequest(method: "POST", path: "/token", headers: headers, body: body)
    }

    @Test func parsesLikeWHATWG() throws {
        let parameters = try form("grant_type=password&username=a%40b.c&scope=openid+profile&&empty=&flag&caf%C3%A9=%E2%9C%93")
            .formParameters()
        #expect(
            parameters == [
                "grant_type": "password", "username": "a@b.c", "scope": "openid profile", "empty": "", "flag": "",
                "café": "✓",
            ])
    }

    @Test func acceptsCharsetUTF8AndEmptyBody() throws {
        #expect(try form("a=1", contentType: "Application/X-WWW-Form-URLEncoded; charset=UTF-8").formParameters() == ["a": "1"])
        #expect(try form("").formParameters() == [:])
    }

    @Test(arguments: [
        (nil as String?, "missing Content-Type"),
        ("application/json", "must be application/x-www-form-urlencoded"),
        ("multipart/form-data; boundary=x", "must be application/x-www-form-urlencoded"),
        ("application/x-www-form-urlencoded; charset=iso-8859-1", "charset"),
    ])
    func rejectsWrongContentType(contentType: String?, fragment: String) {
        #expect {
            try form("a=1", contentType: contentType).formParameters()
        } throws: { error in
            let error = error as? HTTPError
            return error?.status == 400 && error?.code == "invalid_request" && error?.message.contains(fragment) == true
        }
    }

    @Test(arguments: ["a=%zz", "a=%4", "%G1=x", "a=100%"])
    func rejectsMalformedPercentEncoding(body: String) {
        #expect(throws: HTTPError.self) { try form(body).formParameters() }
        do {
            _ = try form(body).formParameters()
        } catch {
            #expect(error.message.contains("malformed percent-encoding"))
        }
    }

    @Test(arguments: ["a=%FF", "a=%C3", "%ED%A0%80=1"])
    func rejectsInvalidUTF8AfterDecoding(body: String) {
        do {
            _ = try form(body).formParameters()
            Issue.record("expected an error")
        } catch {
            #expect(error.status == 400)
            #expect(error.message.contains("not valid UTF-8"))
        }
    }

    @Test func rejectsRawInvalidUTF8() {
        do {
            _ = try formBytes([0x61, 0x3D, 0xFF]).formParameters()
            Issue.record("expected an error")
        } catch {
            #expect(error.message.contains("not valid UTF-8"))
        }
    }

    @Test func rejectsRepeatedName() {
        do {
            _ = try form("scope=a&grant_type=x&scope=b").formParameters()
            Issue.record("expected an error")
        } catch {
            #expect(error == .badRequest("form parameter 'scope' is repeated"))
        }
        // Repeats are detected after decoding.
        #expect(throws: HTTPError.self) { try form("a+b=1&a%20b=2").formParameters() }
    }

    @Test func strictAndLenientQuery() throws {
        var request = HTTPRequest(
            method: "GET", target: "/p?a=1&b=x+y&a=2&c=%zz", headers: HTTPHeaders(), body: [], remoteAddress: "", requestID: "r",
            correlationID: "c")
        #expect(request.query == ["a": "1", "b": "x y", "c": "%zz"])
        #expect(request.queryString == "a=1&b=x+y&a=2&c=%zz")
        #expect(throws: HTTPError.self) { try request.queryParameters() }
        request.queryString = "a=1&b=%C3%A9"
        #expect(try request.queryParameters() == ["a": "1", "b": "é"])
    }
}
