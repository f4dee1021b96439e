import Foundation
import Latch
import LatchServer
import LatchTesting
import Testing

/// MFA, strong-method registration, step-up and declined scopes, SDK ↔ a real in-process server.
@Suite("SDK ↔ server: MFA, registration, step-up", .timeLimit(.minutes(2)))
struct MFAEndToEndTests {
    static let password = SDKTest.password

    /// A server whose default tenant has MFA `policy`, and a client declaring both capabilities.
    static func environment(
        policy: MFASettings.Policy = .required, _ body: (LatchTestServer, LatchClient) async throws -> Void
    ) async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        try server.updateTenant { $0.mfa.policy = policy }
        let client = try server.makeClient { $0.capabilities = [.mfaRequired, .registrationRequired] }
        try await body(server, client)
    }

    static func addMethod(_ channel: DeliveryChannel, _ target: String, to user: User, in server: LatchTestServer) throws {
        try server.app.services.store.write { tx in
            try tx.insert(
                AuthMethod(
                    id: UUID().uuidString.lowercased(), tenantID: user.tenantID, userID: user.id, channel: channel,
                    target: target, verified: true, createdAt: server.clock.now()))
        }
    }

    static func awaitingMFA(_ step: SignInStep, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> MFARequiredState
    {
        guard case .awaitingMFA(let state) = step else {
            throw SDKTest.UnexpectedStep(description: "expected awaitingMFA, got \(step)")
        }
        return state
    }

    static func registration(_ step: SignInStep) throws -> (methods: [LatchAuthMethod], state: RegisterStrongAuthState) {
        guard case .strongAuthMethodRegistrationRequired(let methods, let state) = step else {
            throw SDKTest.UnexpectedStep(description: "expected strongAuthMethodRegistrationRequired, got \(step)")
        }
        return (methods, state)
    }

    static func amr(_ result: LatchTokenResult) throws -> [String] {
        let parts = try #require(result.idToken).split(separator: ".")
        let padded = String(parts[1]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        let data = try #require(Data(base64Encoded: padded + String(repeating: "=", count: (4 - padded.count % 4) % 4)))
        return try #require((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["amr"] as? [String])
    }

    @Test("password → awaitingMFA → requestChallenge(sms) → a wrong code (invalidChallenge, state kept) → the right one")
    func mfaAfterPassword() async throws {
        try await Self.environment { server, client in
            let email = SDKTest.email("mfa-e2e")
            let user = try server.createUser(email: email, password: Self.password)
            try Self.addMethod(.sms, "+14155550177", to: user, in: server)
            let state = try Self.awaitingMFA(try await client.signIn(username: email, password: Self.password))
            #expect(state.authMethods.map(\.channel) == [.sms])
            #expect(state.authMethods.first?.loginHint == "+1******0177")
            let sent = try await state.requestChallenge(method: state.authMethods.first)
            #expect(sent.delivery?.channel == .sms)
            await #expect(throws: LatchError.self) { _ = try await sent.submitChallenge("00000000") }
            do {
                _ = try await sent.submitChallenge("00000000")
            } catch let error as LatchError {
                #expect(error.code == .invalidChallenge)
            }
            let code = try #require(try server.latestCode(to: "+14155550177"))
            let result = try SDKTest.completed(try await sent.submitChallenge(code))
            #expect(try Self.amr(result) == ["pwd", "sms", "mfa"])
            #expect(try await client.isSignedIn)
        }
    }

    @Test("registration of an e-mail method with a code; the next sign-in asks for MFA by it")
    func registrationWithCode() async throws {
        try await Self.environment { server, client in
            let email = SDKTest.email("reg-e2e")
            _ = try server.createUser(email: email, password: Self.password)
            let (methods, state) = try Self.registration(try await client.signIn(username: email, password: Self.password))
            let emailMethod = try #require(methods.first { $0.channel == .email })
            let step = try await state.challengeAuthMethod(
                parameters: LatchChallengeAuthMethodParameters(authMethod: emailMethod, verificationContact: "second@example.org")
            )
            guard case .verificationRequired(let verification) = step else {
                Issue.record("expected verificationRequired, got \(step)")
                return
            }
            let code = try #require(try server.latestCode(to: "second@example.org"))
            let result = try SDKTest.completed(try await verification.submitChallenge(code))
            #expect(try Self.amr(result) == ["pwd", "otp", "mfa"])
            let again = try Self.awaitingMFA(try await client.signIn(username: email, password: Self.password))
            #expect(again.authMethods.map(\.channel) == [.email])
        }
    }

    @Test("registration of an SMS method; an invalid number is invalidInput and a blocked one verificationContactBlocked")
    func registrationFailures() async throws {
        try await Self.environment { server, client in
            try server.updateTenant { $0.mfa.blockedContacts = ["+999"] }
            let email = SDKTest.email("reg-sms")
            _ = try server.createUser(email: email, password: Self.password)
            let (methods, state) = try Self.registration(try await client.signIn(username: email, password: Self.password))
            let sms = try #require(methods.first { $0.channel == .sms })
            for (contact, code) in [("555-0100", LatchError.Code.invalidInput), ("+999 555 0100", .verificationContactBlocked)] {
                do {
                    _ = try await state.challengeAuthMethod(
                        parameters: LatchChallengeAuthMethodParameters(authMethod: sms, verificationContact: contact))
                    Issue.record("\(contact) was accepted")
                } catch let error as LatchError {
                    #expect(error.code == code, "\(contact)")
                }
            }
        }
    }

    @Test("preverified: registering the verified sign-in e-mail completes without a code")
    func preverified() async throws {
        try await Self.environment { server, client in
            let email = SDKTest.email("pre-e2e")
            _ = try server.createUser(email: email, password: Self.password)
            let (methods, state) = try Self.registration(try await client.signIn(username: email, password: Self.password))
            let step = try await state.challengeAuthMethod(
                parameters: LatchChallengeAuthMethodParameters(
                    authMethod: try #require(methods.first { $0.channel == .email }), verificationContact: email))
            guard case .completed(let result) = step else {
                Issue.record("expected completed, got \(step)")
                return
            }
            #expect(result.account.username == email)
        }
    }

    @Test("without the capabilities the sign-in fails with browserRequired")
    func browserRequired() async throws {
        try await Self.environment { server, _ in
            let email = SDKTest.email("no-cap")
            _ = try server.createUser(email: email, password: Self.password)
            let plain = try server.makeClient()
            do {
                _ = try await plain.signIn(username: email, password: Self.password)
                Issue.record("signed in without a second factor")
            } catch let error as LatchError {
                #expect(error.code == .browserRequired)
            }
        }
    }

    @Test("MFA after the sign-in that follows a sign-up, and after the one that follows a reset")
    func afterSignUpAndReset() async throws {
        try await Self.environment { server, client in
            let email = SDKTest.email("after-signup")
            let codeStep = try SDKTest.codeRequired(try await client.signUp(username: email, password: Self.password))
            let created = try SDKTest.accountCreated(
                try await codeStep.submitCode(try #require(try server.latestCode(to: email))))
            _ = try Self.registration(try await created.signIn())

            let other = SDKTest.email("after-reset")
            let user = try server.createUser(email: other, password: Self.password)
            try Self.addMethod(.email, "backup-\(user.id.prefix(6))@example.org", to: user, in: server)
            let reset = try SDKTest.codeRequired(try await client.resetPassword(username: other))
            let newPassword = try SDKTest.passwordRequired(
                try await reset.submitCode(try #require(try server.latestCode(to: other))))
            let done = try SDKTest.passwordReset(try await newPassword.submitPassword("Lantern-Quartz-Meadow-94"))
            _ = try Self.awaitingMFA(try await done.signIn())
        }
    }

    @Test("a conditional-access claims challenge on refresh, then a native step-up, then the refresh passes")
    func claimsChallengeThenStepUp() async throws {
        try await Self.environment(policy: .conditional) { server, client in
            try server.updateTenant { $0.mfa.rules = [ConditionalAccessRule(scopes: ["files.write"], maxAgeSeconds: 600)] }
            let email = SDKTest.email("step-e2e")
            let user = try server.createUser(email: email, password: Self.password)
            try Self.addMethod(.email, "token-\(user.id.prefix(6))@example.org", to: user, in: server)
            let target = "token-\(user.id.prefix(6))@example.org"
            let state = try Self.awaitingMFA(
                try await client.signIn(username: email, password: Self.password, scopes: ["files.write"]))
            let sent = try await state.requestChallenge(method: nil)
            let signedIn = try SDKTest.completed(try await sent.submitChallenge(try #require(try server.latestCode(to: target))))
            server.clock.advance(by: 3601)  // the access token and the rule's max age both pass
            var claims: String?
            do {
                _ = try await client.acquireTokenSilent(scopes: ["files.write"], account: signedIn.account)
                Issue.record("the refresh passed without a recent second factor")
            } catch let error as LatchError {
                #expect(error.code == .interactionRequired)
                claims = error.claimsChallenge
            }
            #expect(try await client.isSignedIn)
            let stepUp = try Self.awaitingMFA(
                try await client.stepUp(account: signedIn.account, claims: try #require(claims), scopes: ["files.write"]))
            let again = try await stepUp.requestChallenge(method: nil)
            let raised = try SDKTest.completed(try await again.submitChallenge(try #require(try server.latestCode(to: target))))
            #expect(raised.account.id == signedIn.account.id)
            let silent = try await client.acquireTokenSilent(scopes: ["files.write"], account: raised.account, forceRefresh: true)
            #expect(silent.scopes.contains("files.write"))
        }
    }

    @Test("declined scopes: serverDeclinedScopes with both lists; the granted ones are served silently")
    func declinedScopes() async throws {
        try await Self.environment(policy: .off) { server, _ in
            let tenant = try server.app.services.directory.tenant(named: "default")
            _ = try server.app.services.admin.createClient(
                tenant: tenant, id: "files-app", name: "Files", allowedScopes: ["files.read"])
            let client = try server.makeClient(clientID: "files-app")
            let email = SDKTest.email("declined")
            _ = try server.createUser(email: email, password: Self.password)
            do {
                _ = try await client.signIn(username: email, password: Self.password, scopes: ["files.read", "files.admin"])
                Issue.record("no declined-scopes error")
            } catch let error as LatchError {
                #expect(error.code == .serverDeclinedScopes)
                #expect(error.declinedScopes == ["files.admin"])
                #expect(error.grantedScopes.contains("files.read"))
            }
            let account = try #require(await client.currentAccount)
            let silent = try await client.acquireTokenSilent(scopes: ["files.read"], account: account)
            #expect(silent.scopes.contains("files.read"))
        }
    }
}

extension MFAEndToEndTests {
    @Test("protection policy: serverProtectionPoliciesRequired naming it; the app's requestHeaders satisfy it")
    func protectionPolicy() async throws {
        try await Self.environment(policy: .off) { server, _ in
            let tenant = try server.app.services.directory.tenant(named: "default")
            _ = try server.app.services.admin.createClient(
                tenant: tenant, id: "attested-app", name: "Attested", attestationKeyIDs: ["device-key-7"])
            let email = SDKTest.email("attested")
            _ = try server.createUser(email: email, password: Self.password)
            let plain = try server.makeClient(clientID: "attested-app")
            do {
                _ = try await plain.signIn(username: email, password: Self.password)
                Issue.record("signed in without attestation")
            } catch let error as LatchError {
                #expect(error.code == .serverProtectionPoliciesRequired)
                #expect(error.recovery == .satisfyProtectionPolicy(name: "app_attestation"))
            }
            let attested = try server.makeClient(clientID: "attested-app") { configuration in
                configuration.requestHeaders = { ["Latch-App-Attestation": "device-key-7"] }
            }
            _ = try SDKTest.completed(try await attested.signIn(username: email, password: Self.password))
        }
    }
}
