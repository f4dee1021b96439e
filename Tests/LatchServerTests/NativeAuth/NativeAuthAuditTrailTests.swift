import Foundation
import LatchServer
import LatchTesting
import Testing

@Suite("Native auth: audit trail")
struct NativeAuthAuditTrailTests {
    @Test("sign-up, sign-in success and failure, reset: the right events, no passwords or codes")
    func auditEvents() async throws {
        try await withNativeAuthServer { auth in
            let email = "audited@example.com"
            let wrongPassword = "Wr0ng-but-close"
            var secrets = [NativeAuthFixture.password, NativeAuthFixture.otherPassword, wrongPassword]

            _ = try await auth.signUp(email, password: NativeAuthFixture.password)
            secrets.append(try auth.code(for: email))
            let user = try auth.user(email)
            _ = try await auth.signIn(email, password: NativeAuthFixture.password)
            let failed = try await auth.passwordGrant(email, password: wrongPassword)
            auth.expectError(failed, error: "invalid_grant", codes: [50126])
            _ = try await auth.resetPassword(email, to: NativeAuthFixture.otherPassword)
            secrets.append(try auth.code(for: email))
            auth.expectError(try await auth.initiate("stranger@example.com"), error: "user_not_found", codes: [50034])
            let wrongCode = try await auth.initiate(email, challengeType: "oob redirect")
            let codeChallenge = try await auth.challenge(wrongCode.continuationToken, challengeType: "oob redirect")
            let sentCode = try auth.code(for: email)
            secrets.append(sentCode)
            let badCode = NativeAuthOneTimeCodeTests.wrong(sentCode)
            secrets.append(badCode)
            auth.expectError(
                try await auth.token(grantType: "oob", continuationToken: codeChallenge.continuationToken, oob: badCode),
                error: "invalid_grant", suberror: "invalid_oob_value", codes: [50181])

            let events = try auth.auditEvents()
            let summary = events.map { "\($0.kind.rawValue) \($0.detail ?? "-")" }
            #expect(
                summary == [
                    "sign_up method=email_password",
                    "sign_in_succeeded amr=otp",
                    "sign_in_succeeded amr=pwd",
                    "sign_in_failed reason=invalid_credentials",
                    "password_reset sessions_revoked",
                    "sign_in_succeeded amr=otp,pwd",
                    "sign_in_failed reason=invalid_code",
                ])
            // The unknown address wrote no row of its own: it is counted for the next summary row.
            #expect(auth.server.app.services.auditAggregator.pendingCount == 1)
            let tenant = try auth.tenantRecord()
            for (index, event) in events.enumerated() {
                #expect(event.tenantID == tenant.id)
                #expect(event.clientID == "latch-dev")
                #expect(event.remoteAddress?.isEmpty == false)
                #expect(abs(event.at.timeIntervalSince(auth.server.clock.now())) < 1)
                #expect(event.userID == user.id, "event \(index) \(event.kind.rawValue)")
                let text = [event.detail, event.remoteAddress, event.clientID, event.userID].compactMap { $0 }.joined(
                    separator: " ")
                for secret in secrets { #expect(!text.contains(secret), "event \(index) leaks a secret") }
            }
        }
    }
}
