import Foundation
import LatchServer
import LatchTesting
import Testing

/// A stranger who knows only the victim's address cannot use up the victim's code sends, and an
/// unknown address meets exactly the send limits a real one does.
@Suite("Lockout resistance")
struct LockoutResistanceTests {
    /// An in-process server with a tenant `quiet` under enumeration protection that has one real
    /// account, `real@example.com`.
    static func protectedServer() throws -> LatchTestServer {
        let server = try LatchTestServer.start(mode: .inProcess)
        var settings = TenantSettings()
        settings.enumerationProtection = true
        try server.createTenant("quiet", settings: settings)
        try server.createUser(email: "real@example.com", password: TokenHelpers.password, tenant: "quiet")
        return server
    }

    /// Starts a reset for `email` from `client` and asks for its code; returns the challenge answer.
    static func resetCode(_ client: WireClient, _ email: String) async throws -> WireResponse {
        let start = try await client.post("resetpassword/v1.0/start", ["username": email, "challenge_type": "oob redirect"])
        guard let token = start.continuationToken else { return start }
        return try await client.post("resetpassword/v1.0/challenge", ["continuation_token": token])
    }

    @Test("five reset codes requested by a stranger leave the victim's own reset and code sign-in working")
    func strangerCannotUseUpSends() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let email = TokenHelpers.uniqueEmail("victim")
        try server.createUser(email: email, password: TokenHelpers.password)
        var stranger = WireClient(server)
        stranger.remoteAddress = "127.0.0.2"
        for _ in 0..<5 { #expect(try await Self.resetCode(stranger, email).status == 200) }
        #expect(try await Self.resetCode(stranger, email).status == 429)
        // Five wrong passwords from the stranger delay password sign-in only.
        for _ in 0..<5 {
            _ = try await TokenHelpers.passwordSignIn(stranger, email: email, password: "Wrong-Guess-123")
        }

        var victim = WireClient(server)
        victim.remoteAddress = "127.0.0.3"
        #expect(try await Self.resetCode(victim, email).status == 200)
        let initiate = try await victim.post("oauth2/v2.0/initiate", ["username": email, "challenge_type": "oob redirect"])
        let code = try await victim.post(
            "oauth2/v2.0/challenge", ["continuation_token": try #require(initiate.continuationToken)])
        #expect(code.string("challenge_type") == "oob")

        // All sources together stop at the higher per-address cap (15).
        for index in 4..<13 {  // 5 from the stranger + 1 from the victim + 9 = 15
            var other = WireClient(server)
            other.remoteAddress = "127.0.0.\(index)"
            #expect(try await Self.resetCode(other, email).status == 200, "source \(index)")
        }
        var last = WireClient(server)
        last.remoteAddress = "127.0.0.99"
        #expect(try await Self.resetCode(last, email).status == 429)
    }

    @Test("under enumeration protection an unknown address gets the same send limit as a real one")
    func decoyMeetsTheSameLimits() async throws {
        let server = try Self.protectedServer()
        defer { server.stop() }
        var client = WireClient(server, tenant: "quiet")
        for (index, address) in ["real@example.com", "ghost@example.com"].enumerated() {
            client.remoteAddress = "10.4.0.\(index)"  // each address probed from its own source
            var statuses: [Int] = []
            for _ in 0..<6 { statuses.append(try await Self.resetCode(client, address).status) }
            #expect(statuses == [200, 200, 200, 200, 200, 429], "\(address)")
        }
        #expect(try server.outbox(to: "ghost@example.com", tenant: "quiet").isEmpty)
    }
}

extension LockoutResistanceTests {
    @Test("under enumeration protection, six wrong passwords answer the same for a real and an unknown address")
    func decoyPasswordDelayMatches() async throws {
        let server = try Self.protectedServer()
        defer { server.stop() }
        let client = WireClient(server, tenant: "quiet")
        var answers: [String: [String]] = [:]
        for address in ["real@example.com", "ghost@example.com"] {
            for _ in 0..<6 {
                let reply = try await TokenHelpers.passwordSignIn(client, email: address, password: "Wrong-Guess-123")
                answers[address, default: []].append(
                    "\(reply.status) \(reply.error ?? "-") \(reply.errorCodes) \(reply.headers["retry-after"] ?? "-")")
            }
        }
        #expect(answers["real@example.com"] == answers["ghost@example.com"])
        #expect(answers["ghost@example.com"]?.last?.hasPrefix("429") == true)
    }
}
