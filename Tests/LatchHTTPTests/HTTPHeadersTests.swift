import Testing

@testable import LatchHTTP

@Suite struct HTTPHeadersTests {
    @Test func lookupIsCaseInsensitiveAndReturnsFirstValue() {
        var headers = HTTPHeaders([("Content-Type", "a"), ("X-Thing", "1")])
        headers.add("x-thing", "2")
        #expect(headers["content-type"] == "a")
        #expect(headers["X-THING"] == "1")
        #expect(headers.values(for: "x-Thing") == ["1", "2"])
        #expect(headers["missing"] == nil)
    }

    @Test func setReplacesEveryFieldWithTheName() {
        var headers = HTTPHeaders([("A", "1"), ("B", "2"), ("a", "3")])
        headers.set("a", "9")
        #expect(headers.map(\.name) == ["a", "B"])
        #expect(headers["A"] == "9")
        headers.set("C", "4")
        #expect(headers.map(\.value) == ["9", "2", "4"])
        headers.remove("b")
        #expect(headers.count == 2)
    }

    @Test func namesOfDifferentLengthDoNotMatch() {
        #expect(!HTTPHeaders.namesMatch("Accept", "Accept-Encoding"))
        #expect(HTTPHeaders.namesMatch("", ""))
    }
}
