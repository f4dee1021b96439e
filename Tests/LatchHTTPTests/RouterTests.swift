import Testing

@testable import LatchHTTP

@Suite struct RouterTests {
    private func makeRouter() -> Router {
        var router = Router()
        router.add("GET", "/{tenant}/oauth2/v2.0/token") { request in
            .text(200, "param:\(request.pathParameters["tenant"] ?? "-"):\(request.routePattern ?? "-")")
        }
        router.add("GET", "/common/oauth2/v2.0/token") { request in
            .text(200, "literal:\(request.pathParameters.count):\(request.routePattern ?? "-")")
        }
        router.add("POST", "/{tenant}/oauth2/v2.0/token") { _ in .text(200, "post") }
        router.add("GET", "/common/{a}/x") { request in .text(200, "common-a:\(request.pathParameters["a"] ?? "-")") }
        router.add("GET", "/{t}/b/y") { request in .text(200, "t-b-y:\(request.pathParameters["t"] ?? "-")") }
        router.add("GET", "/") { _ in .text(200, "root") }
        router.add("DELETE", "/items/{id}") { request in .text(200, "deleted \(request.pathParameters["id"] ?? "")") }
        return router
    }

    private func call(_ router: Router, _ method: String, _ path: String) -> (Int, String, HTTPHeaders) {
        let response = router.respond(to: HTTPRequest(method: method, path: path))
        return (response.status, String(decoding: response.body, as: UTF8.self), response.headers)
    }

    @Test func parameterSegmentsBindValuesAndPattern() {
        let (status, body, _) = call(makeRouter(), "GET", "/contoso/oauth2/v2.0/token")
        #expect(status == 200)
        #expect(body == "param:contoso:/{tenant}/oauth2/v2.0/token")
    }

    @Test func literalRoutesWinOverParameters() {
        #expect(call(makeRouter(), "GET", "/common/oauth2/v2.0/token").1 == "literal:0:/common/oauth2/v2.0/token")
    }

    @Test func literalBranchBacktracksToParameterBranch() {
        // "/common/b/y": the literal "common" branch has no "b/y", so "{t}" must match.
        #expect(call(makeRouter(), "GET", "/common/b/y").1 == "t-b-y:common")
        #expect(call(makeRouter(), "GET", "/common/zz/x").1 == "common-a:zz")
    }

    @Test func parameterNeverMatchesEmptySegment() {
        #expect(call(makeRouter(), "GET", "//oauth2/v2.0/token").0 == 404)
        #expect(call(makeRouter(), "DELETE", "/items/").0 == 404)
    }

    @Test func rootAndTrailingSlash() {
        #expect(call(makeRouter(), "GET", "/").1 == "root")
        #expect(call(makeRouter(), "GET", "/contoso/oauth2/v2.0/token/").0 == 404)
    }

    @Test func unknownPathIsJSON404() throws {
        let (status, body, headers) = call(makeRouter(), "GET", "/nope")
        #expect(status == 404)
        #expect(headers["content-type"] == "application/json; charset=utf-8")
        let json = try JSONParser.parseObject(Array(body.utf8))
        #expect(json["error"] as? String == "not_found")
        #expect(json["error_description"] is String)
    }

    @Test func wrongMethodIs405WithAllow() throws {
        let (status, body, headers) = call(makeRouter(), "PUT", "/x/oauth2/v2.0/token")
        #expect(status == 405)
        #expect(headers["allow"] == "GET, HEAD, POST")
        let json = try JSONParser.parseObject(Array(body.utf8))
        #expect(json["error"] as? String == "method_not_allowed")
        #expect(call(makeRouter(), "GET", "/items/1").2["Allow"] == "DELETE")
    }

    @Test func headUsesGetHandler() {
        #expect(call(makeRouter(), "HEAD", "/").0 == 200)
    }

    @Test func laterRouteReplacesEarlier() {
        var router = Router()
        router.add("GET", "/a") { _ in .text(200, "one") }
        router.add("get", "/a") { _ in .text(200, "two") }
        #expect(call(router, "GET", "/a").1 == "two")
    }

    @Test func colonInsideSegmentIsLiteral() {
        // Google's custom methods (`/v1/accounts:signUp`, AIP-136): the colon is part of the
        // literal segment, so each method is its own route and the others are 404s.
        var router = Router()
        router.add("POST", "/identitytoolkit.googleapis.com/v1/accounts:signUp") { request in
            .text(200, "signUp:\(request.routePattern ?? "-")")
        }
        router.add("POST", "/identitytoolkit.googleapis.com/v1/accounts:lookup") { _ in .text(200, "lookup") }
        #expect(
            call(router, "POST", "/identitytoolkit.googleapis.com/v1/accounts:signUp").1
                == "signUp:/identitytoolkit.googleapis.com/v1/accounts:signUp")
        #expect(call(router, "POST", "/identitytoolkit.googleapis.com/v1/accounts:lookup").1 == "lookup")
        #expect(call(router, "POST", "/identitytoolkit.googleapis.com/v1/accounts:delete").0 == 404)
        #expect(call(router, "POST", "/identitytoolkit.googleapis.com/v1/accounts").0 == 404)
    }
}
