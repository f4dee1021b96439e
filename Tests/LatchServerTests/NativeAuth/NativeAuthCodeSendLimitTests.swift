import Foundation
import LatchServer
import LatchTesting
import Testing

/// One-time-code send limits against e-mail bombing: five messages per address and tenant in a
/// sliding 15-minute window, and five codes per flow (which also limits decoy flows).
@Suite("Native auth: code send limits")
struct NativeAuthCodeSendLimitTests {
    /// Starts a code sign-in for `email` and sends the first code; returns the continuation token.
    static func beginCodeSignIn(_ auth: NativeAuthFlows, _ email: String) async throws -> String {
        let initiate = try await auth.initiate(email, challengeType: "oob redirect")
        try auth.expectOK(initiate)
        let challenge = try await auth.challenge(initiate.continuationToken, challengeType: "oob redirect")
        try auth.expectOK(challenge)
        #expect(challenge.string("challenge_type") == "oob")
        return try #require(challenge.continuationToken)
    }

    /// Re-sends the sign-in code, requiring success; returns the new token.
    static func resend(_ auth: NativeAuthFlows, _ token: String) async throws -> String {
        let reply = try await auth.challenge(token, challengeType: "oob redirect")
        try auth.expectOK(reply)
        return try #require(reply.continuationToken)
    }

    @Test("a sixth sign-in code to one address within 15 minutes: 429 until the first leaves the window; reset codes are apart")
    func perAddressWindow() async throws {
        try await withNativeAuthServer { auth in
            let email = "bombed@example.com"
            try auth.server.createUser(email: email, password: NativeAuthFixture.password)
            // Five sign-in codes, a minute apart.
            var token = try await Self.beginCodeSignIn(auth, email)
            for _ in 1...4 {
                auth.server.clock.advance(by: 60)
                token = try await Self.resend(auth, token)
            }
            #expect(try auth.messageCount(to: email) == 5)

            // A minute later: every way to send a sixth sign-in code is refused for ten minutes.
            auth.server.clock.advance(by: 60)
            let refused = [
                try await auth.challenge(token, challengeType: "oob redirect"),
                try await auth.challenge(
                    try await auth.initiate(email, challengeType: "oob redirect").continuationToken,
                    challengeType: "oob redirect"),
            ]
            for reply in refused { NativeAuthSignInDelayTests.expectDelayed(auth, reply, retryAfter: 600) }
            #expect(try auth.messageCount(to: email) == 5)
            // Caps are per purpose: the sign-in codes did not use up the password reset's.
            let reset = try await auth.resetStart(email)
            try auth.expectOK(try await auth.resetChallenge(reset.continuationToken))
            #expect(try auth.messageCount(to: email) == 6)
            // Other addresses and other tenants are not affected.
            try auth.server.createUser(email: "bystander@example.com", password: nil)
            _ = try await Self.beginCodeSignIn(auth, "bystander@example.com")
            try auth.server.createTenant("other", settings: TenantSettings())
            try auth.server.createUser(email: email, password: nil, tenant: "other")
            _ = try await Self.beginCodeSignIn(auth.client(tenant: "other"), email)

            // A second before the first code leaves the window, still refused; then it works, with
            // the token the refusal left intact.
            auth.server.clock.advance(by: 599)
            let late = try #require(try await auth.initiate(email, challengeType: "oob redirect").continuationToken)
            NativeAuthSignInDelayTests.expectDelayed(
                auth, try await auth.challenge(late, challengeType: "oob redirect"), retryAfter: 1)
            auth.server.clock.advance(by: 1)
            token = try await Self.resend(auth, late)
            // The window slides: the next code waits for the second one (sent at minute 1) to leave.
            NativeAuthSignInDelayTests.expectDelayed(
                auth, try await auth.challenge(token, challengeType: "oob redirect"), retryAfter: 60)
            let signedIn = try await auth.token(grantType: "oob", continuationToken: token, oob: try auth.code(for: email))
            _ = try auth.tokens(from: signedIn)
        }
    }

    @Test("sign-up codes count too: a sixth sign-up code to one address within the window is refused")
    func signUpCodes() async throws {
        try await withNativeAuthServer { auth in
            let email = "new@example.com"
            let start = try await auth.signUpStart(email, challengeType: "oob redirect")
            var token = try #require(start.continuationToken)
            for _ in 1...5 {
                let challenge = try await auth.signUpChallenge(token, challengeType: "oob redirect")
                try auth.expectOK(challenge)
                token = try #require(challenge.continuationToken)
            }
            let sixth = try await auth.signUpChallenge(token, challengeType: "oob redirect")
            NativeAuthSignInDelayTests.expectDelayed(auth, sixth, retryAfter: 900)
            #expect(try auth.messageCount(to: email) == 5)
            // The last code still works.
            try auth.expectOK(try await auth.signUpContinue(token, grantType: "oob", oob: try auth.code(for: email)))
        }
    }

    @Test("a decoy flow (unknown user, enumeration protection) is capped at five codes and answers like a real one")
    func decoyFlowCapped() async throws {
        try await withNativeAuthServer { auth in
            var settings = TenantSettings()
            settings.enumerationProtection = true
            let guarded = auth.client(tenant: try auth.server.createTenant("guarded", settings: settings))
            try auth.server.createUser(email: "real@example.com", password: nil, tenant: "guarded")

            var real = try await Self.beginCodeSignIn(guarded, "real@example.com")
            var decoy = try await Self.beginCodeSignIn(guarded, "nobody@example.com")
            for _ in 1...4 {
                auth.server.clock.advance(by: 30)
                real = try await Self.resend(guarded, real)
                decoy = try await Self.resend(guarded, decoy)
            }
            auth.server.clock.advance(by: 30)
            let realSixth = try await guarded.challenge(real, challengeType: "oob redirect")
            let decoySixth = try await guarded.challenge(decoy, challengeType: "oob redirect")
            NativeAuthSignInDelayTests.expectDelayed(guarded, realSixth, retryAfter: 750)
            NativeAuthSignInDelayTests.expectDelayed(guarded, decoySixth, retryAfter: 750)
            #expect(decoySixth.errorDescription == realSixth.errorDescription)
            #expect(try guarded.messageCount(to: "nobody@example.com") == 0)
            #expect(try guarded.messageCount(to: "real@example.com") == 5)

            // The decoy flow stays capped; its token still leads only to refused codes.
            auth.server.clock.advance(by: 300)
            NativeAuthSignInDelayTests.expectDelayed(
                guarded, try await guarded.challenge(decoy, challengeType: "oob redirect"), retryAfter: 450)
            let guess = try await guarded.token(grantType: "oob", continuationToken: decoy, oob: "12345678")
            guarded.expectError(guess, error: "invalid_grant", suberror: "invalid_oob_value", codes: [50181])
        }
    }
}
