import Foundation
import LatchServer
import LatchTesting
import Testing

/// Unauthenticated traffic cannot grow the database without bound: failures without an account
/// are aggregated, and audit events have a retention.
@Suite("Database growth under unauthenticated floods")
struct FloodGrowthTests {
    @Test("500 sign-in starts for unknown addresses write no audit row each; one summary row per flush")
    func unknownAddressFlood() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        var client = WireClient(server)
        let tenant = try server.app.services.admin.tenant(named: "default")
        let before = try server.app.services.admin.auditEvents(tenant: tenant, limit: 10_000).count
        for index in 0..<500 {
            // From many addresses, as a flood that per-source limits do not stop on their own.
            client.remoteAddress = "10.1.\(index / 256).\(index % 256)"
            let reply = try await client.post(
                "oauth2/v2.0/initiate", ["username": "nobody-\(index)@example.com", "challenge_type": "password redirect"])
            #expect(reply.status == 400)
        }
        try server.app.services.store.write { try server.app.services.auditAggregator.flush(into: $0, at: Date()) }
        // The maintenance pass may have flushed once during the flood too: at most two summary rows,
        // whose counts add up to every failure.
        let written = try server.app.services.admin.auditEvents(tenant: tenant, limit: 10_000).dropLast(before)
        #expect(written.count <= 2, "\(written.count) rows for 500 requests")
        let counted = written.compactMap { event -> Int? in
            guard let detail = event.detail, detail.hasPrefix("reason=user_not_found count=") else { return nil }
            return Int(detail.split(separator: " ")[1].dropFirst("count=".count))
        }
        #expect(counted.reduce(0, +) == 500)
    }

    /// Rows of `table` in the server's database, counted by the sqlite3 shell (WAL readers see
    /// every commit).
    static func rows(_ table: String, _ server: LatchTestServer) throws -> Int {
        let path = server.dataDirectory + "/latch.db"
        return Int(
            try SQLiteShell.execute("SELECT count(*) FROM \(table);", on: path).trimmingCharacters(in: .whitespacesAndNewlines))
            ?? -1
    }

    @Test("rows per unauthenticated request are bounded: one source's 100 starts write 30 flows, one bucket, one audit row")
    func rowsPerRequestFromOneSource() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        var settings = TenantSettings()
        settings.enumerationProtection = true  // unknown addresses get decoy flows: the costly case
        try server.createTenant("quiet", settings: settings)
        var client = WireClient(server, tenant: "quiet")
        client.remoteAddress = "127.0.0.9"
        let before = (flows: try Self.rows("flows", server), buckets: try Self.rows("rate_buckets", server))
        var statuses: [Int: Int] = [:]
        for index in 0..<100 {
            let reply = try await client.post(
                "oauth2/v2.0/initiate", ["username": "nobody-\(index)@example.com", "challenge_type": "password redirect"])
            statuses[reply.status, default: 0] += 1
        }
        #expect(statuses == [200: 30, 429: 70])
        #expect(try Self.rows("flows", server) - before.flows == 30)
        #expect(try Self.rows("rate_buckets", server) - before.buckets == 1)
        let admin = server.app.services.admin
        #expect(try admin.auditEvents(tenant: try admin.tenant(named: "quiet"), limit: 1000).count == 1)
    }

    @Test("rows per unauthenticated request are bounded: 200 starts from 200 sources write at most two rows each")
    func rowsPerRequestFromACrowd() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        var settings = TenantSettings()
        settings.enumerationProtection = true
        try server.createTenant("quiet", settings: settings)
        var client = WireClient(server, tenant: "quiet")
        let before = try Self.rows("flows", server) + Self.rows("rate_buckets", server) + Self.rows("audit_events", server)
        for index in 0..<200 {
            client.remoteAddress = "10.5.\(index / 256).\(index % 256)"
            let reply = try await client.post(
                "oauth2/v2.0/initiate", ["username": "nobody-\(index)@example.com", "challenge_type": "password redirect"])
            #expect(reply.status == 200)
        }
        let after = try Self.rows("flows", server) + Self.rows("rate_buckets", server) + Self.rows("audit_events", server)
        // One decoy flow (purged an hour after it expires) and one bucket (deleted once full again).
        #expect(after - before == 400)
    }

    @Test("audit events past the tenant's retention are purged by the maintenance pass")
    func retention() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let tenant = try server.app.services.admin.tenant(named: "default")
        _ = try await TokenHelpers.userWithTokens(server)
        #expect(!(try server.app.services.admin.auditEvents(tenant: tenant)).isEmpty)
        // 91 days later (default retention 90) the next maintenance pass (once a minute) purges them.
        server.clock.advance(by: 91 * 86_400)
        var remaining = -1
        for _ in 0..<300 {
            remaining = try server.app.services.admin.auditEvents(tenant: tenant).count
            if remaining == 0 { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(remaining == 0)
    }
}
