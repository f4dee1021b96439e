import Foundation
import LatchServer
import LatchTesting
import Testing

/// Per-source token buckets on the unauthenticated endpoints: flow starts, code sends, password
/// checks and token requests, each with a correct `Retry-After`, one audit event per trip, and
/// sized per tenant.
@Suite("Per-source rate limits")
struct RateLimitTests {
    /// A sign-up start and its code request for `email`; returns the challenge answer (or the
    /// start's, when it was refused).
    static func signUpCode(_ client: WireClient, _ email: String) async throws -> WireResponse {
        let start = try await client.post("signup/v1.0/start", ["username": email, "challenge_type": "oob redirect"])
        guard let token = start.continuationToken else { return start }
        return try await client.post("signup/v1.0/challenge", ["continuation_token": token])
    }

    static func rateLimitEvents(_ server: LatchTestServer, tenant: String = "default") throws -> [AuditEvent] {
        let admin = server.app.services.admin
        return try admin.auditEvents(tenant: try admin.tenant(named: tenant), limit: 10_000).filter { $0.kind == .rateLimited }
    }

    @Test("one source mailing codes to 30 addresses gets 10 sent, then 429 with Retry-After 60")
    func codeSendsAcrossAddresses() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        var client = WireClient(server)
        client.remoteAddress = "127.0.0.20"
        var statuses: [Int] = []
        var retryAfter: [String] = []
        for index in 0..<30 {
            let reply = try await Self.signUpCode(client, "bomb-\(index)@example.com")
            statuses.append(reply.status)
            if reply.status == 429 { retryAfter.append(reply.headers["retry-after"] ?? "-") }
        }
        #expect(statuses == Array(repeating: 200, count: 10) + Array(repeating: 429, count: 20))
        // 10 per 600 s: one send back every 60 s.
        #expect(Set(retryAfter) == ["60"])
        let mailed = try (0..<30).filter { !(try server.outbox(to: "bomb-\($0)@example.com")).isEmpty }
        #expect(mailed.count == 10)
        // Another source is not affected.
        var other = WireClient(server)
        other.remoteAddress = "127.0.0.21"
        #expect(try await Self.signUpCode(other, "someone@example.com").status == 200)
    }

    @Test("flow starts: the 31st from one source is refused on every flow kind, another source and tenant are not")
    func flowStarts() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        try server.createTenant("other", settings: TenantSettings())
        try server.createUser(email: "known@example.com", password: TokenHelpers.password)
        var client = WireClient(server)
        client.remoteAddress = "127.0.0.30"
        for index in 0..<30 {
            let reply = try await client.post(
                "oauth2/v2.0/initiate", ["username": "known@example.com", "challenge_type": "password redirect"])
            #expect(reply.status == 200, "start \(index)")
        }
        let refused = [
            try await client.post(
                "oauth2/v2.0/initiate", ["username": "known@example.com", "challenge_type": "password redirect"]),
            try await client.post("signup/v1.0/start", ["username": "new@example.com", "challenge_type": "oob redirect"]),
            try await client.post(
                "resetpassword/v1.0/start", ["username": "known@example.com", "challenge_type": "oob redirect"]),
        ]
        for reply in refused {
            #expect(reply.status == 429)
            #expect(reply.headers["retry-after"] == "10")  // 30 per 300 s
            #expect(reply.error == "too_many_requests")
        }
        var neighbour = WireClient(server)
        neighbour.remoteAddress = "127.0.0.31"
        #expect(
            try await neighbour.post(
                "oauth2/v2.0/initiate", ["username": "known@example.com", "challenge_type": "password redirect"]
            ).status == 200)
        var elsewhere = WireClient(server, tenant: "other")
        elsewhere.remoteAddress = "127.0.0.30"
        #expect(
            try await elsewhere.post("signup/v1.0/start", ["username": "new@example.com", "challenge_type": "oob redirect"])
                .status
                == 200)
        // The bucket refills: ten seconds later one more start is admitted, and only one.
        server.clock.advance(by: 10)
        let statuses = [
            try await client.post(
                "oauth2/v2.0/initiate", ["username": "known@example.com", "challenge_type": "password redirect"]
            )
            .status,
            try await client.post(
                "oauth2/v2.0/initiate", ["username": "known@example.com", "challenge_type": "password redirect"]
            )
            .status,
        ]
        #expect(statuses == [200, 429])
    }

    @Test("a trip writes one audit event however many requests it refuses; the next trip writes another")
    func oneAuditEventPerTrip() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        try server.updateTenant { $0.rateLimits.flowStarts = RateLimit(count: 2, periodSeconds: 60) }
        var client = WireClient(server)
        client.remoteAddress = "127.0.0.40"
        func start() async throws -> Int {
            try await client.post("signup/v1.0/start", ["username": "trip@example.com", "challenge_type": "oob redirect"]).status
        }
        var statuses: [Int] = []
        for _ in 0..<12 { statuses.append(try await start()) }
        #expect(statuses == [200, 200] + Array(repeating: 429, count: 10))
        var events = try Self.rateLimitEvents(server)
        #expect(events.count == 1)
        #expect(events.first?.remoteAddress == "127.0.0.40")
        #expect(events.first?.detail == "limit=flow_starts 2/1m")
        server.clock.advance(by: 30)
        #expect(try await start() == 200)
        for _ in 0..<5 { #expect(try await start() == 429) }
        events = try Self.rateLimitEvents(server)
        #expect(events.count == 2)
    }

    @Test("token requests are counted per source across grants, failed ones too")
    func tokenRequests() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        try server.updateTenant { $0.rateLimits.tokenRequests = RateLimit(count: 3, periodSeconds: 30) }
        var client = WireClient(server)
        client.remoteAddress = "127.0.0.50"
        var statuses: [Int] = []
        for index in 0..<3 { statuses.append(try await TokenHelpers.refresh(client, "not-a-token-\(index)").status) }
        let refused = try await client.post("oauth2/v2.0/token", ["grant_type": "password", "continuation_token": "x"])
        #expect(statuses == [400, 400, 400])
        #expect(refused.status == 429)
        #expect(refused.headers["retry-after"] == "10")
        client.remoteAddress = "127.0.0.51"
        #expect(try await TokenHelpers.refresh(client, "not-a-token").status == 400)
    }

    @Test("password checks are counted per source across accounts (password spraying)")
    func passwordAttemptsAcrossAccounts() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        try server.updateTenant { $0.rateLimits.passwordAttempts = RateLimit(count: 3, periodSeconds: 300) }
        let emails = try (0..<4).map { index -> String in
            let email = "spray-\(index)@example.com"
            try server.createUser(email: email, password: TokenHelpers.password)
            return email
        }
        var sprayer = WireClient(server)
        sprayer.remoteAddress = "127.0.0.60"
        var statuses: [Int] = []
        for email in emails {
            statuses.append(try await TokenHelpers.passwordSignIn(sprayer, email: email, password: "Spring2026!x").status)
        }
        #expect(statuses == [400, 400, 400, 429])
        // The fourth account was not touched by the sprayer: its owner signs in from elsewhere.
        var owner = WireClient(server)
        owner.remoteAddress = "127.0.0.61"
        #expect(try await TokenHelpers.passwordSignIn(owner, email: emails[3]).status == 200)
    }

    @Test("addresses of one IPv6 /64 share a bucket; another /64 has its own")
    func ipv6Prefix() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        try server.updateTenant { $0.rateLimits.flowStarts = RateLimit(count: 2, periodSeconds: 60) }
        var client = WireClient(server)
        var statuses: [Int] = []
        for host in ["2001:db8:1:2::1", "2001:db8:1:2:ffff::9", "2001:0db8:0001:0002::abcd", "2001:db8:1:3::1"] {
            client.remoteAddress = host
            statuses.append(
                try await client.post("signup/v1.0/start", ["username": "v6@example.com", "challenge_type": "oob redirect"])
                    .status)
        }
        #expect(statuses == [200, 200, 429, 200])
    }

    @Test("a limit of 0 turns the bucket off")
    func disabledLimit() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        try server.updateTenant { $0.rateLimits.flowStarts = RateLimit(count: 0, periodSeconds: 60) }
        let client = WireClient(server)
        for _ in 0..<40 {
            #expect(
                try await client.post("signup/v1.0/start", ["username": "off@example.com", "challenge_type": "oob redirect"])
                    .status
                    == 200)
        }
        #expect(try Self.rateLimitEvents(server).isEmpty)
    }

    @Test("40 concurrent starts from one source: exactly the bucket's 30 are admitted")
    func concurrentBurst() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        var client = WireClient(server)
        client.remoteAddress = "127.0.0.70"
        let frozen = client
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<40 {
                group.addTask {
                    try await frozen.post(
                        "signup/v1.0/start", ["username": "burst-\(index)@example.com", "challenge_type": "oob redirect"]
                    ).status
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses.filter { $0 == 200 }.count == 30)
        #expect(statuses.filter { $0 == 429 }.count == 10)
        #expect(try Self.rateLimitEvents(server).count == 1)
    }
}
