import Foundation
import LatchServer
import LatchTesting
import Testing

/// Outside `--dev`, codes are for their recipients only: the admin views blank them, and without a
/// delivery transport the flows that must send one are refused up front.
@Suite("Code delivery outside development")
struct DeliveryPolicyTests {
    static func production() throws -> LatchTestServer {
        let server = try LatchTestServer.start(mode: .inProcess) { $0.development = false }
        try server.createTenant("prod", settings: TenantSettings(), clientID: "app")
        return server
    }

    @Test("without a transport: sign-up, reset and code sign-in answer 503; password sign-in works")
    func noTransport() async throws {
        let server = try Self.production()
        defer { server.stop() }
        let client = WireClient(server, tenant: "prod", clientID: "app")
        let email = TokenHelpers.uniqueEmail("prod")
        try server.createUser(email: email, password: TokenHelpers.password, tenant: "prod")

        let signUp = try await client.post(
            "signup/v1.0/start", ["username": TokenHelpers.uniqueEmail(), "challenge_type": "oob password redirect"])
        #expect(signUp.status == 503)
        #expect(signUp.error == "temporarily_unavailable")
        let reset = try await client.post("resetpassword/v1.0/start", ["username": email, "challenge_type": "oob redirect"])
        #expect(reset.status == 503)
        let initiate = try await client.post("oauth2/v2.0/initiate", ["username": email, "challenge_type": "oob redirect"])
        let codeChallenge = try await client.post(
            "oauth2/v2.0/challenge", ["continuation_token": try #require(initiate.continuationToken)])
        #expect(codeChallenge.status == 503)

        let signedIn = try await TokenHelpers.passwordSignIn(client, email: email)
        #expect(signedIn.status == 200)
        #expect(try server.outbox(to: email, tenant: "prod").isEmpty)
    }

    @Test("the admin outbox shows codes only under --dev")
    func adminOutboxHidesCodes() async throws {
        for development in [true, false] {
            let server = try LatchTestServer.start(mode: .inProcess) {
                $0.development = development
                $0.transport = DevelopmentLogTransport(log: .silent)
            }
            defer { server.stop() }
            let tenant = try server.createTenant("t", settings: TenantSettings(), clientID: "app")
            let client = WireClient(server, tenant: tenant, clientID: "app")
            let email = TokenHelpers.uniqueEmail("codes")
            let start = try await client.post(
                "signup/v1.0/start", ["username": email, "challenge_type": "oob redirect"])
            _ = try await client.post("signup/v1.0/challenge", ["continuation_token": try #require(start.continuationToken)])
            let listed = try await client.raw(
                "GET", "/t/admin/outbox?to=\(WireClient.encode(email))",
                headers: ["Authorization": "Bearer \(server.app.adminToken)"])
            let messages = try #require(listed["messages"] as? [[String: Any]])
            #expect(messages.count == 1)
            #expect((messages.first?["code"] != nil) == development, "development \(development)")
            #expect(((messages.first?["body"] as? String) ?? "").isEmpty == !development)
        }
    }
}
