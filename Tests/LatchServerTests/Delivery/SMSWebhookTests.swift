import Foundation
import LatchCrypto
import LatchServer
import LatchTesting
import Testing

/// SMS messages reach a real HTTP endpoint: POSTed as signed JSON with an idempotency key, retried
/// with growing delays while it fails, delivered exactly once when it answers 2xx, and dead-lettered
/// (while other messages keep flowing) when it never does. The secret never reaches a log line.
@Suite("SMS delivery through the signed webhook")
struct SMSWebhookTests {
    typealias Fixture = OutboxFixture

    /// A development server whose SMS go to a ``WebhookReceiver`` signed with a fresh secret,
    /// logging into ``log``; ``stop()`` ends all of it.
    final class Harness: Sendable {
        let receiver: WebhookReceiver
        let secret: String
        let log = MessageSealerTests.CapturedLog()
        let server: LatchTestServer
        private let cleanup: @Sendable () -> Void

        init(_ receiver: WebhookReceiver, configure: (inout LatchServerConfiguration) -> Void = { _ in }) throws {
            self.receiver = receiver
            let (secret, secretFile, cleanup) = try Fixture.secretFile()
            (self.secret, self.cleanup) = (secret, cleanup)
            server = try LatchTestServer.start(mode: .inProcess) { [log] in
                $0.smsWebhookURL = receiver.url
                $0.smsWebhookSecretFile = secretFile
                $0.log = log.log
                configure(&$0)
            }
        }

        /// Whether any log line holds the secret or one of `codes`.
        func logged(_ codes: String...) -> Bool {
            log.text.contains { line in line.contains(secret) || codes.contains { line.contains($0) } }
        }

        func stop() {
            server.stop()
            receiver.stop()
            cleanup()
        }
    }

    /// `date` as RFC 3339 in UTC, to the second.
    static func rfc3339(_ date: Date) -> String {
        ISO8601DateFormatter.string(from: date, timeZone: .gmt, formatOptions: [.withInternetDateTime])
    }

    @Test("an SMS in the outbox arrives as JSON with a valid Latch-Signature and its Idempotency-Key")
    func signedDelivery() async throws {
        let harness = try Harness(WebhookReceiver())
        defer { harness.stop() }
        let (server, receiver, secret) = (harness.server, harness.receiver, harness.secret)

        let queued = try Fixture.queue(server, code: "31415926")
        #expect(try await Fixture.eventually { try Fixture.row(server, queued.id).deliveredAt != nil })
        let requests = receiver.received
        try #require(requests.count == 1)
        let request = requests[0]
        #expect(request.headers["content-type"] == "application/json")
        #expect(request.headers["idempotency-key"] == queued.messageID)
        #expect(
            request.json == [
                "id": queued.messageID, "tenant": queued.tenantID, "to": Fixture.phone, "body": "Your Latch code is 31415926",
                "created_at": Self.rfc3339(queued.createdAt),
            ])

        // The receiver's check, written out: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>.
        let header = try #require(request.headers["latch-signature"])
        let parts = Dictionary(
            uniqueKeysWithValues: header.split(separator: ",").map { part -> (String, String) in
                let pair = part.split(separator: "=", maxSplits: 1)
                return (String(pair[0]), pair.count > 1 ? String(pair[1]) : "")
            })
        let timestamp = try #require(parts["t"].flatMap { Int64($0) })
        #expect(timestamp == Int64(server.clock.now().timeIntervalSince1970))
        let mac = try HMACSHA256.mac(Array("\(timestamp).".utf8) + request.body, key: Array(secret.utf8))
        #expect(parts["v1"] == mac.map { String(format: "%02x", $0) }.joined())

