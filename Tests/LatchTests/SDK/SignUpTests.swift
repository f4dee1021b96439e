import Foundation
import LatchServer
import LatchTesting
import LatchWire
import Testing

@testable import Latch

/// Sign-up against a real server: password and code, code only, password later, attributes.
@Suite("SDK sign-up")
struct SignUpTests {
    @Test("password + code: completed, then signIn gives tokens for the new account")
    func passwordAndCode() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let client = try env.client()
        let email = SDKTest.email("ada")

        let state = try SDKTest.codeRequired(
            try await client.signUp(username: "  \(email.uppercased()) ", password: SDKTest.password))
        #expect(state.username == email)
        #expect(state.delivery.channel == .email)
        #expect(state.delivery.codeLength == 8)
        #expect(!state.delivery.sentTo.isEmpty && state.delivery.sentTo != email)

        let after = try SDKTest.accountCreated(try await state.submitCode(try env.code(to: email)))
        #expect(after.username == email)
        let result = try SDKTest.completed(try await after.signIn())
        let user = try #require(
            try env.server.app.services.admin.users(tenant: env.server.app.services.admin.tenant(named: "default"))
                .first { $0.email == email })
        #expect(result.account.id == user.id)
        #expect(result.account.username == email)
        #expect(result.account.tenant == "default")
        #expect(result.account.claims?.email == email)
        #expect(result.account.claims?.subject == user.id)
        #expect(result.account.claims?.emailVerified == true)
        #expect(result.account.sessionState == .signedIn)
        #expect(!result.accessToken.isEmpty)
        #expect(result.idToken != nil)
        #expect(result.expiresOn == env.server.clock.now().addingTimeInterval(3600))
        #expect(Set(result.scopes) == ["openid", "offline_access"])
        #expect(user.passwordHash != nil)

        // The account is stored and the password works.
        #expect(try await client.accounts().map(\.id) == [user.id])
        #expect(try await client.account(username: email.uppercased())?.id == user.id)
        let again = try SDKTest.completed(try await client.signIn(username: email, password: SDKTest.password))
        #expect(again.account.id == user.id)
    }

    @Test("code only (challengeTypes [.oob]): no password is asked; later sign-ins use a code")
    func codeOnly() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let client = try env.client(challengeTypes: [.oob])
        let email = SDKTest.email("codeonly")

        let state = try SDKTest.codeRequired(try await client.signUp(username: email))
        let result = try SDKTest.completed(
            try await SDKTest.accountCreated(try await state.submitCode(try env.code(to: email))).signIn())
        #expect(result.account.username == email)
        #expect(result.account.claims?.authenticationMethods == ["otp"])

        let signIn = try SDKTest.codeRequired(try await client.signIn(username: email))
        #expect(signIn.delivery.codeLength == 8)
        let second = try SDKTest.completed(try await signIn.submitCode(try env.code(to: email)))
        #expect(second.account.id == result.account.id)

        // A password-capable client is still sent a code: the account has no password.
        let both = try env.client()
        _ = try SDKTest.codeRequired(try await both.signIn(username: email))
        // Even when the app offers a password, the server's choice (a code) is returned.
        _ = try SDKTest.codeRequired(try await both.signIn(username: email, password: SDKTest.password))
    }

    @Test("password later: credential_required becomes .passwordRequired; the password then works")
    func passwordLater() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let client = try env.client()
        let email = SDKTest.email("later")

        let state = try SDKTest.codeRequired(try await client.signUp(username: email))
        let passwordState = try SDKTest.passwordRequired(try await state.submitCode(try env.code(to: email)))
        #expect(passwordState.username == email)

        // A weak password leaves the state usable.
        let weak = try await #require(throws: LatchError.self) { try await passwordState.submitPassword("short") }
        SDKTest.expect(
            weak, .weakPassword, status: 400, oauthError: "invalid_grant", suberror: "password_too_short",
            serverErrorCodes: [ServerErrorCode.weakPassword], recovery: .correctInput, correlation: .lastRequest(env.recorder))

        let result = try SDKTest.completed(
            try await SDKTest.accountCreated(try await passwordState.submitPassword(SDKTest.password)).signIn())
        #expect(result.account.username == email)
        let signIn = try SDKTest.completed(try await client.signIn(username: email, password: SDKTest.password))
        #expect(signIn.account.id == result.account.id)
    }

    @Test("required attributes: .attributesRequired lists them; submitAttributes completes; invalid ones are named")
    func attributes() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        var settings = TenantSettings()
        settings.requiredAttributes = [
            AttributeDefinition(name: "displayName"), AttributeDefinition(name: "city", regex: "[A-Za-z ]+"),
        ]
        try env.server.createTenant("attrs", settings: settings)
        let client = try env.client(tenant: "attrs")
        let email = SDKTest.email("attrs")

        let state = try SDKTest.codeRequired(try await client.signUp(username: email, password: SDKTest.password))
        let (attributesState, required) = try SDKTest.attributesRequired(
            try await state.submitCode(try env.code(to: email, tenant: "attrs")))
        #expect(
            required == [
                LatchRequiredAttribute(name: "displayName", type: "string", isRequired: true),
                LatchRequiredAttribute(name: "city", type: "string", isRequired: true, regex: "[A-Za-z ]+"),
            ])

        let invalid = try await #require(throws: LatchError.self) {
            try await attributesState.submitAttributes(["displayName": "Ada", "city": "12345"])
        }
        SDKTest.expect(
            invalid, .invalidAttributes, status: 400, oauthError: "invalid_grant", suberror: "attribute_validation_failed",
            serverErrorCodes: [ServerErrorCode.invalidRequestParameter], recovery: .correctInput,
            correlation: .lastRequest(env.recorder))
        #expect(invalid.invalidAttributes == ["city"])
        #expect((invalid as NSError).userInfo[LatchError.UserInfoKey.invalidAttributes] as? [String] == ["city"])

        // Submitting only some asks again for the rest.
        let (rest, stillRequired) = try SDKTest.attributesRequired(
            try await attributesState.submitAttributes(["displayName": "Ada Lovelace"]))
        #expect(stillRequired.map(\.name) == ["city"])
        let result = try SDKTest.completed(
            try await SDKTest.accountCreated(try await rest.submitAttributes(["city": "London"])).signIn())
        #expect(result.account.claims?.name == "Ada Lovelace")
        #expect(result.account.tenant == "attrs")
    }

    @Test("attributes given at start skip the attributes step")
    func attributesAtStart() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        var settings = TenantSettings()
        settings.requiredAttributes = [AttributeDefinition(name: "displayName")]
        try env.server.createTenant("attrs2", settings: settings)
        let client = try env.client(tenant: "attrs2")
        let email = SDKTest.email("start")
        let state = try SDKTest.codeRequired(
            try await client.signUp(username: email, password: SDKTest.password, attributes: ["displayName": "Grace"]))
        let result = try SDKTest.completed(
            try await SDKTest.accountCreated(try await state.submitCode(try env.code(to: email, tenant: "attrs2"))).signIn())
        #expect(result.account.claims?.name == "Grace")
    }
}
