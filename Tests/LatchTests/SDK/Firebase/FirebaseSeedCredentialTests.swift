import Foundation
import Latch
import LatchCrypto
import LatchServer
import LatchTesting
import Testing

/// OpenID Connect credentials through the SDK against the real server (`accounts:signInWithIdp`):
/// `signIn(with:)`, `reauthenticate(with:)`, `link(with:)` and `unlink(fromProvider:)`, each error
/// the seed lists for them with its number and name.
@Suite("SDK ↔ server: OpenID Connect credentials", .timeLimit(.minutes(2)))
struct FirebaseSeedCredentialTests {
    static let key = try! SigningKey.generate(.rs256, id: "sdk-idp-1")
    static let providerID = "oidc.sdk"
    static let issuer = "https://idp.sdk.test"
    static let audience = "sdk-app"

    /// A harness whose tenant trusts the test provider.
    static func start() throws -> FirebaseSeedHarness {
        let harness = try FirebaseSeedHarness.start()
        let admin = harness.server.app.services.admin
        let jwks = String(decoding: try JSONEncoder().encode(JWKSet(keys: [key.publicJWK])), as: UTF8.self)
        try admin.addIdentityProvider(
            tenant: try admin.tenant(named: "default"), providerID: providerID, issuer: issuer, clientID: audience,
            jwksURL: nil, jwksJSON: jwks)
        return harness
    }

    /// An ID token of the provider for `subject`.
    static func token(
        _ harness: FirebaseSeedHarness, _ subject: String, email: String?, lifetime: Int = 3600, nonce: String? = nil
    ) throws -> String {
        let now = Int(harness.server.clock.now().timeIntervalSince1970)
        var payload: [String: Any] = ["iss": issuer, "aud": audience, "sub": subject, "iat": now, "exp": now + lifetime]
        if let email {
            payload["email"] = email
            payload["email_verified"] = true
        }
        if let nonce { payload["nonce"] = Digest.sha256Hex(nonce) }
        return try JWT.sign(payload: Array(try JSONSerialization.data(withJSONObject: payload)), key: key)
    }

    static func credential(_ token: String, nonce: String? = nil) -> LatchAuthCredential {
        .openID(providerID: providerID, idToken: token, nonce: nonce)
    }

    @Test("signIn(with:): a new account, then the same one; invalidCredential, operationNotAllowed, userDisabled, nonce")
    func signIn() async throws {
        let harness = try Self.start()
        defer { harness.stop() }
        let email = SDKTest.email("idp")
        let user = try await harness.auth.signIn(with: Self.credential(try Self.token(harness, "sub-1", email: email)))
        #expect(user.email == email)
        #expect(user.providerData.map(\.providerID) == [Self.providerID])
        #expect(try await user.getIDTokenResult().signInProvider == Self.providerID)
        try await harness.auth.signOut()
        let again = try await harness.auth.signIn(with: Self.credential(try Self.token(harness, "sub-1", email: email)))
        #expect(again.uid == user.uid)

        await expectLatchError(.invalidCredential, "ERROR_INVALID_CREDENTIAL") {
            try await harness.auth.signIn(with: Self.credential(try Self.token(harness, "sub-2", email: nil, lifetime: -120)))
        }
        await expectLatchError(.invalidCredential, "ERROR_INVALID_CREDENTIAL") {
            try await harness.auth.signIn(with: Self.credential("not.a.jwt"))
        }
        await expectLatchError(.operationNotAllowed, "ERROR_OPERATION_NOT_ALLOWED") {
            try await harness.auth.signIn(
                with: .openID(providerID: "oidc.unknown", idToken: try Self.token(harness, "sub-3", email: nil)))
        }
        let nonce = "raw-nonce-\(UUID().uuidString)"
        let bound = try Self.token(harness, "sub-4", email: nil, nonce: nonce)
        await expectLatchError(.missingOrInvalidNonce, "ERROR_MISSING_OR_INVALID_NONCE") {
            try await harness.auth.signIn(with: Self.credential(bound, nonce: "another nonce"))
        }
        #expect(try await harness.auth.signIn(with: Self.credential(bound, nonce: nonce)).providerData.count == 1)

        try harness.changeUser(email) { $0.disabled = true }
        await expectLatchError(.userDisabled, "ERROR_USER_DISABLED") {
            try await harness.auth.signIn(with: Self.credential(try Self.token(harness, "sub-1", email: email)))
        }
    }

