import Foundation
import LatchTesting
import Testing

/// Every wire family answers in its own envelope, whatever fails: the router's 404 and 405, the
/// HTTP layer's 413 and 431, and an unknown tenant.
@Suite("Wire families and their error envelopes")
struct WireFamilyTests {
    /// What each family's error body must look like.
    enum Envelope {
        /// Native auth: `error`, `error_codes`, `trace_id`, `correlation_id`, `timestamp`.
        case nativeAuth
        /// OAuth, admin: `error` and `error_description` only.
        case oauth
        /// Operations: `status: error` and `error`.
        case operations

        func check(_ response: WireResponse, status: Int, _ note: String) {
            #expect(response.status == status, "\(note): \(response.status) \(response.json)")
            #expect(response.error != nil, "\(note): every error body names its error")
            switch self {
            case .nativeAuth:
                #expect(response["error_codes"] is [Any], "\(note)")
                #expect(response.string("trace_id") == response.headers["x-request-id"], "\(note)")
                #expect(response.string("correlation_id") == response.headers["client-request-id"], "\(note)")
                #expect(response.string("timestamp") != nil, "\(note)")
            case .oauth:
                #expect(Set(response.json.keys) == ["error", "error_description"], "\(note): \(response.json.keys)")
            case .operations:
                #expect(response.string("status") == "error", "\(note)")
            }
        }
    }

    struct Family: Sendable, CustomStringConvertible {
        let name: String
        let envelope: Envelope
        let missing: String
        let wrongMethod: (method: String, path: String)
        let bodyPath: String
        var description: String { name }
    }

    static let families: [Family] = [
        Family(
            name: "native auth", envelope: .nativeAuth, missing: "/default/signup/v1.0/nope",
            wrongMethod: ("GET", "/default/oauth2/v2.0/token"), bodyPath: "/default/oauth2/v2.0/initiate"),
        Family(
            name: "oauth", envelope: .oauth, missing: "/default/v2.0/nope",
            wrongMethod: ("POST", "/default/discovery/v2.0/keys"), bodyPath: "/default/oidc/userinfo"),
        Family(
            name: "admin", envelope: .oauth, missing: "/default/admin/nope",
            wrongMethod: ("POST", "/default/admin/outbox"), bodyPath: "/default/admin/outbox"),
        Family(
            name: "operations", envelope: .operations, missing: "/healthz/nope", wrongMethod: ("POST", "/healthz"),
            bodyPath: "/readyz"),
    ]

    @Test("404, 405, 413 and 431 come back in the family's envelope", arguments: families)
    func envelopes(family: Family) async throws {
        let server = try LatchTestServer.start()
        defer { server.stop() }
        let client = WireClient(server)
        family.envelope.check(try await client.raw("GET", family.missing), status: 404, "\(family) 404")

        let wrong = try await client.raw(family.wrongMethod.method, family.wrongMethod.path)
        family.envelope.check(wrong, status: 405, "\(family) 405")
        #expect(wrong.headers["allow"] != nil)

        let oversized = try await client.raw(
            "POST", family.bodyPath, body: Data(repeating: UInt8(ascii: "a"), count: 70_000),
            headers: ["Content-Type": "application/x-www-form-urlencoded"])
        family.envelope.check(oversized, status: 413, "\(family) 413")

        let hugeHeader = try await client.raw(
            "POST", family.bodyPath, body: Data("client_id=latch-dev".utf8),
            headers: ["Content-Type": "application/x-www-form-urlencoded", "X-Padding": String(repeating: "p", count: 17_000)])
        family.envelope.check(hugeHeader, status: 431, "\(family) 431")
    }

    @Test("an unknown tenant gets one answer everywhere in a family")
    func unknownTenant() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let client = WireClient(server, tenant: "nope")
        var native: [String] = []
        for path in ["signup/v1.0/start", "oauth2/v2.0/initiate", "oauth2/v2.0/token", "resetpassword/v1.0/start"] {
            let reply = try await client.post(path, ["username": "a@example.com", "challenge_type": "oob password redirect"])
            Envelope.nativeAuth.check(reply, status: 400, path)
            #expect(reply.error == "invalid_request")
            #expect(reply.errorCodes == [90002])
            native.append(reply.string("error_description") ?? "")
        }
        #expect(Set(native).count == 1)

        var oauth: [[String: String]] = []
        for path in ["/nope/v2.0/.well-known/openid-configuration", "/nope/discovery/v2.0/keys", "/nope/oidc/userinfo"] {
            let reply = try await client.raw("GET", path, headers: ["Authorization": "Bearer x"])
            Envelope.oauth.check(reply, status: 404, path)
            oauth.append(reply.json.compactMapValues { $0 as? String })
        }
        #expect(oauth.allSatisfy { $0 == oauth[0] })
        #expect(oauth[0]["error"] == "invalid_tenant")
    }

    @Test("userinfo without a bearer token still names its error")
    func userinfoWithoutToken() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let reply = try await WireClient(server).raw("GET", "/default/oidc/userinfo")
        #expect(reply.status == 401)
        #expect(reply.error == "invalid_request")
        #expect(reply.headers["www-authenticate"]?.hasPrefix("Bearer realm=") == true)
    }
}
