import Foundation
import LatchServer
import LatchTesting
import Testing

/// The user code of the device grant (RFC 8628 § 6.1) and the verification page's domain API:
/// format, normalisation, unknown codes, guessing limits (§ 5.1), and concurrent decisions.
@Suite("Device authorization grant: user codes")
struct DeviceUserCodeTests {
    static let alphabet = Set("BCDFGHJKLMNPQRSTVWXZ")

    @Test("codes are 8 of the 20 letters, shown XXXX-XXXX, read case-insensitively without dashes or spaces")
    func format() async throws {
        for _ in 0..<200 {
            let code = UserCode.random()
            #expect(code.normalized.count == 8)
            #expect(code.normalized.allSatisfy { Self.alphabet.contains($0) })
            #expect(code.display == "\(code.normalized.prefix(4))-\(code.normalized.suffix(4))")
            #expect(UserCode(typed: code.display) == code)
        }
        #expect(UserCode(typed: "bcdf-ghjk")?.normalized == "BCDFGHJK")
        #expect(UserCode(typed: " bcdf ghjk ")?.normalized == "BCDFGHJK")
        #expect(UserCode(typed: "BcDfGhJk")?.normalized == "BCDFGHJK")
        for bad in ["", "BCDF-GHJ", "BCDF-GHJKL", "BCDF-GHJA", "BCDF-GHJ1", "BCDF_GHJK", "ḂCDF-GHJK"] {
            #expect(UserCode(typed: bad) == nil, "\(bad)")
        }
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let fixture = DeviceGrantFixture(server)
        let (_, userCode) = try await fixture.started()
        #expect(userCode.count == 9)
        #expect(userCode.dropFirst(4).first == "-")
        #expect(userCode.filter { $0 != "-" }.allSatisfy { Self.alphabet.contains($0) })
        // The page finds it however the user types it.
        let typed = userCode.lowercased().replacingOccurrences(of: "-", with: " ")
        let shown = try fixture.services.deviceAuthorizations.pending(
            userCode: typed, tenant: try fixture.tenant(), remoteAddress: "198.51.100.7")
        #expect(shown.userCode == userCode)
    }

    @Test("unknown, malformed and missing user codes are refused")
    func unknown() throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let fixture = DeviceGrantFixture(server)
        let service = fixture.services.deviceAuthorizations
        let tenant = try fixture.tenant()
        for code in ["BBBB-BBBB", "hello", String(repeating: "B", count: 100)] {
            #expect(
                DeviceGrantFixture.failure {
                    _ = try service.pending(userCode: code, tenant: tenant, remoteAddress: "198.51.100.7")
                }
                    == .deviceAuthorization(.invalidUserCode), "\(code.prefix(9))")
        }
        #expect(
            DeviceGrantFixture.failure { _ = try service.pending(userCode: nil, tenant: tenant, remoteAddress: "198.51.100.7") }
                == .missingParameter(.userCode))
        let user = try fixture.user()
        #expect(
            DeviceGrantFixture.failure { try fixture.approve("BBBB-BBBB", user: user) } == .deviceAuthorization(.invalidUserCode))
        #expect(
            DeviceGrantFixture.failure { try service.deny(userCode: "not a code", tenant: tenant) }
                == .deviceAuthorization(.invalidUserCode))
    }

    @Test("a code of one tenant is unknown in another")
    func otherTenant() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let fixture = DeviceGrantFixture(server)
        _ = try server.createTenant("other", settings: TenantSettings())
        let (_, userCode) = try await fixture.started()
        #expect(
            DeviceGrantFixture.failure {
                _ = try fixture.services.deviceAuthorizations.pending(
                    userCode: userCode, tenant: try fixture.tenant("other"), remoteAddress: "198.51.100.7")
            } == .deviceAuthorization(.invalidUserCode))
    }

    @Test("wrong guesses from one address are counted; over the limit even the right code is refused with a wait")
    func guessing() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        try server.updateTenant { $0.rateLimits.userCodeGuesses = RateLimit(count: 3, periodSeconds: 300) }
        let fixture = DeviceGrantFixture(server)
        let service = fixture.services.deviceAuthorizations
        let tenant = try fixture.tenant()
        let (_, userCode) = try await fixture.started()
        // Right codes are not counted.
        for _ in 0..<5 { _ = try service.pending(userCode: userCode, tenant: tenant, remoteAddress: "203.0.113.9") }
        for guess in ["BBBB-BBBB", "CCCC-CCCC", "DDDD-DDDD"] {
            #expect(
                DeviceGrantFixture.failure {
                    _ = try service.pending(userCode: guess, tenant: tenant, remoteAddress: "203.0.113.9")
                }
                    == .deviceAuthorization(.invalidUserCode))
        }
        let refused = DeviceGrantFixture.failure {
            _ = try service.pending(userCode: userCode, tenant: tenant, remoteAddress: "203.0.113.9")
        }
        guard case .tooManyAttempts(let retryAfter) = refused else {
            Issue.record("expected tooManyAttempts, got \(String(describing: refused))")
            return
        }
        #expect(retryAfter >= 1 && retryAfter <= 100)
        // Another address is not affected; the first recovers once the bucket refills.
        _ = try service.pending(userCode: userCode, tenant: tenant, remoteAddress: "203.0.113.10")
        server.clock.advance(by: TimeInterval(retryAfter))
        _ = try service.pending(userCode: userCode, tenant: tenant, remoteAddress: "203.0.113.9")
    }

    @Test("of concurrent approve and deny, exactly one applies, and the poll follows it")
    func concurrentDecisions() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let fixture = DeviceGrantFixture(server)
        let service = fixture.services.deviceAuthorizations
        let tenant = try fixture.tenant()
        let user = try fixture.user()
        let now = server.clock.now()
        for _ in 0..<5 {
            let (deviceCode, userCode) = try await fixture.started()
            let outcomes = await withTaskGroup(of: (String, Bool).self) { group in
                for index in 0..<6 {
                    group.addTask {
                        do {
                            if index.isMultiple(of: 2) {
                                try service.approve(
                                    userCode: userCode, tenant: tenant, userID: user.id, authTime: now, amr: ["pwd"])
                                return ("approve", true)
                            }
                            try service.deny(userCode: userCode, tenant: tenant)
                            return ("deny", true)
                        } catch {
                            return (index.isMultiple(of: 2) ? "approve" : "deny", false)
                        }
                    }
                }
                var all: [(String, Bool)] = []
                for await outcome in group { all.append(outcome) }
                return all
            }
            let winners = outcomes.filter(\.1)
            #expect(winners.count == 1, "\(outcomes)")
            let reply = try await fixture.poll(deviceCode)
            if winners.first?.0 == "approve" {
                #expect(reply.status == 200)
            } else {
                #expect(reply.error == "access_denied")
            }
        }
    }
}
