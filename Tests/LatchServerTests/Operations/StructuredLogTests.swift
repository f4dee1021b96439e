import Foundation
import LatchTesting
import Testing

/// `latchd serve --log-format json`: one JSON object per line, request lines carrying the request
/// id and tenant, and no secret on any line but the documented `--dev` outbox line.
@Suite("Structured logs")
struct StructuredLogTests {
    @Test("a full sign-up under --log-format json: valid JSON lines with request ids, no password or code leaks")
    func jsonLogsOfASignUp() async throws {
        let directory = LatchdProcess.temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let server = try await LatchdProcess.start(dataDirectory: directory, arguments: ["--log-format", "json"])
        defer { server.forceStop() }
        let client = WireClient(baseURL: server.baseURL)
        let email = TokenHelpers.uniqueEmail("logs")
        let password = "Log-Secret-\(UUID().uuidString.prefix(8))"
        let correlation = UUID().uuidString

        let start = try await client.post(
            "signup/v1.0/start", ["username": email, "password": password, "challenge_type": "oob password redirect"],
            headers: ["client-request-id": correlation])
        let challenge = try await client.post(
            "signup/v1.0/challenge", ["continuation_token": try #require(start.continuationToken)])
        var code: String?
        for _ in 0..<200 where code == nil {
            code = Self.outboxCode(in: server.log, to: email)
            if code == nil { try await Task.sleep(for: .milliseconds(10)) }
        }
        let oob = try #require(code)
        let proceed = try await client.post(
            "signup/v1.0/continue",
            ["continuation_token": try #require(challenge.continuationToken), "grant_type": "oob", "oob": oob])
        let tokens = try await client.post(
            "oauth2/v2.0/token",
            ["grant_type": "continuation_token", "continuation_token": try #require(proceed.continuationToken)])
        #expect(tokens.status == 200)
        // A failure with the password in the body, too.
        _ = try await client.post(
            "signup/v1.0/start", ["username": email, "password": password, "challenge_type": "oob password redirect"])

        server.send(SIGTERM)
        #expect(await server.waitForExit())
        let lines = server.log.split(separator: "\n").map(String.init)
        var requestLines = 0
        for line in lines {
            let object = try #require(
                try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not one JSON object: \(line)")
            #expect(object["ts"] is String && object["level"] is String && object["msg"] is String, "\(line)")
            let message = object["msg"] as? String ?? ""
            if message == "request" {
                requestLines += 1
                #expect((object["request_id"] as? String)?.count == 16, "\(line)")
                #expect(object["tenant"] as? String == "default", "\(line)")
                #expect(object["route"] is String, "\(line)")
            }
            #expect(!line.contains(password), "the password leaked: \(line)")
            if !message.hasPrefix("outbox ") {
                #expect(!line.contains(oob), "the code leaked outside the dev outbox line: \(line)")
            }
        }
        #expect(requestLines >= 5)
        #expect(lines.contains { $0.contains(correlation) }, "the client's correlation id is logged")
    }

    /// The code of the dev outbox line to `email`, in text or JSON form.
    static func outboxCode(in log: String, to email: String) -> String? {
        for line in log.split(separator: "\n") where line.contains("to=\(email)") {
            guard let range = line.range(of: "code=") else { continue }
            return String(line[range.upperBound...].prefix { $0.isNumber })
        }
        return nil
    }
}