        let key = try WebhookSecret(secret)
        #expect(WebhookSignature.verify(header, body: request.body, secret: key, now: server.clock.now()))
        #expect(!WebhookSignature.verify(header, body: request.body + [0x20], secret: key, now: server.clock.now()))
        #expect(!WebhookSignature.verify(header, body: request.body, secret: try WebhookSecret("other"), now: server.clock.now()))
        // A replay outside the five-minute window is refused.
        #expect(!WebhookSignature.verify(header, body: request.body, secret: key, now: server.clock.now() + 301))
        #expect(!harness.logged())
    }

    @Test("500s are retried with growing delays on the server's clock, then delivered once the endpoint answers 200")
    func retriedWithBackoff() async throws {
        let harness = try Harness(WebhookReceiver(script: [500, 500, 500]))
        defer { harness.stop() }
        let (server, receiver) = (harness.server, harness.receiver)

        let queued = try Fixture.queue(server)
        var delays: [TimeInterval] = []
        for attempt in 1...3 {
            #expect(try await Fixture.eventually { try Fixture.row(server, queued.id).attempts == attempt })
            let row = try Fixture.row(server, queued.id)
            #expect(row.deliveredAt == nil && row.abandonedAt == nil)
            #expect(row.lastError?.contains("HTTP 500") == true, "\(row)")
            let delay = try #require(row.nextAttemptAt).timeIntervalSince(server.clock.now())
            delays.append(delay)
            // Not yet due: the worker, woken, leaves it alone.
            server.clock.advance(by: delay - 1)
            try await Fixture.settle(server)
            #expect(receiver.received.count == attempt)
            server.clock.advance(by: 1)
            server.app.deliverDueMessages()
            #expect(try await Fixture.eventually { receiver.received.count == attempt + 1 })
        }
        // 5 s doubling, each shortened by at most 10 % jitter.
        #expect((4.5...5).contains(delays[0]) && (9...10).contains(delays[1]) && (18...20).contains(delays[2]), "\(delays)")
        #expect(try await Fixture.eventually { try Fixture.row(server, queued.id).deliveredAt != nil })
        #expect(try Fixture.row(server, queued.id).attempts == 3)

        // Delivered exactly once: nothing more goes out, however much later.
        server.clock.advance(by: 3600)
        try await Fixture.settle(server)
        let requests = receiver.received
        #expect(requests.map(\.status) == [500, 500, 500, 200])
        #expect(Set(requests.compactMap { $0.headers["idempotency-key"] }) == [queued.messageID])
        #expect(Set(requests.map(\.body)).count == 1, "every attempt sends the same body")
        #expect(try server.outbox(to: Fixture.phone).count == 1)
        #expect(harness.log.text.filter { $0.contains("outbox delivery failed; retrying") }.count == 3)
        #expect(!harness.logged("48151623"))
    }

    @Test("an endpoint that always fails dead-letters the SMS after the most attempts; other messages keep flowing")
    func deadLettered() async throws {
        let failing = "+14155550199"
        let harness = try Harness(WebhookReceiver { json, _ in json["to"] == failing ? 500 : 200 }) {
            $0.outboxRetry.maximumAttempts = 3
        }
        defer { harness.stop() }
        let (server, receiver, log) = (harness.server, harness.receiver, harness.log)

        // Queued first, so each pass meets it before the others.
        let doomed = try Fixture.queue(server, to: failing, code: "66666666")
        let email = try Fixture.queue(server, channel: "email", to: "ada@example.com", code: "11111111")
        let sms = try Fixture.queue(server, code: "22222222")
        #expect(try await Fixture.eventually { try Fixture.row(server, doomed.id).attempts == 1 })
        #expect(
            try await Fixture.eventually {
                try Fixture.row(server, email.id).deliveredAt != nil && Fixture.row(server, sms.id).deliveredAt != nil
            })
        #expect(log.text.contains { $0.contains("outbox channel=email to=ada@example.com code=11111111") })

        for attempt in 2...3 {
            let later = try Fixture.queue(server, code: "3333333\(attempt)")
            #expect(try await Fixture.eventually { try Fixture.row(server, later.id).deliveredAt != nil })
            let due = try #require(try Fixture.row(server, doomed.id).nextAttemptAt)
            server.clock.advance(by: due.timeIntervalSince(server.clock.now()))
            server.app.deliverDueMessages()
            #expect(try await Fixture.eventually { try Fixture.row(server, doomed.id).attempts == attempt })
        }
        let dead = try Fixture.row(server, doomed.id)
        #expect(dead.abandonedAt != nil && dead.deliveredAt == nil && dead.sealedBody == nil, "\(dead)")
        #expect(dead.lastError == "SMS webhook 127.0.0.1:\(try #require(URL(string: receiver.url)?.port)) answered HTTP 500")
        server.clock.advance(by: 3600)
        try await Fixture.settle(server)
        #expect(receiver.received.filter { $0.to == failing }.count == 3)
        #expect(log.text.filter { $0.contains("dead-lettered") }.count == 1, "\(log.text)")

        let failed = try MessageSealerTests.latchd(["outbox", "--failed", "--dev", "--data-dir", server.dataDirectory])
        let lines = failed.split(separator: "\n")
        #expect(lines.count == 1, "\(failed)")
        let line = String(try #require(lines.first))
        for part in [
            "to=\(failing)", "code=-", "\tabandoned\t", "channel=sms", "attempts=3", "last_error=SMS webhook", "HTTP 500",
        ] {
            #expect(line.contains(part), "\(line)")
        }
        let all = try MessageSealerTests.latchd(["outbox", "--dev", "--data-dir", server.dataDirectory])
        #expect(all.split(separator: "\n").count == 5, "\(all)")
        #expect(all.contains("to=ada@example.com\tcode=11111111\tdelivered\tYour sign-in code\tchannel=email\tattempts=0"))
        #expect(!harness.logged("66666666"))
    }

    @Test("an unreachable endpoint counts as a failed attempt with a reason, and is retried")
    func unreachable() async throws {
        let closed = try WebhookReceiver()
        closed.stop()
        let harness = try Harness(closed)
        defer { harness.stop() }
        let server = harness.server
        let queued = try Fixture.queue(server)
        #expect(try await Fixture.eventually { try Fixture.row(server, queued.id).attempts == 1 })
        let row = try Fixture.row(server, queued.id)
        #expect(row.lastError?.hasPrefix("SMS webhook 127.0.0.1:") == true && row.lastError?.contains("unreachable") == true)
        #expect(row.nextAttemptAt != nil && row.abandonedAt == nil)
    }

    @Test("without a webhook, --dev logs an SMS like an e-mail: 'outbox channel=sms to=+1... code=...'")
    func developmentLog() async throws {
        let log = MessageSealerTests.CapturedLog()
        let server = try LatchTestServer.start(mode: .inProcess) { $0.log = log.log }
        defer { server.stop() }
        let queued = try Fixture.queue(server, code: "27182818")
        #expect(try await Fixture.eventually { try Fixture.row(server, queued.id).deliveredAt != nil })
        #expect(log.text.contains { $0.contains("outbox channel=sms to=\(Fixture.phone) code=27182818") }, "\(log.text)")
    }

    @Test("outside --dev without a webhook an SMS is abandoned at once, with one line naming the option to set")
    func noSMSTransport() async throws {
        let log = MessageSealerTests.CapturedLog()
        let server = try LatchTestServer.start(mode: .inProcess) {
            $0.development = false
            $0.log = log.log
        }
        defer { server.stop() }
        let queued = try Fixture.queue(server)
        #expect(try await Fixture.eventually { try Fixture.row(server, queued.id).abandonedAt != nil })
        server.clock.advance(by: 3600)
        try await Fixture.settle(server)
        let row = try Fixture.row(server, queued.id)
        #expect(row.attempts == 0 && row.lastError?.contains("--sms-webhook-url") == true, "\(row)")
        let lines = log.text.filter { $0.contains("outbox message abandoned") }
        #expect(lines.count == 1, "\(log.text)")
        #expect(lines.first?.contains("--sms-webhook-url") == true && lines.first?.contains("channel=sms") == true)
    }
}
