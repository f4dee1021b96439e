import Foundation
import Latch
import LatchServer
import LatchTesting
import Testing

/// The seed's `FIRUser` methods against the real server: each error the seed lists for a method,
/// with its number and name, and the errors common to every user call.
@Suite("SDK ↔ server: the seed's User methods and their errors", .timeLimit(.minutes(2)))
struct FirebaseSeedUserTests {
    @Test("every user call: invalidUserToken and userDisabled sign the user out locally; userTokenExpired after revocation")
    func commonErrors() async throws {
        let harness = try FirebaseSeedHarness.start()
        defer { harness.stop() }
        let (user, email) = try await harness.signedInUser("common")
        try harness.changeUser(email) { $0.disabled = true }
        await expectLatchError(.userDisabled, "ERROR_USER_DISABLED") { try await user.reload() }
        #expect(try await harness.auth.currentUser == nil)

        try harness.changeUser(email) { $0.disabled = false }
        let again = try await harness.auth.signIn(email: email, password: SDKTest.password)
        // Another device changes the password: this device's session is revoked (validSince).
        let other = try harness.server.makeClient { $0.apiKey = harness.client.configuration.apiKey }
        let elsewhere = try await other.firebase.signIn(email: email, password: SDKTest.password)
        harness.server.clock.advance(by: 1)
        _ = try await elsewhere.updatePassword(to: SDKTest.otherPassword)
        await expectLatchError(.userTokenExpired, "ERROR_USER_TOKEN_EXPIRED") {
            try await again.getIDToken(forceRefresh: true)
        }
        #expect(try await harness.auth.currentUser == nil)

        // A token signed with a key the tenant has since revoked is no longer valid.
        let third = try await harness.auth.signIn(email: email, password: SDKTest.otherPassword)
        let admin = harness.server.app.services.admin
        let tenant = try admin.tenant(named: "default")
        let header = try #require(try await third.getIDToken().split(separator: ".").first)
        var base64 = header.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        let object = try JSONSerialization.jsonObject(with: try #require(Data(base64Encoded: base64))) as? [String: Any]
        let kid = try #require(object?["kid"] as? String)
        _ = try admin.revokeKey(tenant: tenant, kid: kid)
        await expectLatchError(.invalidUserToken, "ERROR_INVALID_USER_TOKEN") { try await third.reload() }
        #expect(try await harness.auth.currentUser == nil)
    }

    @Test("a deleted account: userNotFound (17011) on reload and sendEmailVerification, signed out locally")
    func userNotFound() async throws {
        let harness = try FirebaseSeedHarness.start()
        defer { harness.stop() }
        let (user, _) = try await harness.signedInUser("gone")
        let tenant = try harness.server.app.services.admin.tenant(named: "default")
        _ = try harness.server.app.services.store.write { try $0.deleteUser(id: user.uid, tenantID: tenant.id) }
        await expectLatchError(.userNotFound, "ERROR_USER_NOT_FOUND") { try await user.sendEmailVerification() }
        #expect(try await harness.auth.currentUser == nil)
    }

    @Test("reauthenticate(with:): the same user; userMismatch, wrongPassword, invalidEmail, invalidCredential, userDisabled")
    func reauthenticate() async throws {
        let harness = try FirebaseSeedHarness.start()
        defer { harness.stop() }
        let (otherUser, otherEmail) = try await harness.signedInUser("other")
        _ = otherUser
        let (user, email) = try await harness.signedInUser("reauth")
        let again = try await user.reauthenticate(with: .email(email, password: SDKTest.password))
        #expect(again.uid == user.uid)
        await expectLatchError(.userMismatch, "ERROR_USER_MISMATCH") {
            try await user.reauthenticate(with: .email(otherEmail, password: SDKTest.password))
        }
        await expectLatchError(.userMismatch, "ERROR_USER_MISMATCH") {
            try await user.reauthenticate(with: .email(SDKTest.email("nobody"), password: SDKTest.password))
        }
        await expectLatchError(.wrongPassword, "ERROR_WRONG_PASSWORD") {
            try await user.reauthenticate(with: .email(email, password: SDKTest.otherPassword))
        }
        await expectLatchError(.invalidEmail, "ERROR_INVALID_EMAIL") {
            try await user.reauthenticate(with: .email("bad address", password: SDKTest.password))
        }
        try harness.server.updateTenant { $0.enumerationProtection = true }
        await expectLatchError(.invalidCredential, "ERROR_INVALID_CREDENTIAL") {
            try await user.reauthenticate(with: .email(email, password: SDKTest.otherPassword))
        }
        try harness.changeUser(email) { $0.disabled = true }
        await expectLatchError(.userDisabled, "ERROR_USER_DISABLED") {
            try await user.reauthenticate(with: .email(email, password: SDKTest.password))
        }
    }

    @Test("updateEmail(to:): the new address; emailAlreadyInUse, invalidEmail, requiresRecentLogin (17014)")
    func updateEmail() async throws {
        let harness = try FirebaseSeedHarness.start()
        defer { harness.stop() }
        let (_, taken) = try await harness.signedInUser("taken")
        let (user, _) = try await harness.signedInUser("mover")
        let newEmail = SDKTest.email("moved")
        let moved = try await user.updateEmail(to: newEmail)
        #expect(moved.email == newEmail)
        await expectLatchError(.emailAlreadyInUse, "ERROR_EMAIL_ALREADY_IN_USE") { try await moved.updateEmail(to: taken) }
        await expectLatchError(.invalidEmail, "ERROR_INVALID_EMAIL") { try await moved.updateEmail(to: "nope") }
        harness.outlastRecentSignIn()
        await expectLatchError(.requiresRecentLogin, "ERROR_REQUIRES_RECENT_LOGIN") {
            try await moved.updateEmail(to: SDKTest.email("later"))
        }
        // The recovery the error names: reauthenticate, then the change goes through.
        let fresh = try await moved.reauthenticate(with: .email(newEmail, password: SDKTest.password))
        #expect(try await fresh.updateEmail(to: SDKTest.email("after")).email != newEmail)
    }

    @Test("updatePassword(to:): the new password signs in; weakPassword with its reason, requiresRecentLogin")
    func updatePassword() async throws {
        let harness = try FirebaseSeedHarness.start()
        defer { harness.stop() }
        let (user, email) = try await harness.signedInUser("password")
        let updated = try await user.updatePassword(to: SDKTest.otherPassword)
        do {
            _ = try await updated.updatePassword(to: "short")
            Issue.record("a weak password was accepted")
        } catch let error as LatchError {
            #expect(error.code.rawValue == 17026)
            #expect(error.name == "ERROR_WEAK_PASSWORD")
            #expect(error.failureReason?.isEmpty == false)
        }
        // A tenant that turns on a second factor, which this wire cannot prove, refuses the change.
        try harness.server.updateTenant { $0.mfa.policy = .required }
        await expectLatchError(.operationNotAllowed, "ERROR_OPERATION_NOT_ALLOWED") {
            try await updated.updatePassword(to: SDKTest.password)
        }
        try harness.server.updateTenant { $0.mfa.policy = .off }
        harness.outlastRecentSignIn()
        await expectLatchError(.requiresRecentLogin, "ERROR_REQUIRES_RECENT_LOGIN") {
            try await updated.updatePassword(to: SDKTest.password)
        }
        try await harness.auth.signOut()
        #expect(try await harness.auth.signIn(email: email, password: SDKTest.otherPassword).uid == user.uid)
    }

    @Test("link(with:) an e-mail credential to an anonymous user; providerAlreadyLinked before any request; emailAlreadyInUse")
    func linkEmail() async throws {
        let harness = try FirebaseSeedHarness.start()
        defer { harness.stop() }
        let (_, taken) = try await harness.signedInUser("owner")
        try await harness.auth.signOut()
        let anonymous = try await harness.auth.signInAnonymously()
        await expectLatchError(.emailAlreadyInUse, "ERROR_EMAIL_ALREADY_IN_USE") {
            try await anonymous.link(with: .email(taken, password: SDKTest.password))
        }
        let email = SDKTest.email("kept")
        let linked = try await anonymous.link(with: .email(email, password: SDKTest.password))
        #expect(linked.uid == anonymous.uid)
        #expect(!linked.isAnonymous)
        #expect(linked.providerData.map(\.providerID) == ["password"])
        let before = harness.server.faults.requests().count
        await expectLatchError(.providerAlreadyLinked, "ERROR_PROVIDER_ALREADY_LINKED") {
            try await linked.link(with: .email(SDKTest.email("second"), password: SDKTest.password))
        }
        #expect(harness.server.faults.requests().count == before)
    }

    @Test("unlink(fromProvider:): noSuchProvider before any request; requiresRecentLogin")
    func unlink() async throws {
        let harness = try FirebaseSeedHarness.start()
        defer { harness.stop() }
        let (user, _) = try await harness.signedInUser("unlink")
        let before = harness.server.faults.requests().count
        await expectLatchError(.noSuchProvider, "ERROR_NO_SUCH_PROVIDER") { try await user.unlink(fromProvider: "oidc.none") }
        #expect(harness.server.faults.requests().count == before)
        harness.outlastRecentSignIn()
        await expectLatchError(.requiresRecentLogin, "ERROR_REQUIRES_RECENT_LOGIN") {
            try await user.unlink(fromProvider: "password")
        }
    }

    @Test("delete(): the account is gone and signed out; requiresRecentLogin (17014) first")
    func delete() async throws {
        let harness = try FirebaseSeedHarness.start()
        defer { harness.stop() }
        let (user, email) = try await harness.signedInUser("delete")
        harness.outlastRecentSignIn()
        await expectLatchError(.requiresRecentLogin, "ERROR_REQUIRES_RECENT_LOGIN") { try await user.delete() }
        let fresh = try await user.reauthenticate(with: .email(email, password: SDKTest.password))
        try await fresh.delete()
        #expect(try await harness.auth.currentUser == nil)
        await expectLatchError(.userNotFound, "ERROR_USER_NOT_FOUND") {
            try await harness.auth.signIn(email: email, password: SDKTest.password)
        }
    }
}
