import Foundation
import LatchServer
import LatchTesting
import Testing

/// Under enumeration protection the sign-in challenge does not tell an unknown address from a
/// real one: unknown addresses answer `password` or `oob` in the proportion the tenant's accounts
/// do, each address always the same way.
@Suite("Enumeration protection at the sign-in challenge")
struct DecoyChallengeTests {
    /// The challenge answer for `email` with the client's `challengeType`.
    static func challenge(_ client: WireClient, _ email: String, challengeType: String = "oob password redirect")
        async throws -> WireResponse
    {
        let start = try await client.post("oauth2/v2.0/initiate", ["username": email, "challenge_type": challengeType])
        try #require(start.status == 200, "initiate: \(start.json)")
        return try await client.post(
            "oauth2/v2.0/challenge",
            ["continuation_token": try #require(start.continuationToken), "challenge_type": challengeType])
    }

    /// A protected tenant `quiet` with `withPassword` password accounts and `codeOnly` code-only ones.
    static func server(withPassword: Int, codeOnly: Int) throws -> LatchTestServer {
        let server = try LatchTestServer.start(mode: .inProcess)
        var settings = TenantSettings()
        settings.enumerationProtection = true
        settings.rateLimits = .off  // one source probes hundreds of addresses
        try server.createTenant("quiet", settings: settings)
        for index in 0..<withPassword {
            try server.createUser(email: "pw-\(index)@example.com", password: TokenHelpers.password, tenant: "quiet")
        }
        for index in 0..<codeOnly {
            try server.createUser(email: "code-\(index)@example.com", password: nil, tenant: "quiet")
        }
        return server
    }

    /// The keys and fixed values of an answer, without the token and the masked address.
    static func shape(_ reply: WireResponse) -> String {
        let fixed = reply.json.filter { !["continuation_token", "challenge_target_label"].contains($0.key) }
        return "\(reply.status) " + fixed.keys.sorted().map { "\($0)=\(fixed[$0] ?? "")" }.joined(separator: ",")
    }

    @Test("with half the accounts code-only, unknown addresses answer oob about half the time, each always the same")
    func unknownAddressesFollowTheTenantsMix() async throws {
        let server = try Self.server(withPassword: 1, codeOnly: 1)
        defer { server.stop() }
        let client = WireClient(server, tenant: "quiet")
        let real = try await Self.challenge(client, "code-0@example.com")
        #expect(real.string("challenge_type") == "oob")
        var kinds: [String: Int] = [:]
        for index in 0..<100 {
            let reply = try await Self.challenge(client, "nobody-\(index)@example.com")
            kinds[reply.string("challenge_type") ?? "-", default: 0] += 1
            if reply.string("challenge_type") == "oob" { #expect(Self.shape(reply) == Self.shape(real)) }
        }
        // Binomial(100, 0.5): outside 25...75 with probability below 10^-6.
        #expect((25...75).contains(kinds["oob"] ?? 0), "\(kinds)")
        #expect((kinds["oob"] ?? 0) + (kinds["password"] ?? 0) == 100, "\(kinds)")
        // The same address gets the same answer every time, and no code is mailed to it.
        for index in 0..<10 {
            let first = try await Self.challenge(client, "nobody-\(index)@example.com").string("challenge_type")
            let again = try await Self.challenge(client, "nobody-\(index)@example.com").string("challenge_type")
            #expect(first == again)
            #expect(try server.outbox(to: "nobody-\(index)@example.com", tenant: "quiet").isEmpty)
        }
    }

    @Test("a password-only client is sent to the browser for a code-only account and for its decoys alike")
    func passwordOnlyClient() async throws {
        let server = try Self.server(withPassword: 1, codeOnly: 1)
        defer { server.stop() }
        let client = WireClient(server, tenant: "quiet")
        let real = try await Self.challenge(client, "code-0@example.com", challengeType: "password redirect")
        #expect(real.string("challenge_type") == "redirect")
        var kinds: Set<String> = []
        for index in 0..<40 {
            let reply = try await Self.challenge(client, "nobody-\(index)@example.com", challengeType: "password redirect")
            kinds.insert(reply.string("challenge_type") ?? "-")
        }
        #expect(kinds == ["password", "redirect"])
    }

    @Test("a tenant whose accounts all have passwords answers password for every unknown address")
    func allPasswordTenant() async throws {
        let server = try Self.server(withPassword: 2, codeOnly: 0)
        defer { server.stop() }
        let client = WireClient(server, tenant: "quiet")
        for index in 0..<20 {
            #expect(try await Self.challenge(client, "nobody-\(index)@example.com").string("challenge_type") == "password")
        }
    }

    @Test("a decoy's code is refused like a wrong one, and the code limit burns it like a real code")
    func decoyCodeIsNeverAccepted() async throws {
        let server = try Self.server(withPassword: 0, codeOnly: 1)  // every unknown address is code-only
        defer { server.stop() }
        let client = WireClient(server, tenant: "quiet")
        var answers: [String: [String]] = [:]
        for email in ["code-0@example.com", "ghost@example.com"] {
            let challenge = try await Self.challenge(client, email)
            #expect(challenge.string("challenge_type") == "oob")
            var token = try #require(challenge.continuationToken)
            for attempt in 0..<6 {
                let reply = try await client.post(
                    "oauth2/v2.0/token",
                    ["grant_type": "oob", "continuation_token": token, "oob": String(format: "%08d", attempt)])
                answers[email, default: []].append("\(reply.status) \(reply.error ?? "-") \(reply.suberror ?? "-")")
                token = reply.continuationToken ?? token
            }
        }
        #expect(answers["code-0@example.com"] == answers["ghost@example.com"])
    }
}
