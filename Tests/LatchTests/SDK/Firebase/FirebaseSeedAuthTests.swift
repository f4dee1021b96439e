import Foundation
import Latch
import LatchServer
import LatchTesting
import Testing

/// The seed's `FIRAuth` methods against the real server, one test per method, each error the seed
/// lists for it with its number and name.
@Suite("SDK ↔ server: the seed's Auth methods and their errors", .timeLimit(.minutes(2)))
struct FirebaseSeedAuthTests {
    @Test("fetchSignInMethods(forEmail:): the methods of a known address; invalidEmail (17008)")
    func fetchSignInMethods() async throws {
        let harness = try FirebaseSeedHarness.start()
        defer { harness.stop() }
        let (_, email) = try await harness.signedInUser("fetch")
        #expect(try await harness.auth.fetchSignInMethods(forEmail: email) == ["password"])
        #expect(try await harness.auth.fetchSignInMethods(forEmail: SDKTest.email("nobody")) == [])
        await expectLatchError(.invalidEmail, "ERROR_INVALID_EMAIL") {
            try await harness.auth.fetchSignInMethods(forEmail: "not-an-address")
        }
    }

    @Test("signIn(email:password:): invalidEmail, wrongPassword, userNotFound, userDisabled, operationNotAllowed")
    func signInWithEmail() async throws {
        let harness = try FirebaseSeedHarness.start()
        defer { harness.stop() }
        let (_, email) = try await harness.signedInUser("sign-in")
        try await harness.auth.signOut()
        await expectLatchError(.invalidEmail, "ERROR_INVALID_EMAIL") {
            try await harness.auth.signIn(email: "not-an-address", password: SDKTest.password)
        }
        await expectLatchError(.wrongPassword, "ERROR_WRONG_PASSWORD") {
            try await harness.auth.signIn(email: email, password: SDKTest.otherPassword)
        }
        await expectLatchError(.wrongPassword, "ERROR_WRONG_PASSWORD") {
            try await harness.auth.signIn(email: email, password: "")
        }
        await expectLatchError(.userNotFound, "ERROR_USER_NOT_FOUND") {
            try await harness.auth.signIn(email: SDKTest.email("nobody"), password: SDKTest.password)
        }
        try harness.changeUser(email) { $0.disabled = true }
        await expectLatchError(.userDisabled, "ERROR_USER_DISABLED") {
            try await harness.auth.signIn(email: email, password: SDKTest.password)
        }
        try harness.changeUser(email) { $0.disabled = false }
        // A tenant that requires a second factor cannot sign in on this wire, which has none.
        try harness.server.updateTenant { $0.mfa.policy = .required }
        await expectLatchError(.operationNotAllowed, "ERROR_OPERATION_NOT_ALLOWED") {
            try await harness.auth.signIn(email: email, password: SDKTest.password)
        }
    }

    @Test("signIn(email:password:) under enumeration protection: invalidCredential (17004) for both mistakes")
    func signInProtected() async throws {
        let harness = try FirebaseSeedHarness.start { $0.enumerationProtection = true }
        defer { harness.stop() }
        let (_, email) = try await harness.signedInUser("protected")
        await expectLatchError(.invalidCredential, "ERROR_INVALID_CREDENTIAL") {
            try await harness.auth.signIn(email: email, password: SDKTest.otherPassword)
        }
        await expectLatchError(.invalidCredential, "ERROR_INVALID_CREDENTIAL") {
            try await harness.auth.signIn(email: SDKTest.email("nobody"), password: SDKTest.password)
        }
        #expect(try await harness.auth.fetchSignInMethods(forEmail: email) == [])
    }

    @Test("signIn(with: email credential): the same account; invalidEmail, wrongPassword, userDisabled")
    func signInWithEmailCredential() async throws {
        let harness = try FirebaseSeedHarness.start()
        defer { harness.stop() }
        let (created, email) = try await harness.signedInUser("credential")
        let user = try await harness.auth.signIn(with: .email(email, password: SDKTest.password))
        #expect(user.uid == created.uid)
        await expectLatchError(.invalidEmail, "ERROR_INVALID_EMAIL") {
            try await harness.auth.signIn(with: .email("bad address", password: SDKTest.password))
        }
        await expectLatchError(.wrongPassword, "ERROR_WRONG_PASSWORD") {
            try await harness.auth.signIn(with: .email(email, password: SDKTest.otherPassword))
        }
        try harness.changeUser(email) { $0.disabled = true }
        await expectLatchError(.userDisabled, "ERROR_USER_DISABLED") {
            try await harness.auth.signIn(with: .email(email, password: SDKTest.password))
        }
    }

