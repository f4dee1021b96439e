import Foundation
import LatchServer
import LatchTesting
import Testing

/// MFA at sign-in on the native-auth wire, as MSAL sends and reads it: `/token` answers
/// `mfa_required`, `oauth2/v2.0/introspect` lists the methods, `oauth2/v2.0/challenge` with `id`
/// sends the code, and the `mfa_oob` grant finishes.
@Suite("MFA: second factor at sign-in")
struct SecondFactorTests {
    static let capabilities = "mfa_required registration_required"

    /// A server whose default tenant requires MFA, with one user holding `methods` (channel, target).
    static func withMFAUser(
        methods: [(DeliveryChannel, String)], policy: MFASettings.Policy = .required,
        _ body: (LatchTestServer, String, User) async throws -> Void
    ) async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        try server.updateTenant { $0.mfa.policy = policy }
        let email = TokenHelpers.uniqueEmail("mfa")
        let user = try server.createUser(email: email, password: TokenHelpers.password)
        try addMethods(methods, to: user, in: server)
        try await body(server, email, user)
    }

    static func addMethods(_ methods: [(DeliveryChannel, String)], to user: User, in server: LatchTestServer) throws {
        try server.app.services.store.write { tx in
            for (index, (channel, target)) in methods.enumerated() {
                try tx.insert(
                    AuthMethod(
                        id: "method-\(index)", tenantID: user.tenantID, userID: user.id, channel: channel, target: target,
                        verified: true, createdAt: Date(timeIntervalSince1970: 1_700_000_000 + Double(index))))
            }
        }
    }

    /// `initiate` (with `capabilities`) → `challenge` → `password` grant; the `/token` answer.
    static func passwordStep(
        _ client: WireClient, email: String, capabilities: String? = SecondFactorTests.capabilities,
        scope: String = "openid offline_access"
    ) async throws -> WireResponse {
        var form = ["username": email, "challenge_type": "oob password redirect"]
        if let capabilities { form["capabilities"] = capabilities }
        let initiate = try await client.post("oauth2/v2.0/initiate", form)
        let challenge = try await client.post(
            "oauth2/v2.0/challenge",
            ["continuation_token": try #require(initiate.continuationToken), "challenge_type": "oob password redirect"])
        try #require(challenge.string("challenge_type") == "password", "challenge: \(challenge.json)")
        return try await client.post(
            "oauth2/v2.0/token",
            [
                "grant_type": "password", "continuation_token": try #require(challenge.continuationToken),
                "password": TokenHelpers.password, "scope": scope, "client_info": "true",
                "challenge_type": "oob password redirect",
            ])
    }

    static func claims(of token: String?) throws -> [String: Any] {
        let parts = try #require(token).split(separator: ".")
        let data = try #require(TokenHelpers.base64URLDecode(parts[1]))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("password, then mfa_required → introspect → challenge with id (sms) → mfa_oob: tokens with amr pwd sms mfa and acr mfa")
    func smsSecondFactor() async throws {
        try await Self.withMFAUser(methods: [(.email, "backup@example.org"), (.sms, "+14155550123")]) { server, email, _ in
            let client = WireClient(server)
            let first = try await Self.passwordStep(client, email: email)
            #expect(first.status == 400)
            #expect(first.error == "invalid_grant")
            #expect(first.suberror == "mfa_required")
            let introspect = try await client.post(
                "oauth2/v2.0/introspect", ["continuation_token": try #require(first.continuationToken)])
            #expect(introspect.status == 200)
            let methods = try #require(introspect["methods"] as? [[String: Any]])
            #expect(methods.count == 2)
            for method in methods {
                #expect(Set(method.keys) == ["id", "challenge_type", "challenge_channel", "login_hint"])
                #expect(method["challenge_type"] as? String == "oob")
            }
            #expect(methods.map { $0["challenge_channel"] as? String } == ["email", "sms"])
            #expect(methods[1]["login_hint"] as? String == "+1******0123")
            #expect((methods[0]["login_hint"] as? String)?.contains("backup") == false)
            let challenge = try await client.post(
                "oauth2/v2.0/challenge",
                [
                    "continuation_token": try #require(introspect.continuationToken),
                    "challenge_type": "oob password redirect", "id": try #require(methods[1]["id"] as? String),
                ])
            #expect(challenge.status == 200)
            #expect(challenge.string("challenge_type") == "oob")
            #expect(challenge.string("challenge_channel") == "sms")
            #expect(challenge.string("challenge_target_label") == "+1******0123")
            let message = try #require(try server.outbox(to: "+14155550123").first)
            #expect(message.channel == "sms")
            let code = try #require(message.code)
            let done = try await client.post(
                "oauth2/v2.0/token",
                [
                    "grant_type": "mfa_oob", "continuation_token": try #require(challenge.continuationToken), "oob": code,
                    "scope": "openid offline_access", "client_info": "true",
                ])
            #expect(done.status == 200, "\(done.json)")
            #expect(done.string("client_info") != nil)
            let id = try Self.claims(of: done.string("id_token"))
            #expect(id["amr"] as? [String] == ["pwd", "sms", "mfa"])
            #expect(id["acr"] as? String == "mfa")
            let access = try Self.claims(of: done.string("access_token"))
            #expect(access["acr"] as? String == "mfa")
        }
    }

    @Test("a wrong code is invalid_oob_value and the flow stays usable; a resend voids the earlier code")
    func wrongCodeThenResend() async throws {
        try await Self.withMFAUser(methods: [(.email, "second@example.org")]) { server, email, _ in
            let client = WireClient(server)
            let first = try await Self.passwordStep(client, email: email)
            let challenge = try await client.post(
                "oauth2/v2.0/challenge",
                ["continuation_token": try #require(first.continuationToken), "challenge_type": "oob redirect", "id": "method-0"])
            let oldCode = try #require(try server.latestCode(to: "second@example.org"))
            let wrong = try await client.post(
                "oauth2/v2.0/token",
                [
                    "grant_type": "mfa_oob", "continuation_token": try #require(challenge.continuationToken),
                    "oob": oldCode == "00000000" ? "11111111" : "00000000",
                ])
            #expect(wrong.status == 400)
            #expect(wrong.error == "invalid_grant")
            #expect(wrong.suberror == "invalid_oob_value")
            // Resend: the same call again, with the token of the previous challenge answer.
            let resend = try await client.post(
                "oauth2/v2.0/challenge",
                [
                    "continuation_token": try #require(challenge.continuationToken), "challenge_type": "oob redirect",
                    "id": "method-0",
                ])
            #expect(resend.string("challenge_type") == "oob")
            let newCode = try #require(try server.latestCode(to: "second@example.org"))
            let stale = try await client.post(
                "oauth2/v2.0/token",
                ["grant_type": "mfa_oob", "continuation_token": try #require(resend.continuationToken), "oob": oldCode])
            #expect(stale.suberror == "invalid_oob_value" || oldCode == newCode)
            let done = try await client.post(
                "oauth2/v2.0/token",
                ["grant_type": "mfa_oob", "continuation_token": try #require(resend.continuationToken), "oob": newCode])
            #expect(done.status == 200, "\(done.json)")
            #expect(try Self.claims(of: done.string("id_token"))["amr"] as? [String] == ["pwd", "otp", "mfa"])
        }
    }

    @Test("an expired second-factor code is refused, and a fresh one works")
    func expiredCode() async throws {
        try await Self.withMFAUser(methods: [(.email, "late@example.org")]) { server, email, _ in
            try server.updateTenant { $0.codeLifetime = 300 }  // shorter than the flow's token
            let client = WireClient(server)
            let first = try await Self.passwordStep(client, email: email)
            let challenge = try await client.post(
                "oauth2/v2.0/challenge",
                ["continuation_token": try #require(first.continuationToken), "challenge_type": "oob redirect"])
            let code = try #require(try server.latestCode(to: "late@example.org"))
            server.clock.advance(by: 301)
            let expired = try await client.post(
                "oauth2/v2.0/token",
                ["grant_type": "mfa_oob", "continuation_token": try #require(challenge.continuationToken), "oob": code])
            #expect(expired.status == 400)
            #expect(expired.error == "invalid_grant")
            #expect(expired.suberror == "invalid_oob_value")
            let resend = try await client.post(
                "oauth2/v2.0/challenge",
                ["continuation_token": try #require(challenge.continuationToken), "challenge_type": "oob redirect"])
            let fresh = try #require(try server.latestCode(to: "late@example.org"))
            let done = try await client.post(
                "oauth2/v2.0/token",
                ["grant_type": "mfa_oob", "continuation_token": try #require(resend.continuationToken), "oob": fresh])
            #expect(done.status == 200, "\(done.json)")
        }
    }

    @Test("without the mfa_required capability the sign-in gets the redirect answer, never a dead end")
    func noCapabilityRedirects() async throws {
        try await Self.withMFAUser(methods: [(.sms, "+447700900123")]) { server, email, _ in
            let reply = try await Self.passwordStep(WireClient(server), email: email, capabilities: nil)
            #expect(reply.status == 200)
            #expect(reply.string("challenge_type") == "redirect")
            #expect(reply.string("redirect_reason")?.contains("mfa_required") == true)
        }
    }

    @Test("an unknown method id is invalid_request; a method on a blocked contact is access_denied provider_blocked_by_rep")
    func unknownAndBlockedMethods() async throws {
        try await Self.withMFAUser(methods: [(.sms, "+999123456789"), (.email, "ok@example.org")]) { server, email, _ in
            try server.updateTenant { $0.mfa.blockedContacts = ["+999"] }
            let client = WireClient(server)
            let first = try await Self.passwordStep(client, email: email)
            let token = try #require(first.continuationToken)
            let unknown = try await client.post(
                "oauth2/v2.0/challenge", ["continuation_token": token, "challenge_type": "oob redirect", "id": "nope"])
            #expect(unknown.status == 400)
            #expect(unknown.error == "invalid_request")
            let blocked = try await client.post(
                "oauth2/v2.0/challenge", ["continuation_token": token, "challenge_type": "oob redirect", "id": "method-0"])
            #expect(blocked.status == 400)
            #expect(blocked.error == "access_denied")
            #expect(blocked.suberror == "provider_blocked_by_rep")
            let introspect = try await client.post("oauth2/v2.0/introspect", ["continuation_token": token])
            #expect((introspect["methods"] as? [[String: Any]])?.count == 1)
        }
    }

    @Test("conditional: a rule on a scope asks for MFA only when that scope is requested")
    func conditionalScopeRule() async throws {
        try await Self.withMFAUser(methods: [(.email, "cond@example.org")], policy: .conditional) { server, email, _ in
            try server.updateTenant { $0.mfa.rules = [ConditionalAccessRule(scopes: ["files.write"])] }
            let client = WireClient(server)
            let plain = try await Self.passwordStep(client, email: email)
            #expect(plain.status == 200, "\(plain.json)")
            #expect(try Self.claims(of: plain.string("id_token"))["acr"] == nil)
            let guarded = try await Self.passwordStep(client, email: email, scope: "openid offline_access files.write")
            #expect(guarded.status == 400)
            #expect(guarded.suberror == "mfa_required")
        }
    }

    @Test("with the sign-in e-mail counted as a method, a user with none registered is asked for a second factor by it")
    func signInEmailAsMethod() async throws {
        try await Self.withMFAUser(methods: []) { server, email, _ in
            try server.updateTenant { $0.mfa.signInEmailIsMethod = true }
            let client = WireClient(server)
            let first = try await Self.passwordStep(client, email: email)
            #expect(first.suberror == "mfa_required")
            let introspect = try await client.post(
                "oauth2/v2.0/introspect", ["continuation_token": try #require(first.continuationToken)])
            let methods = try #require(introspect["methods"] as? [[String: Any]])
            #expect(methods.count == 1)
            #expect(methods.first?["challenge_channel"] as? String == "email")
        }
    }

    @Test("continuation tokens of second-factor flows work once and only on their own endpoints")
    func tokensAreSingleUse() async throws {
        try await Self.withMFAUser(methods: [(.email, "once@example.org")]) { server, email, _ in
            let client = WireClient(server)
            let first = try await Self.passwordStep(client, email: email)
            let token = try #require(first.continuationToken)
            let introspect = try await client.post("oauth2/v2.0/introspect", ["continuation_token": token])
            #expect(introspect.status == 200)
            let again = try await client.post("oauth2/v2.0/introspect", ["continuation_token": token])
            #expect(again.status == 400)
            let wrongPlace = try await client.post(
                "register/v1.0/introspect", ["continuation_token": try #require(introspect.continuationToken)])
            #expect(wrongPlace.status == 400)
            let otherClient = try await WireClient(server, clientID: "someone-else").post(
                "oauth2/v2.0/introspect", ["continuation_token": try #require(introspect.continuationToken)])
            #expect(otherClient.status == 400)
        }
    }
}
