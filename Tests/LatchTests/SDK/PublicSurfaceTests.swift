import Foundation
import Latch
import LatchTesting
import Testing

// This file imports `Latch` alone (no `LatchWire`, no `@testable`), with MemberImportVisibility on:
// everything it names must be the SDK's own public surface.

/// The SDK's public surface as an app sees it: configuration checks, account identity, claims,
/// code delivery and error names.
@Suite("SDK public surface")
struct PublicSurfaceTests {
    @Test(
        "a challenge type or capability the SDK cannot complete is refused when the client is made, before any request",
        arguments: [
            (
                [LatchConfiguration.ChallengeType.oob, .password],
                [LatchConfiguration.Capability.mfaRequired, LatchConfiguration.Capability(rawValue: "device_binding")],
                "device_binding"
            ),
            ([.oob, LatchConfiguration.ChallengeType(rawValue: "otp")], [], "otp"),
        ])
    func refusedConfiguration(
        challengeTypes: [LatchConfiguration.ChallengeType], capabilities: [LatchConfiguration.Capability], named: String
    ) throws {
        let recorder = SDKTest.RecordingTransport()
        let configuration = LatchConfiguration(
            serverURL: URL(string: "http://127.0.0.1:9")!, clientID: "latch-dev", challengeTypes: challengeTypes,
            capabilities: capabilities, credentialStore: InMemoryCredentialStore(), transport: recorder.transport)
        let error = try #require(throws: LatchError.self) { try LatchClient(configuration: configuration) }
        #expect(error.code == .invalidConfiguration)
        #expect(error.code.rawValue == 19012)
        #expect(error.name == "ERROR_INVALID_CONFIGURATION")
        #expect(error.message.contains("'\(named)'"))
        #expect(error.recovery == .none)
        #expect(recorder.count == 0)
    }

    @Test("supported challenge types and capabilities are accepted; redirect may be listed")
    func acceptedConfiguration() throws {
        for types in [[LatchConfiguration.ChallengeType.oob], [.password], [.oob, .password, .redirect], []] {
            let client = try LatchClient(
                configuration: LatchConfiguration(
                    serverURL: URL(string: "http://127.0.0.1:9")!, clientID: "latch-dev", challengeTypes: types,
                    credentialStore: InMemoryCredentialStore()))
            #expect(client.configuration.challengeTypes == types)
        }
        for capabilities in [
            [LatchConfiguration.Capability.mfaRequired], [.registrationRequired], [.mfaRequired, .registrationRequired],
        ] {
            let client = try LatchClient(
                configuration: LatchConfiguration(
                    serverURL: URL(string: "http://127.0.0.1:9")!, clientID: "latch-dev", capabilities: capabilities,
                    credentialStore: InMemoryCredentialStore()))
            #expect(client.configuration.capabilities == capabilities)
        }
        #expect(LatchConfiguration.Capability.supported == [.mfaRequired, .registrationRequired])
        #expect(LatchConfiguration.Capability.mfaRequired.rawValue == "mfa_required")
        #expect(LatchConfiguration.Capability.registrationRequired.rawValue == "registration_required")
        #expect(LatchConfiguration.ChallengeType.supported == [.oob, .password, .redirect])
    }

    @Test("accounts are equal by identity: a refreshed copy with new claims, or one whose session ended, is the same account")
    func accountIdentity() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let store = InMemoryCredentialStore()
        let client = try env.client(store: store)
        let signedIn = try await env.signedIn(client, email: SDKTest.email("identity"))
        let other = try await env.signedIn(client, email: SDKTest.email("identity-other"))

        env.server.clock.advance(by: 120)
        let refreshed = try await client.acquireTokenSilent(account: signedIn.account, forceRefresh: true)
        #expect(refreshed.account.claims != signedIn.account.claims, "the refresh brought a new ID token")
        #expect(refreshed.account == signedIn.account)
        #expect(Set([signedIn.account, refreshed.account, other.account]).count == 2)
        #expect(signedIn.account != other.account)

        // The session ends on the server (a password reset elsewhere); the stored copy says so and is still equal.
        let device = try env.client()
        let reset = try SDKTest.codeRequired(try await device.resetPassword(username: signedIn.account.username))
        _ = try await SDKTest.passwordRequired(try await reset.submitCode(try env.code(to: signedIn.account.username)))
            .submitPassword(SDKTest.otherPassword)
        _ = try? await client.acquireTokenSilent(account: signedIn.account, forceRefresh: true)
        let ended = try #require(try await client.account(username: signedIn.account.username))
        #expect(ended.sessionState == .interactionRequired)
        #expect(ended == signedIn.account)
        #expect([signedIn.account: "kept"][ended] == "kept")
    }

    @Test("ID-token claims: times are Dates, registered claims have names, every claim is readable by name")
    func claims() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let client = try env.client()
        let now = env.server.clock.now()
        let signedIn = try await env.signedIn(client, email: SDKTest.email("claims"))
        let claims = try #require(signedIn.account.claims)

        #expect(claims.subject == signedIn.account.id)
        #expect(claims.issuer.hasSuffix("/default/v2.0"))
        #expect(claims.audience == ["latch-dev"])
        #expect(claims.issuedAt == now)
        #expect(claims.notBefore == now)
        #expect(claims.authTime == now)
        #expect(claims.expiresAt > now)
        #expect(claims.authenticationMethods == ["pwd"])
        #expect(claims.email == signedIn.account.username)
        #expect(claims.emailVerified == true)
        #expect(claims.sessionID?.isEmpty == false)
        #expect(claims.tenantID?.isEmpty == false)
        #expect(signedIn.expiresOn == now.addingTimeInterval(3600))

        #expect(claims.names.contains("iss") && claims.names.contains("auth_time"))
        #expect(claims.value(String.self, for: "sub") == claims.subject)
        #expect(claims.value(Date.self, for: "exp") == claims.expiresAt)
        #expect(claims.value([String].self, for: "amr") == ["pwd"])
        #expect(claims.value(Int.self, for: "email") == nil)
        #expect(claims.value(String.self, for: "no_such_claim") == nil)
    }

    @Test("the code's channel is typed")
    func codeDelivery() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let client = try env.client()
        let state = try SDKTest.codeRequired(try await client.signUp(username: SDKTest.email("channel")))
        #expect(state.delivery.channel == .email)
        #expect(state.delivery.channel.isEmailType)
        #expect(state.delivery.codeLength == 8)
    }

    @Test("a claims challenge is named claimsChallenge and handed to the recovery")
    func claimsChallenge() {
        let challenge = #"{"access_token":{"acr":{"essential":true}}}"#
        let error = LatchError(code: .interactionRequired, message: "step-up needed", claimsChallenge: challenge)
        #expect(error.claimsChallenge == challenge)
        #expect(error.recovery == .signInAgain(claimsChallenge: challenge))
    }
}
