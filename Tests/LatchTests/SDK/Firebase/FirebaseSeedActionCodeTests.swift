import Foundation
import Latch
import LatchServer
import LatchTesting
import Testing

/// The out-of-band codes through the SDK against the real server: password reset, e-mail
/// verification, verify-and-change and e-mail-link sign-in, with the codes read from the outbox.
@Suite("SDK ↔ server: action codes and e-mail links", .timeLimit(.minutes(2)))
struct FirebaseSeedActionCodeTests {
    /// The code of the newest message to `recipient`.
    static func code(_ harness: FirebaseSeedHarness, to recipient: String) throws -> String {
        try #require(try harness.server.latestCode(to: recipient))
    }

    @Test("sendPasswordReset → confirmPasswordReset: the new password signs in, the code is single-use; the errors")
    func passwordReset() async throws {
        let harness = try FirebaseSeedHarness.start()
        defer { harness.stop() }
        let (user, email) = try await harness.signedInUser("reset")
        try await harness.auth.signOut()
        await expectLatchError(.missingEmail, "ERROR_MISSING_EMAIL") { try await harness.auth.sendPasswordReset(withEmail: "") }
        await expectLatchError(.invalidEmail, "ERROR_INVALID_EMAIL") {
            try await harness.auth.sendPasswordReset(withEmail: "not-an-address")
        }
        await expectLatchError(.userNotFound, "ERROR_USER_NOT_FOUND") {
            try await harness.auth.sendPasswordReset(withEmail: SDKTest.email("nobody"))
        }
        try await harness.auth.sendPasswordReset(withEmail: email)
        let code = try Self.code(harness, to: email)
        do {
            try await harness.auth.confirmPasswordReset(code: code, newPassword: "short")
            Issue.record("a weak password was accepted")
        } catch let error as LatchError {
            #expect(error.code.rawValue == 17026)
            #expect(error.failureReason?.isEmpty == false)
        }
        try await harness.auth.confirmPasswordReset(code: code, newPassword: SDKTest.otherPassword)
        await expectLatchError(.invalidActionCode, "ERROR_INVALID_ACTION_CODE") {
            try await harness.auth.confirmPasswordReset(code: code, newPassword: SDKTest.password)
        }
        #expect(try await harness.auth.signIn(email: email, password: SDKTest.otherPassword).uid == user.uid)

        try await harness.auth.sendPasswordReset(withEmail: email)
        let late = try Self.code(harness, to: email)
        harness.server.clock.advance(by: 2 * 3600)
        await expectLatchError(.expiredActionCode, "ERROR_EXPIRED_ACTION_CODE") {
            try await harness.auth.confirmPasswordReset(code: late, newPassword: SDKTest.password)
        }
        await expectLatchError(.invalidActionCode, "ERROR_INVALID_ACTION_CODE") {
            try await harness.auth.confirmPasswordReset(code: "not-a-code", newPassword: SDKTest.password)
        }
    }

    @Test("sendPasswordReset under enumeration protection: an unknown address succeeds and nothing is sent")
    func passwordResetProtected() async throws {
        let harness = try FirebaseSeedHarness.start { $0.enumerationProtection = true }
        defer { harness.stop() }
        let nobody = SDKTest.email("nobody")
        try await harness.auth.sendPasswordReset(withEmail: nobody)
        #expect(try harness.server.outbox(to: nobody).isEmpty)
    }

    @Test("sendEmailVerification → applyActionCode: reload shows the address verified; a used code is invalid")
    func verifyEmail() async throws {
        let harness = try FirebaseSeedHarness.start()
        defer { harness.stop() }
        let (user, email) = try await harness.signedInUser("verify")
        #expect(!user.isEmailVerified)
        try await user.sendEmailVerification()
        let code = try Self.code(harness, to: email)
        try await harness.auth.applyActionCode(code)
        #expect(try await user.reload().isEmailVerified)
        await expectLatchError(.invalidActionCode, "ERROR_INVALID_ACTION_CODE") { try await harness.auth.applyActionCode(code) }
    }

    @Test("sendEmailVerification(beforeUpdatingEmail:): the address changes only once the code is applied; errors")
    func verifyAndChangeEmail() async throws {
        let harness = try FirebaseSeedHarness.start()
        defer { harness.stop() }
        let (_, taken) = try await harness.signedInUser("taken")
        let (user, email) = try await harness.signedInUser("changer")
        await expectLatchError(.invalidEmail, "ERROR_INVALID_EMAIL") {
            try await user.sendEmailVerification(beforeUpdatingEmail: "nope")
        }
        await expectLatchError(.emailAlreadyInUse, "ERROR_EMAIL_ALREADY_IN_USE") {
            try await user.sendEmailVerification(beforeUpdatingEmail: taken)
        }
        let newEmail = SDKTest.email("new")
        try await user.sendEmailVerification(beforeUpdatingEmail: newEmail)
        #expect(try await user.reload().email == email)
        try await harness.auth.applyActionCode(try Self.code(harness, to: newEmail))
        let tenant = try harness.server.app.services.admin.tenant(named: "default")
        let stored = try #require(try harness.server.app.services.store.read { try $0.user(id: user.uid, tenantID: tenant.id) })
        #expect(stored.email == newEmail)
        #expect(stored.emailVerified)
        harness.outlastRecentSignIn()
        await expectLatchError(.requiresRecentLogin, "ERROR_REQUIRES_RECENT_LOGIN") {
            try await user.sendEmailVerification(beforeUpdatingEmail: SDKTest.email("later"))
        }
    }

    @Test("sendSignInLink → isSignIn(withEmailLink:) → signIn(email:link:): a new verified account, then the same one")
    func emailLink() async throws {
        let harness = try FirebaseSeedHarness.start()
        defer { harness.stop() }
        let email = SDKTest.email("link")
        try await harness.auth.sendSignInLink(toEmail: email)
        let message = try #require(try harness.server.outbox(to: email).first)
        let link = try #require(Self.link(in: message.body))
        #expect(harness.auth.isSignIn(withEmailLink: link))
        #expect(!harness.auth.isSignIn(withEmailLink: "https://example.com/?mode=resetPassword&oobCode=x"))
        let user = try await harness.auth.signIn(email: email, link: link)
        #expect(user.email == email)
        #expect(user.isEmailVerified)
        await expectLatchError(.invalidActionCode, "ERROR_INVALID_ACTION_CODE") {
            try await harness.auth.signIn(email: email, link: link)
        }
        try await harness.auth.signOut()
        try await harness.auth.sendSignInLink(toEmail: email)
        let newest = try #require(try harness.server.outbox(to: email).first)
        let second = try #require(Self.link(in: newest.body))
        await expectLatchError(.invalidEmail, "ERROR_INVALID_EMAIL") {
            try await harness.auth.signIn(email: SDKTest.email("other"), link: second)
        }
        #expect(try await harness.auth.signIn(email: email, link: second).uid == user.uid)
        await expectLatchError(.invalidActionCode, "ERROR_INVALID_ACTION_CODE") {
            try await harness.auth.signIn(email: email, link: "https://example.com/nothing")
        }
    }

    /// The first `http(s)://…` link in a message body.
    static func link(in body: String) -> String? {
        body.split(whereSeparator: { $0.isWhitespace }).map(String.init).first { $0.hasPrefix("http") && $0.contains("oobCode=") }
    }
}
