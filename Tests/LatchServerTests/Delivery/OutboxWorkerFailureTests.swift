import Foundation
import LatchServer
import LatchTesting
import Testing

/// What the worker keeps of a failure: a short reason without the message's code or body, even
/// from a transport that echoes them, and the rest of the batch delivered.
@Suite("Outbox worker failures")
struct OutboxWorkerFailureTests {
    typealias Fixture = OutboxFixture

    /// Refuses the messages to one address with an error that repeats the whole message; delivers the rest.
    struct EchoingTransport: MessageTransport {
        struct Refused: Error, CustomStringConvertible {
            let message: OutboxMessage
            var description: String {
                "gateway refused '\(message.body)' (code \(message.code ?? ""))\nsecond line "
                    + String(repeating: "x", count: 400)
            }
        }
        let refused: String
        func deliver(_ message: OutboxMessage) throws {
            if message.recipient == refused { throw Refused(message: message) }
        }
    }

    @Test("a reason that echoes the code or body is stored and logged without them, on one short line")
    func reasonsAreScrubbed() async throws {
        let log = MessageSealerTests.CapturedLog()
        let server = try LatchTestServer.start(mode: .inProcess) {
            $0.transport = EchoingTransport(refused: "refused@example.com")
            $0.log = log.log
        }
        defer { server.stop() }
        let refused = try Fixture.queue(server, channel: "email", to: "refused@example.com", code: "90210901")
        let fine = try Fixture.queue(server, channel: "email", to: "fine@example.com", code: "12121212")
        // The two may be drained in one batch or in two: wait for both outcomes.
        #expect(try await Fixture.eventually { try Fixture.row(server, refused.id).attempts == 1 })
        #expect(try await Fixture.eventually { try Fixture.row(server, fine.id).deliveredAt != nil })
        let reason = try #require(try Fixture.row(server, refused.id).lastError)
        #expect(reason.hasPrefix("gateway refused '<body>' (code <code>) second line xxx"), "\(reason)")
        #expect(reason.count <= 200 && !reason.contains("\n"))
        #expect(!log.text.contains { $0.contains("90210901") }, "\(log.text)")
    }
}
