import Foundation
import LatchServer
import LatchTesting
import Testing

/// Strong-auth method registration during sign-in (`register/v1.0/*`), as MSAL's JIT flow sends
/// and reads it.
@Suite("MFA: strong-auth method registration")
struct MethodRegistrationTests {
    /// The password step of a user who must use MFA and has no method: `registration_required`.
    static func registrationToken(_ server: LatchTestServer, email: String) async throws -> String {
        let reply = try await SecondFactorTests.passwordStep(WireClient(server), email: email)
        #expect(reply.status == 400)
        #expect(reply.error == "invalid_grant")
        #expect(reply.suberror == "registration_required")
        return try #require(reply.continuationToken)
    }

    static func withUser(_ body: (LatchTestServer, String, User) async throws -> Void) async throws {
        try await SecondFactorTests.withMFAUser(methods: [], body)
    }

    static func finish(_ client: WireClient, continuation: WireResponse) async throws -> WireResponse {
        // MSAL's grant after registration: scope exactly `openid profile offline_access`, no username.
        try await client.post(
            "oauth2/v2.0/token",
            [
                "grant_type": "continuation_token", "continuation_token": try #require(continuation.continuationToken),
                "scope": "openid profile offline_access", "client_info": "true", "challenge_type": "oob password redirect",
            ])
    }

