import Foundation
import LatchServer
import LatchTesting
import Testing

/// The client address that limits and audit events use: the socket peer, or what a trusted proxy
/// forwarded, never what a client claims about itself.
@Suite("Client address and trusted proxies")
struct ClientAddressTests {
    @Test(
        "CIDR prefixes parse and match IPv4, IPv6 and IPv4-mapped addresses",
        arguments: [
            ("10.0.0.0/8", "10.200.3.4", true), ("10.0.0.0/8", "11.0.0.1", false), ("127.0.0.1", "127.0.0.1", true),
            ("127.0.0.1", "127.0.0.2", false), ("192.168.1.0/24", "::ffff:192.168.1.9", true),
            ("2001:db8::/32", "2001:db8:ffff::1", true), ("2001:db8::/32", "2001:db9::1", false),
            ("::1", "::1", true), ("0.0.0.0/0", "8.8.8.8", true), ("10.0.0.0/8", "2001:db8::1", false),
            ("10.0.0.0/8", "not-an-address", false), ("172.16.0.0/12", "172.31.255.255", true),
            ("172.16.0.0/12", "172.32.0.0", false),
        ])
    func prefixes(range: String, address: String, inside: Bool) throws {
        let parsed = try #require(AddressRange(range))
        #expect(parsed.contains(address) == inside)
    }

    @Test(
        "malformed prefixes are refused",
        arguments: ["10.0.0.0/33", "::/129", "10.0.0.0/", "10.0.0/8", "host", "", "1.2.3.4/-1", "1.2.3.4/８"])
    func malformedPrefixes(text: String) {
        #expect(AddressRange(text) == nil)
    }

    @Test("IPv6 sources are keyed by their /64; IPv4 and mapped IPv4 by the address")
    func sourceKeys() {
        #expect(SourceAddress.key("2001:db8:1:2::1") == SourceAddress.key("2001:0db8:0001:0002:ffff:0:0:9"))
        #expect(SourceAddress.key("2001:db8:1:2::1") != SourceAddress.key("2001:db8:1:3::1"))
        #expect(SourceAddress.key("::ffff:10.0.0.1") == "10.0.0.1")
        #expect(SourceAddress.key("10.0.0.1") == "10.0.0.1")
    }

    /// An in-process server trusting `proxies`, whose default tenant admits one flow start per
    /// source and minute, so the audit trail shows which address each request was counted for.
    static func server(trusting proxies: [String]) throws -> LatchTestServer {
        let server = try LatchTestServer.start(mode: .inProcess) { configuration in
            configuration.trustedProxies = proxies.compactMap(AddressRange.init)
        }
        try server.updateTenant { $0.rateLimits.flowStarts = RateLimit(count: 1, periodSeconds: 60) }
        return server
    }

    /// Two starts with `headers` from `peer`; returns the address the refusal was audited for.
    static func limitedAddress(_ server: LatchTestServer, peer: String, headers: [String: String]) async throws -> String? {
        var client = WireClient(server)
        client.remoteAddress = peer
        for _ in 0..<2 {
            _ = try await client.post(
                "signup/v1.0/start", ["username": "proxy@example.com", "challenge_type": "oob redirect"], headers: headers)
        }
        return try RateLimitTests.rateLimitEvents(server).first?.remoteAddress
    }

    @Test("without --trusted-proxy, X-Forwarded-For and Forwarded are ignored")
    func headersIgnoredByDefault() async throws {
        let server = try Self.server(trusting: [])
        defer { server.stop() }
        var client = WireClient(server)
        client.remoteAddress = "127.0.0.80"
        var statuses: [Int] = []
        for index in 0..<3 {
            statuses.append(
                try await client.post(
                    "signup/v1.0/start", ["username": "spoof@example.com", "challenge_type": "oob redirect"],
                    headers: ["X-Forwarded-For": "198.51.100.\(index)", "Forwarded": "for=203.0.113.\(index)"]
                ).status)
        }
        #expect(statuses == [200, 429, 429])
        #expect(try RateLimitTests.rateLimitEvents(server).first?.remoteAddress == "127.0.0.80")
    }

    @Test(
        "from a trusted proxy the rightmost untrusted hop is the client; what the client wrote to its left is not believed",
        arguments: [
            (["X-Forwarded-For": "198.51.100.7"], "198.51.100.7"),
            (["X-Forwarded-For": "6.6.6.6, 198.51.100.7"], "198.51.100.7"),
            (["X-Forwarded-For": "198.51.100.7, 10.0.0.5"], "198.51.100.7"),  // through a second trusted proxy
            (["X-Forwarded-For": "garbage, 198.51.100.7"], "198.51.100.7"),
            (["X-Forwarded-For": "198.51.100.7, unknown"], "127.0.0.1"),  // an unusable last hop: the proxy itself
            (["Forwarded": "for=6.6.6.6, for=\"[2001:db8:cafe::17]:4711\";proto=https"], "2001:db8:cafe::17"),
            (["Forwarded": "for=198.51.100.9:8443", "X-Forwarded-For": "6.6.6.6"], "198.51.100.9"),
            (["Forwarded": "for=_hidden"], "127.0.0.1"),
            ([:], "127.0.0.1"),
        ])
    func trustedProxy(headers: [String: String], client: String) async throws {
        let server = try Self.server(trusting: ["127.0.0.1", "10.0.0.0/8"])
        defer { server.stop() }
        let audited = try await Self.limitedAddress(server, peer: "127.0.0.1", headers: headers)
        #expect(audited == client)
    }

    @Test("an untrusted peer's forwarding headers are ignored even when proxies are configured")
    func untrustedPeer() async throws {
        let server = try Self.server(trusting: ["10.0.0.0/8"])
        defer { server.stop() }
        let audited = try await Self.limitedAddress(
            server, peer: "127.0.0.90", headers: ["X-Forwarded-For": "198.51.100.7"])
        #expect(audited == "127.0.0.90")
    }

    @Test("clients behind one trusted proxy get a bucket each")
    func bucketsPerForwardedClient() async throws {
        let server = try Self.server(trusting: ["127.0.0.1"])
        defer { server.stop() }
        let client = WireClient(server)
        var statuses: [Int] = []
        for index in 0..<5 {
            statuses.append(
                try await client.post(
                    "signup/v1.0/start", ["username": "crowd@example.com", "challenge_type": "oob redirect"],
                    headers: ["X-Forwarded-For": "198.51.100.\(index)"]
                ).status)
        }
        #expect(statuses == Array(repeating: 200, count: 5))
    }
}
