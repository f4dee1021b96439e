import Foundation
import LatchServer
import LatchTesting
import Testing

/// Per-account brute-force protection: growing sign-in delays after repeated failures (NIST SP
/// 800-63B § 5.2.2, Keycloak-style waits), answered with 429 and `Retry-After`.
@Suite("Native auth: sign-in delays after failures")
struct NativeAuthSignInDelayTests {
    /// A wrong password the policy would accept, distinct per attempt.
    static func wrongPassword(_ attempt: Int) -> String { "Wr0ng-guess-\(attempt)" }

    /// Requires the 429 envelope with `Retry-After: seconds`.
    static func expectDelayed(
        _ auth: NativeAuthFlows, _ reply: NativeReply, retryAfter seconds: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        auth.expectError(
            reply, status: 429, error: "too_many_requests", codes: [9_000_005], sourceLocation: sourceLocation)
        #expect(reply.wire.headers["retry-after"] == String(seconds), sourceLocation: sourceLocation)
        #expect(reply.continuationToken == nil, sourceLocation: sourceLocation)
        #expect(reply.errorDescription?.contains("\(seconds) seconds") == true, sourceLocation: sourceLocation)
    }

    /// Fails `count` password sign-ins of `email`, each in a new flow, expecting `invalid_grant` 50126.
    static func failPasswords(
        _ auth: NativeAuthFlows, _ email: String, count: Int, from first: Int = 1,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        for attempt in first..<(first + count) {
            let reply = try await auth.passwordGrant(email, password: wrongPassword(attempt), sourceLocation: sourceLocation)
            auth.expectError(reply, error: "invalid_grant", codes: [50126], sourceLocation: sourceLocation)
        }
    }

    @Test("five wrong passwords across flows: the sixth attempt, even right, gets 429 Retry-After 60 until the delay ends")
    func delayAfterFiveFailures() async throws {
        try await withNativeAuthServer { auth in
            let email = "guessed@example.com"
            try auth.server.createUser(email: email, password: NativeAuthFixture.password)
            try await Self.failPasswords(auth, email, count: 5)
            let user = try auth.user(email)
            #expect(user.failedSignIns == 5)
            #expect(user.signInBlockedUntil == auth.server.clock.now().addingTimeInterval(60))

            let right = try await auth.passwordGrant(email, password: NativeAuthFixture.password)
            Self.expectDelayed(auth, right, retryAfter: 60)
            let wrong = try await auth.passwordGrant(email, password: Self.wrongPassword(6))
            Self.expectDelayed(auth, wrong, retryAfter: 60)
            #expect(try auth.user(email).failedSignIns == 5, "attempts refused during the delay are not counted")

            auth.server.clock.advance(by: 59)
            Self.expectDelayed(auth, try await auth.passwordGrant(email, password: NativeAuthFixture.password), retryAfter: 1)

            auth.server.clock.advance(by: 1)
            let tokens = try await auth.signIn(email, password: NativeAuthFixture.password)
            #expect(tokens.amr == ["pwd"])
            let reset = try auth.user(email)
            #expect(reset.failedSignIns == 0)
            #expect(reset.signInBlockedUntil == nil)
            // A fresh count: four more failures do not delay the account.
            try await Self.failPasswords(auth, email, count: 4, from: 10)
            _ = try await auth.signIn(email, password: NativeAuthFixture.password)

            let summary = try auth.auditEvents().map { "\($0.kind.rawValue) \($0.detail ?? "-")" }
            #expect(summary.filter { $0.hasPrefix("sign_in_blocked") } == ["sign_in_blocked failures=5 delay=60s"])
            #expect(summary.filter { $0 == "sign_in_failed reason=too_many_attempts" }.count == 3)
        }
    }

