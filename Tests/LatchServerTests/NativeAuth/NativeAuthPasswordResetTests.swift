import Foundation
import LatchServer
import LatchTesting
import Testing

@Suite("Native auth: password reset")
struct NativeAuthPasswordResetTests {
    @Test("start, challenge, code, submit, poll succeeded, continuation-token grant")
    func fullReset() async throws {
        try await withNativeAuthServer { auth in
            let email = "reset@example.com"
            try auth.server.createUser(email: email, password: NativeAuthFixture.password)
            let start = try await auth.resetStart(email)
            try auth.expectOK(start)
            #expect(start.keys == ["continuation_token"])
            let challenge = try await auth.resetChallenge(start.continuationToken)
            try auth.expectOK(challenge)
            #expect(challenge.string("challenge_type") == "oob")
            #expect(challenge.string("binding_method") == "prompt")
            #expect(challenge.string("challenge_channel") == "email")
            #expect(challenge.string("challenge_target_label") == "r***@e***.com")
            #expect(challenge.int("code_length") == 8)
            let message = try #require(try auth.server.outbox(to: email).first)
            #expect(message.subject == "Reset your password")

            let verified = try await auth.resetContinue(challenge.continuationToken, oob: try auth.code(for: email))
            try auth.expectOK(verified)
            #expect(verified.keys == ["continuation_token", "expires_in"])
            #expect(verified.int("expires_in") == 600)
            let submitted = try await auth.resetSubmit(verified.continuationToken, newPassword: NativeAuthFixture.otherPassword)
            try auth.expectOK(submitted)
            #expect(submitted.keys == ["continuation_token", "poll_interval"])
            #expect(submitted.int("poll_interval") == 1)
            let polled = try await auth.resetPoll(submitted.continuationToken)
            try auth.expectOK(polled)
            #expect(polled.keys == ["continuation_token", "status"])
            #expect(polled.string("status") == "succeeded")
            let tokens = try auth.tokens(
                from: try await auth.token(grantType: "continuation_token", continuationToken: polled.continuationToken))
            try auth.expectIDToken(tokens, email: email, amr: ["otp", "pwd"])
        }
    }

