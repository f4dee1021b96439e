import Foundation
import LatchTesting
import Testing

/// Attributes the tenant does not define are still checked for control characters.
@Suite("NativeAuth attribute hygiene")
struct NativeAuthAttributeHygieneTests {
    @Test("an undefined attribute with a control character is refused as invalid", arguments: ["a\u{07}b", "line\nbreak", ""])
    func controlCharacters(value: String) async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let attributes = String(
            decoding: try JSONSerialization.data(withJSONObject: ["nickname": value]), as: UTF8.self)
        let reply = try await WireClient(server).post(
            "signup/v1.0/start",
            ["username": "hygiene@example.com", "challenge_type": "oob redirect", "attributes": attributes])
        #expect(reply.status == 400)
        #expect(reply.error == "invalid_grant")
        #expect(reply.suberror == "attribute_validation_failed")
        #expect((reply["invalid_attributes"] as? [[String: Any]])?.first?["name"] as? String == "nickname")
    }
}
