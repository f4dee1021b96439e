import Foundation
import LatchServer
import LatchTesting
import Testing

/// `GET /{tenant}/me/authentication-methods`: the signed-in user's methods, masked.
@Suite("MFA: the user's methods endpoint")
struct AuthMethodsEndpointTests {
    @Test("lists the bearer's methods masked, oldest first; no or a bad token is 401")
    func listsMasked() async throws {
        try await SecondFactorTests.withMFAUser(
            methods: [(.email, "kept@example.org"), (.sms, "+14155550188")], policy: .off
        ) { server, email, _ in
            let client = WireClient(server)
            let signedIn = try await SecondFactorTests.passwordStep(client, email: email)
            let token = try #require(signedIn.string("access_token"))
            let reply = try await client.raw(
                "GET", "/default/me/authentication-methods", headers: ["Authorization": "Bearer \(token)"])
            #expect(reply.status == 200)
            let methods = try #require(reply["methods"] as? [[String: Any]])
            #expect(methods.map { $0["challenge_channel"] as? String } == ["email", "sms"])
            #expect(methods.map { $0["login_hint"] as? String } == ["k***@e***.org", "+1******0188"])
            #expect(!String(decoding: reply.body, as: UTF8.self).contains("kept@"))
            #expect(methods.allSatisfy { $0["verified"] as? Bool == true && $0["created_at"] is String })
            let missing = try await client.raw("GET", "/default/me/authentication-methods")
            #expect(missing.status == 401)
            let bad = try await client.raw(
                "GET", "/default/me/authentication-methods", headers: ["Authorization": "Bearer not-a-token"])
            #expect(bad.status == 401)
        }
    }
}