    @Test("signInAnonymously(): an anonymous user, the same one again; operationNotAllowed (17006) when off")
    func signInAnonymously() async throws {
        let harness = try FirebaseSeedHarness.start()
        defer { harness.stop() }
        let first = try await harness.auth.signInAnonymously()
        #expect(first.isAnonymous)
        #expect(try await harness.auth.signInAnonymously().uid == first.uid)
        try await harness.auth.signOut()
        try harness.server.updateTenant { $0.anonymousSignIn = false }
        await expectLatchError(.operationNotAllowed, "ERROR_OPERATION_NOT_ALLOWED") {
            try await harness.auth.signInAnonymously()
        }
    }

    @Test("signIn(customToken:): a minted token signs in, with its claims; invalidCustomToken, customTokenMismatch")
    func signInWithCustomToken() async throws {
        let harness = try FirebaseSeedHarness.start()
        defer { harness.stop() }
        let admin = harness.server.app.services.admin
        let tenant = try admin.tenant(named: "default")
        let token = try admin.mintCustomToken(tenant: tenant, uid: "custom-ada", claims: ["tier": "gold"])
        let user = try await harness.auth.signIn(customToken: token)
        #expect(user.uid == "custom-ada")
        let result = try await user.getIDTokenResult()
        #expect(result.signInProvider == "custom")
        #expect(result.claims.value(String.self, for: "tier") == "gold")
        #expect(try await harness.auth.currentUser?.uid == "custom-ada")

        await expectLatchError(.invalidCustomToken, "ERROR_INVALID_CUSTOM_TOKEN") {
            try await harness.auth.signIn(customToken: "not.a.token")
        }
        await expectLatchError(.invalidCustomToken, "ERROR_INVALID_CUSTOM_TOKEN") {
            try await harness.auth.signIn(customToken: "")
        }
        let other = try admin.createTenant(name: "other")
        let foreign = try admin.mintCustomToken(tenant: other, uid: "custom-ada")
        await expectLatchError(.customTokenMismatch, "ERROR_CUSTOM_TOKEN_MISMATCH") {
            try await harness.auth.signIn(customToken: foreign)
        }
        harness.server.clock.advance(by: 3601)
        await expectLatchError(.invalidCustomToken, "ERROR_INVALID_CUSTOM_TOKEN") {
            try await harness.auth.signIn(customToken: token)
        }
    }

    @Test("createUser(email:password:): invalidEmail, emailAlreadyInUse, weakPassword with its reason, operationNotAllowed")
    func createUser() async throws {
        let harness = try FirebaseSeedHarness.start()
        defer { harness.stop() }
        let (_, email) = try await harness.signedInUser("create")
        await expectLatchError(.invalidEmail, "ERROR_INVALID_EMAIL") {
            try await harness.auth.createUser(email: "no-at-sign", password: SDKTest.password)
        }
        await expectLatchError(.emailAlreadyInUse, "ERROR_EMAIL_ALREADY_IN_USE") {
            try await harness.auth.createUser(email: email, password: SDKTest.password)
        }
        do {
            try await harness.auth.createUser(email: SDKTest.email("weak"), password: "short")
            Issue.record("a weak password was accepted")
        } catch let error as LatchError {
            #expect(error.code.rawValue == 17026)
            #expect(error.name == "ERROR_WEAK_PASSWORD")
            let reason = try #require(error.failureReason)
            #expect(!reason.isEmpty)
            #expect((error as NSError).userInfo[NSLocalizedFailureReasonErrorKey] as? String == reason)
        }
        try harness.server.updateTenant { $0.mfa.policy = .required }
        await expectLatchError(.operationNotAllowed, "ERROR_OPERATION_NOT_ALLOWED") {
            try await harness.auth.createUser(email: SDKTest.email("mfa"), password: SDKTest.password)
        }
    }

    @Test("signOut(): no request, currentUser nil, the change reaches authStateChanges")
    func signOut() async throws {
        let harness = try FirebaseSeedHarness.start()
        defer { harness.stop() }
        _ = try await harness.signedInUser("sign-out")
        let before = harness.server.faults.requests().count
        try await harness.auth.signOut()
        #expect(harness.server.faults.requests().count == before)
        #expect(try await harness.auth.currentUser == nil)
        #expect(try await harness.client.currentAccount == nil)
    }
}
