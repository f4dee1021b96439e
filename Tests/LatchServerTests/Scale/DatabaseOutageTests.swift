import Foundation
import LatchServer
import LatchTesting
import Testing

/// PostgreSQL going away under a running server: every request that needs the database fails
/// cleanly (503 with `Retry-After`, in its wire's shape; never a 500 or a crash), `/readyz` says so,
/// and once the database is back the server recovers by itself, with nothing committed lost.
@Suite("PostgreSQL outage", .enabled(if: PrivatePostgresCluster.available))
struct DatabaseOutageTests {
    @Test("while PostgreSQL is down requests get 503 with Retry-After and /readyz fails; once it is back all recover")
    func outageAndRecovery() async throws {
        let cluster = try PrivatePostgresCluster()
        let server = try LatchTestServer.start(mode: .inProcess) { $0.storeLocation = .postgres(url: cluster.url) }
        defer { server.stop() }
        // The load comes from one address, far faster than its flow-start limit allows.
        try server.app.services.admin.updateTenant(named: "default") { $0.rateLimits = .off }
        let client = WireClient(server)
        let firebaseClient = try FirebaseClient(server)
        let (_, tokens) = try await TokenHelpers.userWithTokens(server)
        let refreshToken = try #require(tokens.refreshToken)
        #expect(try await client.raw("GET", "/readyz").status == 200)

        // Load runs across the stop: requests in flight when the sessions end fail cleanly too.
        let load = Task {
            var statuses: [Int] = []
            for index in 0..<200 {
                let answer = try await client.post(
                    "oauth2/v2.0/initiate", ["username": "load-\(index)@example.com", "challenge_type": "oob password redirect"])
                statuses.append(answer.status)
                if answer.status == 503 { #expect(answer.headers["retry-after"] == "1") }
            }
            return statuses
        }
        try await Task.sleep(for: .milliseconds(100))
        try cluster.stop()

        let ready = try await client.raw("GET", "/readyz")
        #expect(ready.status == 503)
        let refresh = try await TokenHelpers.refresh(client, refreshToken)
        #expect(refresh.status == 503)
        #expect(refresh.headers["retry-after"] == "1")
        #expect(refresh.error == "temporarily_unavailable")
        let signUp = try await client.post(
            "signup/v1.0/start", ["username": "down@example.com", "challenge_type": "oob redirect"])
        #expect(signUp.status == 503)
        #expect(signUp.error == "temporarily_unavailable")
        let firebase = try await firebaseClient.post(FirebaseClient.v1 + "accounts:signUp", ["returnSecureToken": true])
        #expect(firebase.status == 503)
        #expect(firebase.headers["retry-after"] == "1")

        let statuses = try await load.value
        // 400 is the answer for an address without an account, while the database answers.
        #expect(statuses.allSatisfy { $0 == 400 || $0 == 503 }, "statuses: \(statuses)")
        #expect(statuses.contains(503))

        try cluster.start()
        let deadline = ContinuousClock.now + .seconds(20)
        var recovered = false
        while ContinuousClock.now < deadline {
            if try await client.raw("GET", "/readyz").status == 200 {
                recovered = true
                break
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(recovered)
        // The refresh token the outage refused is still good: nothing was consumed.
        let again = try await TokenHelpers.refresh(client, refreshToken)
        #expect(again.status == 200)
        _ = try await TokenHelpers.signUp(server, email: TokenHelpers.uniqueEmail("after-outage"))

        // The pool's counters saw it all: connections that failed, and the pool's size.
        let metrics = String(decoding: try await client.raw("GET", "/metrics").body, as: UTF8.self)
        let failures = metrics.split(separator: "\n").first { $0.hasPrefix("latch_store_connection_failures_total ") }
        #expect((failures?.split(separator: " ").last.flatMap { Int($0) } ?? 0) >= 1, "\(metrics)")
        #expect(metrics.contains("latch_store_connections_max 8"))
        #expect(metrics.contains("latch_store_connections_in_use "))
    }
}