    @Test("each further failure doubles the delay: 120, 240, 480, then capped at 900 s")
    func delayDoublesAndCaps() async throws {
        try await withNativeAuthServer { auth in
            let email = "persistent@example.com"
            try auth.server.createUser(email: email, password: NativeAuthFixture.password)
            try await Self.failPasswords(auth, email, count: 5)
            var delay = 60
            for (failure, next) in zip(6...10, [120, 240, 480, 900, 900]) {
                auth.server.clock.advance(by: TimeInterval(delay))
                try await Self.failPasswords(auth, email, count: 1, from: failure)
                let probe = try await auth.passwordGrant(email, password: NativeAuthFixture.password)
                Self.expectDelayed(auth, probe, retryAfter: next)
                #expect(try auth.user(email).failedSignIns == failure)
                delay = next
            }
            let blocked = try auth.auditEvents().filter { $0.kind == .signInBlocked }.map { $0.detail ?? "-" }
            #expect(
                blocked == [
                    "failures=5 delay=60s", "failures=6 delay=120s", "failures=7 delay=240s", "failures=8 delay=480s",
                    "failures=9 delay=900s", "failures=10 delay=900s",
                ])
            auth.server.clock.advance(by: 900)
            _ = try await auth.signIn(email, password: NativeAuthFixture.password)
            #expect(try auth.user(email).failedSignIns == 0)
        }
    }

    @Test("the tenant's threshold, base and maximum apply; absent settings decode to 5, 60 and 900")
    func tenantSettings() async throws {
        let decoded = try JSONDecoder().decode(TenantSettings.self, from: Data(#"{"codeLength": 6}"#.utf8))
        #expect(decoded.signInFailuresBeforeDelay == 5)
        #expect(decoded.signInDelayBaseSeconds == 60)
        #expect(decoded.signInDelayMaxSeconds == 900)
        #expect(decoded.codeSendsPerWindow == 5)
        #expect(decoded.codeSendWindowSeconds == 900)
        try await withNativeAuthServer { auth in
            var settings = TenantSettings()
            settings.signInFailuresBeforeDelay = 2
            settings.signInDelayBaseSeconds = 10
            settings.signInDelayMaxSeconds = 25
            let strict = auth.client(tenant: try auth.server.createTenant("strict", settings: settings))
            let email = "strict@example.com"
            try auth.server.createUser(email: email, password: NativeAuthFixture.password, tenant: "strict")
            try await Self.failPasswords(strict, email, count: 2)
            Self.expectDelayed(
                strict, try await strict.passwordGrant(email, password: NativeAuthFixture.password), retryAfter: 10)
            auth.server.clock.advance(by: 10)
            try await Self.failPasswords(strict, email, count: 1, from: 3)
            Self.expectDelayed(
                strict, try await strict.passwordGrant(email, password: NativeAuthFixture.password), retryAfter: 20)
            auth.server.clock.advance(by: 20)
            try await Self.failPasswords(strict, email, count: 1, from: 4)
            Self.expectDelayed(
                strict, try await strict.passwordGrant(email, password: NativeAuthFixture.password), retryAfter: 25)
            // The default tenant keeps its own, untouched count for the same address.
            try auth.server.createUser(email: email, password: NativeAuthFixture.password)
            _ = try await auth.signIn(email, password: NativeAuthFixture.password)
        }
    }

    @Test("wrong codes count against the account; the per-code limit stays; code sign-in succeeds and resets the count")
    func wrongCodesCount() async throws {
        try await withNativeAuthServer { auth in
            let email = "codes@example.com"
            try auth.server.createUser(email: email, password: NativeAuthFixture.password)
            let initiate = try await auth.initiate(email, challengeType: "oob redirect")
            let challenge = try await auth.challenge(initiate.continuationToken, challengeType: "oob redirect")
            let token = try #require(challenge.continuationToken)
            let code = try auth.code(for: email)
            let wrong = NativeAuthOneTimeCodeTests.wrong(code)
            for _ in 1...4 {
                let reply = try await auth.token(grantType: "oob", continuationToken: token, oob: wrong)
                auth.expectError(reply, error: "invalid_grant", suberror: "invalid_oob_value", codes: [50181])
            }
            let fifth = try await auth.token(grantType: "oob", continuationToken: token, oob: wrong)
            auth.expectError(fifth, error: "invalid_grant", suberror: "invalid_oob_value", codes: [9_000_001])
            // A burnt code is not checked, so trying it again is no further failure.
            let burnt = try await auth.token(grantType: "oob", continuationToken: token, oob: wrong)
            auth.expectError(burnt, error: "invalid_grant", suberror: "invalid_oob_value", codes: [9_000_001])
            #expect(try auth.user(email).failedSignIns == 5)

            // The password is delayed now, by the code failures.
            Self.expectDelayed(auth, try await auth.passwordGrant(email, password: NativeAuthFixture.password), retryAfter: 60)

            // Whoever receives a fresh code can still sign in, which clears the count.
            let resent = try await auth.challenge(token, challengeType: "oob redirect")
            try auth.expectOK(resent)
            let signedIn = try await auth.token(
                grantType: "oob", continuationToken: resent.continuationToken, oob: try auth.code(for: email))
            _ = try auth.tokens(from: signedIn)
            #expect(try auth.user(email).failedSignIns == 0)
            #expect(try auth.user(email).signInBlockedUntil == nil)
            _ = try await auth.signIn(email, password: NativeAuthFixture.password)
        }
    }

    @Test("under enumeration protection an unknown address is delayed like a real account: 429 from the sixth")
    func unknownAddressIsDelayedLikeARealOne() async throws {
        try await withNativeAuthServer { auth in
            var settings = TenantSettings()
            settings.enumerationProtection = true
            let guarded = auth.client(tenant: try auth.server.createTenant("guarded", settings: settings))
            try await Self.failPasswords(guarded, "nobody@example.com", count: 5)
            Self.expectDelayed(
                guarded, try await guarded.passwordGrant("nobody@example.com", password: Self.wrongPassword(6)), retryAfter: 60)
            guarded.server.clock.advance(by: 61)
            try await Self.failPasswords(guarded, "nobody@example.com", count: 1, from: 7)
        }
    }
}
