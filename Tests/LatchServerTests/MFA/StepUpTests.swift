import Foundation
import LatchServer
import LatchTesting
import Testing

/// Conditional access at refresh: a session without a (recent enough) second factor gets an OIDC
/// claims challenge, and a client that declares `mfa_required` runs a native step-up: the second
/// factor only, no password, inside the same session.
@Suite("MFA: claims challenge and native step-up")
struct StepUpTests {
    static func refresh(
        _ client: WireClient, _ token: String?, scope: String = "openid offline_access files.write",
        claims: String? = nil, capabilities: String? = nil
    ) async throws -> WireResponse {
        var form = ["grant_type": "refresh_token", "refresh_token": try #require(token), "scope": scope]
        if let claims { form["claims"] = claims }
        if let capabilities { form["capabilities"] = capabilities }
        return try await client.post("oauth2/v2.0/token", form)
    }

    /// Finishes a second-factor flow from the `mfa_required` answer, with the code sent to `target`.
    static func proveSecondFactor(
        _ server: LatchTestServer, _ client: WireClient, from answer: WireResponse, target: String
    ) async throws -> WireResponse {
        let introspect = try await client.post(
            "oauth2/v2.0/introspect", ["continuation_token": try #require(answer.continuationToken)])
        let challenge = try await client.post(
            "oauth2/v2.0/challenge",
            ["continuation_token": try #require(introspect.continuationToken), "challenge_type": "oob redirect"])
        let code = try #require(try server.latestCode(to: target))
        return try await client.post(
            "oauth2/v2.0/token",
            [
                "grant_type": "mfa_oob", "continuation_token": try #require(challenge.continuationToken), "oob": code,
                "scope": "openid offline_access",
            ])
    }

    @Test("a rule's max-age passes: the refresh gets interaction_required with claims; the step-up raises the same session")
    func maxAgeThenStepUp() async throws {
        try await SecondFactorTests.withMFAUser(methods: [(.email, "step@example.org")], policy: .conditional) {
            server, email, _ in
            try server.updateTenant {
                $0.mfa.rules = [ConditionalAccessRule(scopes: ["files.write"], maxAgeSeconds: 60)]
            }
            let client = WireClient(server)
            let first = try await SecondFactorTests.passwordStep(
                client, email: email, scope: "openid offline_access files.write")
            #expect(first.suberror == "mfa_required")
            let signedIn = try await Self.proveSecondFactor(server, client, from: first, target: "step@example.org")
            #expect(signedIn.status == 200, "\(signedIn.json)")
            let sid = try SecondFactorTests.claims(of: signedIn.string("access_token"))["sid"] as? String
            let fresh = try await Self.refresh(client, signedIn.string("refresh_token"))
            #expect(fresh.status == 200, "\(fresh.json)")

            server.clock.advance(by: 61)
            let stale = try await Self.refresh(client, fresh.string("refresh_token"))
            #expect(stale.status == 400)
            #expect(stale.error == "interaction_required")
            #expect(stale.errorCodes == [50076])
            let claims = try #require(stale.string("claims"))
            let request = try #require(try JSONSerialization.jsonObject(with: Data(claims.utf8)) as? [String: Any])
            let acr = (request["access_token"] as? [String: Any])?["acr"] as? [String: Any]
            #expect(acr?["values"] as? [String] == ["mfa"])
            // Refreshes of other scopes are not covered by the rule.
            let other = try await Self.refresh(client, fresh.string("refresh_token"), scope: "openid offline_access")
            #expect(other.status == 200, "\(other.json)")

            let stepUp = try await Self.refresh(
                client, other.string("refresh_token"), claims: claims, capabilities: "mfa_required")
            #expect(stepUp.status == 400)
            #expect(stepUp.suberror == "mfa_required")
            let raised = try await Self.proveSecondFactor(server, client, from: stepUp, target: "step@example.org")
            #expect(raised.status == 200, "\(raised.json)")
            let access = try SecondFactorTests.claims(of: raised.string("access_token"))
            #expect(access["sid"] as? String == sid)
            #expect(access["acr"] as? String == "mfa")
            #expect((access["scp"] as? String)?.contains("files.write") == true)
            #expect((access["auth_time"] as? NSNumber)?.intValue == Int(server.clock.now().timeIntervalSince1970))
            let after = try await Self.refresh(client, raised.string("refresh_token"))
            #expect(after.status == 200, "\(after.json)")
        }
    }

    @Test("claims asking for acr mfa: refused without the capability, stepped up with it, even with the policy off")
    func explicitClaims() async throws {
        try await SecondFactorTests.withMFAUser(methods: [(.sms, "+14155550142")], policy: .off) { server, email, _ in
            let client = WireClient(server)
            let signedIn = try await SecondFactorTests.passwordStep(client, email: email)
            #expect(signedIn.status == 200)
            let claims = #"{"access_token":{"acr":{"essential":true,"values":["mfa"]}}}"#
            let refused = try await Self.refresh(
                client, signedIn.string("refresh_token"), scope: "openid offline_access", claims: claims)
            #expect(refused.error == "interaction_required")
            let stepUp = try await Self.refresh(
                client, signedIn.string("refresh_token"), scope: "openid offline_access", claims: claims,
                capabilities: "mfa_required")
            #expect(stepUp.suberror == "mfa_required")
            let raised = try await Self.proveSecondFactor(server, client, from: stepUp, target: "+14155550142")
            #expect(raised.status == 200, "\(raised.json)")
            #expect(try SecondFactorTests.claims(of: raised.string("access_token"))["amr"] as? [String] == ["pwd", "sms", "mfa"])
        }
    }

    @Test(
        "MFA required after the session began: its refresh is challenged; a user with no method gets the challenge even with the capability"
    )
    func requiredLater() async throws {
        try await SecondFactorTests.withMFAUser(methods: [], policy: .off) { server, email, _ in
            let client = WireClient(server)
            let signedIn = try await SecondFactorTests.passwordStep(client, email: email)
            try server.updateTenant { $0.mfa.policy = .required }
            let refused = try await Self.refresh(client, signedIn.string("refresh_token"), scope: "openid offline_access")
            #expect(refused.error == "interaction_required")
            let noMethod = try await Self.refresh(
                client, signedIn.string("refresh_token"), scope: "openid offline_access", capabilities: "mfa_required")
            #expect(noMethod.error == "interaction_required")
        }
    }

    @Test("a sign-in passing claims that ask for acr mfa gets a second factor though the policy is off")
    func signInWithClaims() async throws {
        try await SecondFactorTests.withMFAUser(methods: [(.email, "claims@example.org")], policy: .off) { server, email, _ in
            let client = WireClient(server)
            let initiate = try await client.post(
                "oauth2/v2.0/initiate",
                ["username": email, "challenge_type": "password redirect", "capabilities": SecondFactorTests.capabilities])
            let challenge = try await client.post(
                "oauth2/v2.0/challenge",
                ["continuation_token": try #require(initiate.continuationToken), "challenge_type": "password redirect"])
            let reply = try await client.post(
                "oauth2/v2.0/token",
                [
                    "grant_type": "password", "continuation_token": try #require(challenge.continuationToken),
                    "password": TokenHelpers.password, "scope": "openid offline_access",
                    "claims": #"{"access_token":{"acr":{"essential":true,"values":["mfa"]}}}"#,
                ])
            #expect(reply.suberror == "mfa_required", "\(reply.json)")
            let done = try await Self.proveSecondFactor(server, client, from: reply, target: "claims@example.org")
            #expect(try SecondFactorTests.claims(of: done.string("access_token"))["acr"] as? String == "mfa")
        }
    }
}