    // The seed lists emailAlreadyInUse for signIn(with:) when the credential's e-mail belongs to an
    // account that signs in another way. The Apple SDK raises accountExistsWithDifferentCredential
    // (17012) for that answer (`needConfirmation`), and the real client wins: so does this SDK, with
    // the address in `email`.
    @Test("signIn(with:) whose e-mail has a password account: accountExistsWithDifferentCredential (17012) with the e-mail")
    func accountExists() async throws {
        let harness = try Self.start()
        defer { harness.stop() }
        let (_, email) = try await harness.signedInUser("owner")
        try await harness.auth.signOut()
        do {
            _ = try await harness.auth.signIn(with: Self.credential(try Self.token(harness, "sub-owner", email: email)))
            Issue.record("the sign-in went through")
        } catch let error as LatchError {
            #expect(error.code.rawValue == 17012)
            #expect(error.name == "ERROR_ACCOUNT_EXISTS_WITH_DIFFERENT_CREDENTIAL")
            #expect(error.email == email)
            #expect((error as NSError).userInfo["FIRAuthErrorUserInfoEmailKey"] as? String == email)
        }
        // The recovery: sign in the other way, then link the credential.
        let owner = try await harness.auth.signIn(email: email, password: SDKTest.password)
        let linked = try await owner.link(with: Self.credential(try Self.token(harness, "sub-owner", email: email)))
        #expect(Set(linked.providerData.map(\.providerID)) == ["password", Self.providerID])
    }

    @Test("link(with:) an identity to an anonymous user; providerAlreadyLinked before any request; credentialAlreadyInUse")
    func link() async throws {
        let harness = try Self.start()
        defer { harness.stop() }
        let taken = try await harness.auth.signIn(with: Self.credential(try Self.token(harness, "sub-taken", email: nil)))
        try await harness.auth.signOut()
        let anonymous = try await harness.auth.signInAnonymously()
        await expectLatchError(.credentialAlreadyInUse, "ERROR_CREDENTIAL_ALREADY_IN_USE") {
            try await anonymous.link(with: Self.credential(try Self.token(harness, "sub-taken", email: nil)))
        }
        _ = taken
        let linked = try await anonymous.link(with: Self.credential(try Self.token(harness, "sub-kept", email: nil)))
        #expect(linked.uid == anonymous.uid)
        #expect(linked.providerData.map(\.providerID) == [Self.providerID])
        let before = harness.server.faults.requests().count
        await expectLatchError(.providerAlreadyLinked, "ERROR_PROVIDER_ALREADY_LINKED") {
            try await linked.link(with: Self.credential(try Self.token(harness, "sub-other", email: nil)))
        }
        #expect(harness.server.faults.requests().count == before)
        await expectLatchError(.operationNotAllowed, "ERROR_OPERATION_NOT_ALLOWED") {
            try await linked.link(
                with: .openID(providerID: "oidc.unknown", idToken: try Self.token(harness, "sub-x", email: nil)))
        }

        let unlinked = try await linked.unlink(fromProvider: Self.providerID)
        #expect(unlinked.providerData.isEmpty)
        await expectLatchError(.noSuchProvider, "ERROR_NO_SUCH_PROVIDER") {
            try await unlinked.unlink(fromProvider: Self.providerID)
        }
    }

    @Test("reauthenticate(with:) an identity: the same user; another identity or an unknown one is userMismatch")
    func reauthenticate() async throws {
        let harness = try Self.start()
        defer { harness.stop() }
        _ = try await harness.auth.signIn(with: Self.credential(try Self.token(harness, "sub-other", email: nil)))
        try await harness.auth.signOut()
        let user = try await harness.auth.signIn(with: Self.credential(try Self.token(harness, "sub-me", email: nil)))
        let again = try await user.reauthenticate(with: Self.credential(try Self.token(harness, "sub-me", email: nil)))
        #expect(again.uid == user.uid)
        await expectLatchError(.userMismatch, "ERROR_USER_MISMATCH") {
            try await user.reauthenticate(with: Self.credential(try Self.token(harness, "sub-other", email: nil)))
        }
        await expectLatchError(.userMismatch, "ERROR_USER_MISMATCH") {
            try await user.reauthenticate(with: Self.credential(try Self.token(harness, "sub-nobody", email: nil)))
        }
        await expectLatchError(.invalidCredential, "ERROR_INVALID_CREDENTIAL") {
            try await user.reauthenticate(with: Self.credential(try Self.token(harness, "sub-me", email: nil, lifetime: -120)))
        }
        await expectLatchError(.operationNotAllowed, "ERROR_OPERATION_NOT_ALLOWED") {
            try await user.reauthenticate(
                with: .openID(providerID: "oidc.unknown", idToken: try Self.token(harness, "sub-me", email: nil)))
        }
    }

    // As for signIn(with:), the seed's emailAlreadyInUse for reauthenticate(with:) is the
    // `needConfirmation` answer, which the Apple SDK (and so this one) raises as 17012.
    @Test("reauthenticate(with:) an identity whose e-mail is another account's: accountExistsWithDifferentCredential")
    func reauthenticateAccountExists() async throws {
        let harness = try Self.start()
        defer { harness.stop() }
        let (_, taken) = try await harness.signedInUser("taken")
        try await harness.auth.signOut()
        let user = try await harness.auth.signIn(with: Self.credential(try Self.token(harness, "sub-me", email: nil)))
        await expectLatchError(.accountExistsWithDifferentCredential, "ERROR_ACCOUNT_EXISTS_WITH_DIFFERENT_CREDENTIAL") {
            try await user.reauthenticate(with: Self.credential(try Self.token(harness, "sub-new", email: taken)))
        }
    }
}
