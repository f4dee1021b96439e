import Foundation
import LatchServer
import LatchTesting
import Testing

/// A NUL byte (`%00`) in any field that reaches the store is the client's mistake, whichever store
/// runs: SQLite could keep such text, PostgreSQL's `text` cannot hold it. Either way the answer is
/// 400 in the wire's shape, never a 5xx (this suite runs on both stores in CI).
@Suite("NUL bytes in native-auth fields")
struct NativeAuthNulByteTests {
    @Test("a NUL in a username, an attribute or a continuation token is refused with 400")
    func nulBytes() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        try server.updateTenant { $0.rateLimits = .off }
        let client = WireClient(server)
        let answers = [
            try await client.post("signup/v1.0/start", ["username": "ada\u{0}@example.com", "challenge_type": "oob redirect"]),
            try await client.post(
                "oauth2/v2.0/initiate", ["username": "ada\u{0}@example.com", "challenge_type": "oob password redirect"]),
            try await client.post(
                "signup/v1.0/start",
                [
                    "username": TokenHelpers.uniqueEmail("nul"), "challenge_type": "oob redirect",
                    "attributes": #"{"displayName":"Ada\u0000Lovelace"}"#,
                ]),
            try await client.post("signup/v1.0/challenge", ["continuation_token": "abc\u{0}def"]),
            try await client.post(
                "resetpassword/v1.0/start", ["username": "ada\u{0}@example.com", "challenge_type": "oob redirect"]),
        ]
        for answer in answers {
            #expect(answer.status == 400, "\(answer.status) \(answer.json)")
            #expect(answer.error == "invalid_request" || answer.error == "invalid_grant", "\(answer.json)")
        }
    }
}