    @Test("after a reset the old password fails, the new one works, old refresh tokens are dead")
    func resetChangesPasswordAndEndsSessions() async throws {
        try await withNativeAuthServer { auth in
            let email = "sessions@example.com"
            try auth.server.createUser(email: email, password: NativeAuthFixture.password)
            let before = try await auth.signIn(email, password: NativeAuthFixture.password)
            let oldRefresh = try #require(before.refreshToken)
            let second = try await auth.signInWithCode(email, challengeType: "oob redirect")
            let secondRefresh = try #require(second.refreshToken)
            // Refreshing works before the reset (and rotates the first one).
            let rotated = try await auth.refresh(oldRefresh)
            try auth.expectOK(rotated)
            let rotatedRefresh = try #require(rotated.string("refresh_token"))

            let after = try await auth.resetPassword(email, to: NativeAuthFixture.otherPassword)

            let old = try await auth.passwordGrant(email, password: NativeAuthFixture.password)
            auth.expectError(old, error: "invalid_grant", codes: [50126])
            let new = try await auth.passwordGrant(email, password: NativeAuthFixture.otherPassword)
            try auth.expectOK(new)

            for refreshToken in [rotatedRefresh, secondRefresh] {
                let dead = try await auth.refresh(refreshToken)
                auth.expectError(dead, error: "invalid_grant", codes: [70008])
            }
            // The session the reset itself started is alive.
            let alive = try await auth.refresh(try #require(after.refreshToken))
            try auth.expectOK(alive)
        }
    }

    @Test("unknown user: user_not_found; a weak new password is refused and can be retried")
    func resetFailures() async throws {
        try await withNativeAuthServer { auth in
            let unknown = try await auth.resetStart("ghost@example.com")
            auth.expectError(unknown, error: "user_not_found", codes: [50034])

            let email = "weak@example.com"
            try auth.server.createUser(email: email, password: NativeAuthFixture.password)
            let start = try await auth.resetStart(email)
            let challenge = try await auth.resetChallenge(start.continuationToken)
            let early = try await auth.resetSubmit(challenge.continuationToken, newPassword: NativeAuthFixture.otherPassword)
            auth.expectError(early, error: "invalid_request", codes: [90100])
            #expect(early.errorDescription == "verify the code first")
            let earlyPoll = try await auth.resetPoll(challenge.continuationToken)
            auth.expectError(earlyPoll, error: "invalid_request", codes: [90100])

            let verified = try await auth.resetContinue(challenge.continuationToken, oob: try auth.code(for: email))
            let token = try #require(verified.continuationToken)
            let weak = try await auth.resetSubmit(token, newPassword: "aaaaaaaaaa")
            auth.expectError(weak, error: "invalid_grant", suberror: "password_too_weak", codes: [399_246])
            let missing = try await auth.resetSubmit(token, newPassword: nil)
            auth.expectError(missing, error: "invalid_request", codes: [90100])
            #expect(missing.errorDescription == "new_password parameter is empty or not valid")
            // Nothing changed yet.
            try auth.expectOK(try await auth.passwordGrant(email, password: NativeAuthFixture.password))
            let good = try await auth.resetSubmit(token, newPassword: NativeAuthFixture.otherPassword)
            try auth.expectOK(good)
        }
    }

    @Test("a client without oob cannot reset: HTTP 200 redirect; other grant types are refused")
    func resetNeedsOOB() async throws {
        try await withNativeAuthServer { auth in
            let email = "oobless@example.com"
            try auth.server.createUser(email: email, password: NativeAuthFixture.password)
            NativeAuthFixture.expectRedirect(try await auth.resetStart(email, challengeType: "password redirect"))
            let start = try await auth.resetStart(email)
            let challenge = try await auth.resetChallenge(start.continuationToken)
            let wrongGrant = try await auth.resetContinue(
                challenge.continuationToken, oob: try auth.code(for: email), grantType: "password")
            auth.expectError(wrongGrant, error: "unsupported_grant_type", codes: nil)
        }
    }

    @Test("every reset step's token is single-use")
    func resetTokensAreSingleUse() async throws {
        try await withNativeAuthServer { auth in
            let email = "once@example.com"
            try auth.server.createUser(email: email, password: NativeAuthFixture.password)
            let start = try await auth.resetStart(email)
            let challenge = try await auth.resetChallenge(start.continuationToken)
            let verified = try await auth.resetContinue(challenge.continuationToken, oob: try auth.code(for: email))
            let submitted = try await auth.resetSubmit(verified.continuationToken, newPassword: NativeAuthFixture.otherPassword)
            let polled = try await auth.resetPoll(submitted.continuationToken)
            try auth.expectOK(polled)
            let replays = [
                try await auth.resetChallenge(start.continuationToken),
                try await auth.resetContinue(challenge.continuationToken, oob: "00000000"),
                try await auth.resetSubmit(verified.continuationToken, newPassword: "An0ther-passw0rd"),
                try await auth.resetPoll(submitted.continuationToken),
                try await auth.resetPoll(polled.continuationToken),
            ]
            for replay in replays { auth.expectError(replay, error: "invalid_grant", codes: [55200]) }
            // The password was set once, by the first submit.
            try auth.expectOK(try await auth.passwordGrant(email, password: NativeAuthFixture.otherPassword))
        }
    }

    @Test("a code-only account gets its first password through reset")
    func resetGivesCodeOnlyAccountAPassword() async throws {
        try await withNativeAuthServer { auth in
            let email = "firstpw@example.com"
            try auth.server.createUser(email: email, password: nil)
            _ = try await auth.resetPassword(email, to: NativeAuthFixture.otherPassword)
            let tokens = try await auth.signIn(email, password: NativeAuthFixture.otherPassword)
            try auth.expectIDToken(tokens, email: email, amr: ["pwd"])
        }
    }
}