    @Test(
        "e-mail: introspect → challenge with challenge_target → oob → continue oob → token; saved verified, next sign-in asks MFA"
    )
    func registerEmail() async throws {
        try await Self.withUser { server, email, user in
            let client = WireClient(server)
            let token = try await Self.registrationToken(server, email: email)
            let introspect = try await client.post("register/v1.0/introspect", ["continuation_token": token])
            #expect(introspect.status == 200)
            let methods = try #require(introspect["methods"] as? [[String: Any]])
            #expect(methods.map { $0["challenge_channel"] as? String } == ["email", "sms"])
            #expect(methods.allSatisfy { $0["challenge_type"] as? String == "oob" && $0["id"] is String })
            let challenge = try await client.post(
                "register/v1.0/challenge",
                [
                    "continuation_token": try #require(introspect.continuationToken), "challenge_type": "oob",
                    "challenge_target": "Second.Inbox@Example.org", "challenge_channel": "email",
                ])
            #expect(challenge.status == 200, "\(challenge.json)")
            #expect(challenge.string("challenge_type") == "oob")
            #expect(challenge.string("challenge_target") == "second.inbox@example.org")
            #expect(challenge["challenge_target_label"] == nil)
            #expect(challenge.string("challenge_channel") == "email")
            #expect((challenge["code_length"] as? NSNumber)?.intValue == 8)
            let code = try #require(try server.latestCode(to: "second.inbox@example.org"))
            let proceed = try await client.post(
                "register/v1.0/continue",
                ["continuation_token": try #require(challenge.continuationToken), "grant_type": "oob", "oob": code])
            #expect(proceed.status == 200, "\(proceed.json)")
            #expect((proceed["expires_in"] as? NSNumber)?.intValue == 600)
            let done = try await Self.finish(client, continuation: proceed)
            #expect(done.status == 200, "\(done.json)")
            #expect(try SecondFactorTests.claims(of: done.string("id_token"))["amr"] as? [String] == ["pwd", "otp", "mfa"])

            let saved = try server.app.services.store.read { try $0.authMethods(userID: user.id, tenantID: user.tenantID) }
            #expect(saved.map(\.target) == ["second.inbox@example.org"])
            #expect(saved.first?.verified == true)
            let next = try await SecondFactorTests.passwordStep(client, email: email)
            #expect(next.suberror == "mfa_required")
        }
    }

    @Test("the app's scopes asked at the password step are granted after registration, though the last grant names none")
    func scopesSurviveRegistration() async throws {
        try await Self.withUser { server, email, _ in
            let client = WireClient(server)
            let first = try await SecondFactorTests.passwordStep(
                client, email: email, scope: "openid offline_access profile email")
            let challenge = try await client.post(
                "register/v1.0/challenge",
                [
                    "continuation_token": try #require(first.continuationToken), "challenge_type": "oob",
                    "challenge_target": "+1 (415) 555-0199", "challenge_channel": "sms",
                ])
            #expect(challenge.string("challenge_target") == "+14155550199")
            #expect(challenge.string("challenge_channel") == "sms")
            let message = try #require(try server.outbox(to: "+14155550199").first)
            #expect(message.channel == "sms")
            let proceed = try await client.post(
                "register/v1.0/continue",
                [
                    "continuation_token": try #require(challenge.continuationToken), "grant_type": "oob",
                    "oob": try #require(message.code),
                ])
            let done = try await Self.finish(client, continuation: proceed)
            #expect(done.status == 200, "\(done.json)")
            #expect(
                Set((done.string("scope") ?? "").split(separator: " ").map(String.init)).isSuperset(of: ["email", "profile"]))
            #expect(try SecondFactorTests.claims(of: done.string("id_token"))["amr"] as? [String] == ["pwd", "sms", "mfa"])
        }
    }

    @Test("preverified: the verified sign-in e-mail needs no code; continue with grant_type=continuation_token and no oob")
    func preverified() async throws {
        try await Self.withUser { server, email, _ in
            let client = WireClient(server)
            let token = try await Self.registrationToken(server, email: email)
            let before = try server.outbox(to: email).count
            let challenge = try await client.post(
                "register/v1.0/challenge",
                [
                    "continuation_token": token, "challenge_type": "oob", "challenge_target": email,
                    "challenge_channel": "email",
                ])
            #expect(challenge.status == 200)
            #expect(challenge.keys == ["challenge_type", "continuation_token"])
            #expect(challenge.string("challenge_type") == "preverified")
            #expect(try server.outbox(to: email).count == before)
            let proceed = try await client.post(
                "register/v1.0/continue",
                ["continuation_token": try #require(challenge.continuationToken), "grant_type": "continuation_token"])
            #expect(proceed.status == 200, "\(proceed.json)")
            let done = try await Self.finish(client, continuation: proceed)
            #expect(done.status == 200, "\(done.json)")
        }
    }

    @Test("an invalid contact is invalid_request with 901001; a blocked one is access_denied provider_blocked_by_rep")
    func invalidAndBlockedContacts() async throws {
        try await Self.withUser { server, email, _ in
            try server.updateTenant { $0.mfa.blockedContacts = ["+999", "@blocked.example"] }
            let client = WireClient(server)
            var token = try await Self.registrationToken(server, email: email)
            for (target, channel) in [
                ("415-555-0100", "sms"), ("+0123456789", "sms"), ("not-an-address", "email"), ("", "email"),
            ] {
                let reply = try await client.post(
                    "register/v1.0/challenge",
                    [
                        "continuation_token": token, "challenge_type": "oob", "challenge_target": target,
                        "challenge_channel": channel,
                    ])
                #expect(reply.status == 400, "\(target)")
                #expect(reply.error == "invalid_request", "\(target)")
                #expect(reply.errorCodes.contains(901001), "\(target)")
            }
            for (target, channel) in [("+999 555 0100", "sms"), ("me@blocked.example", "email")] {
                let reply = try await client.post(
                    "register/v1.0/challenge",
                    [
                        "continuation_token": token, "challenge_type": "oob", "challenge_target": target,
                        "challenge_channel": channel,
                    ])
                #expect(reply.status == 400, "\(target)")
                #expect(reply.error == "access_denied", "\(target)")
                #expect(reply.suberror == "provider_blocked_by_rep", "\(target)")
            }
            // The flow survives refusals: a good contact still works with the same token.
            let good = try await client.post(
                "register/v1.0/challenge",
                [
                    "continuation_token": token, "challenge_type": "oob", "challenge_target": "+447700900456",
                    "challenge_channel": "sms",
                ])
            #expect(good.string("challenge_type") == "oob")
            token = try #require(good.continuationToken)
            let wrong = try await client.post(
                "register/v1.0/continue", ["continuation_token": token, "grant_type": "oob", "oob": "00000000"])
            #expect(wrong.error == "invalid_grant")
            #expect(wrong.suberror == "invalid_oob_value")
        }
    }

    @Test("without registration_required the sign-in is sent to the browser; a sign-up's sign-in reaches registration")
    func capabilitiesAndSignUpPath() async throws {
        try await Self.withUser { server, email, _ in
            let reply = try await SecondFactorTests.passwordStep(WireClient(server), email: email, capabilities: "mfa_required")
            #expect(reply.status == 200)
            #expect(reply.string("challenge_type") == "redirect")

            let client = WireClient(server)
            let newcomer = TokenHelpers.uniqueEmail("newcomer")
            let start = try await client.post(
                "signup/v1.0/start",
                [
                    "username": newcomer, "password": TokenHelpers.password, "challenge_type": "oob password redirect",
                    "capabilities": SecondFactorTests.capabilities,
                ])
            let challenge = try await client.post(
                "signup/v1.0/challenge",
                ["continuation_token": try #require(start.continuationToken), "challenge_type": "oob password redirect"])
            let code = try #require(try server.latestCode(to: newcomer))
            let proceed = try await client.post(
                "signup/v1.0/continue",
                ["continuation_token": try #require(challenge.continuationToken), "grant_type": "oob", "oob": code])
            let token = try await client.post(
                "oauth2/v2.0/token",
                [
                    "grant_type": "continuation_token", "continuation_token": try #require(proceed.continuationToken),
                    "username": newcomer, "scope": "openid offline_access",
                ])
            #expect(token.status == 400)
            #expect(token.suberror == "registration_required")
            // The sign-up proved this address with a code: registering it again needs a new code, not preverified.
            let again = try await client.post(
                "register/v1.0/challenge",
                [
                    "continuation_token": try #require(token.continuationToken), "challenge_type": "oob",
                    "challenge_target": newcomer, "challenge_channel": "email",
                ])
            #expect(again.string("challenge_type") == "oob")
        }
    }
}
