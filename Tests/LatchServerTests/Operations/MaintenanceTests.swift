import Foundation
import LatchLocking
import LatchServer
import LatchTesting
import Testing

/// Delivered codes are erased outside development, old rows are purged, and metric labels stay
/// bounded whatever clients send.
@Suite("Maintenance and metric hygiene")
struct MaintenanceTests {
    /// Records deliveries.
    final class RecordingTransport: MessageTransport {
        let delivered = Locked<[OutboxMessage]>([])
        func deliver(_ message: OutboxMessage) throws { delivered.withLock { $0.append(message) } }
    }

    static func waitUntil(_ condition: () throws -> Bool) async throws -> Bool {
        for _ in 0..<50 {
            if try condition() { return true }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        return try condition()
    }

    @Test("outside development a delivered code is erased from the outbox")
    func deliveredCodesAreErased() async throws {
        let transport = RecordingTransport()
        let server = try LatchTestServer.start { configuration in
            configuration.development = false
            configuration.transport = transport
        }
        defer { server.stop() }
        try server.createTenant("prod", settings: TenantSettings())
        let client = WireClient(server, tenant: "prod")
        let start = try await client.post(
            "signup/v1.0/start", ["username": "erase@example.com", "challenge_type": "oob redirect"])
        let challenge = try await client.post(
            "signup/v1.0/challenge", ["continuation_token": try #require(start.continuationToken)])
        #expect(challenge.status == 200)
        #expect(try await Self.waitUntil { transport.delivered.withLock { $0.count } == 1 })
        #expect(transport.delivered.withLock { $0.first?.code?.count } == 8)
        let stored = try await Self.waitUntil {
            try server.outbox(to: "erase@example.com", tenant: "prod").first?.deliveredAt != nil
        }
        #expect(stored)
        let message = try #require(try server.outbox(to: "erase@example.com", tenant: "prod").first)
        #expect(message.code == nil)
        #expect(message.body.isEmpty)
    }

    @Test("expired flows, day-old outbox messages and full rate-limit buckets are purged")
    func purge() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let client = WireClient(server)
        let start = try await client.post(
            "signup/v1.0/start", ["username": "purge@example.com", "challenge_type": "oob redirect"])
        let token = try #require(start.continuationToken)
        _ = try await client.post("signup/v1.0/challenge", ["continuation_token": token])
        #expect(try server.outbox(to: "purge@example.com").count == 1)
        #expect(try FloodGrowthTests.rows("rate_buckets", server) == 2)  // a flow start and a code send
        server.clock.advance(by: 2 * 86_400)
        #expect(try await Self.waitUntil { try server.outbox(to: "purge@example.com").isEmpty })
        // The rate-limit buckets the two requests used are full again, so they are gone too.
        #expect(try await Self.waitUntil { try FloodGrowthTests.rows("rate_buckets", server) == 0 })
        // The flow is gone too: its token is unknown, not merely expired.
        server.clock.advance(by: -2 * 86_400 + 1)
        let reply = try await client.post("signup/v1.0/challenge", ["continuation_token": token])
        #expect(reply.errorCodes == [55200])
    }

    @Test("refused requests and unknown methods never become metric labels")
    func boundedLabels() async throws {
        let server = try LatchTestServer.start()
        defer { server.stop() }
        let client = WireClient(server)
        let oversized = Data(repeating: UInt8(ascii: "a"), count: 70_000)
        let refused = try await client.raw(
            "POST", "/t/unique-path-\(UUID().uuidString)%0Afake_metric%201", body: oversized,
            headers: ["Content-Type": "application/x-www-form-urlencoded"])
        #expect(refused.status == 413)
        _ = try await client.raw("ZZTOP", "/default/oauth2/v2.0/token")
        let metrics = String(decoding: try await client.raw("GET", "/metrics").body, as: UTF8.self)
        #expect(metrics.contains("route=\"refused\""))
        #expect(!metrics.contains("unique-path"))
        #expect(!metrics.contains("ZZTOP"))
        #expect(!metrics.split(separator: "\n").contains { $0.hasPrefix("fake_metric") })
    }
}
