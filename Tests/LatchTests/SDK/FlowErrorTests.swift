import Foundation
import LatchServer
import LatchTesting
import LatchWire
import Testing

@testable import Latch

/// Every flow failure the server can produce, checked field by field as the SDK reports it.
@Suite("SDK flow errors")
struct FlowErrorTests {
    @Test("user already exists 17007")
    func userAlreadyExists() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let email = SDKTest.email("exists")
        try env.server.createUser(email: email, password: SDKTest.password)
        let error = try await #require(throws: LatchError.self) {
            try await env.client().signUp(username: email, password: SDKTest.otherPassword)
        }
        SDKTest.expect(
            error, .userAlreadyExists, status: 400, oauthError: "user_already_exists",
            serverErrorCodes: [ServerErrorCode.userAlreadyExists], recovery: .signInInstead,
            correlation: .lastRequest(env.recorder))
    }

    @Test("weak password 17026 names the rule: password_too_short, password_banned")
    func weakPassword() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let client = try env.client()
        for (password, suberror) in [("abc12", "password_too_short"), ("12345678", "password_banned")] {
            let error = try await #require(throws: LatchError.self) {
                try await client.signUp(username: SDKTest.email("weak"), password: password)
            }
            SDKTest.expect(
                error, .weakPassword, status: 400, oauthError: "invalid_grant", suberror: suberror,
                serverErrorCodes: [ServerErrorCode.weakPassword], recovery: .correctInput,
                correlation: .lastRequest(env.recorder))
            #expect(error.failureReason?.isEmpty == false)
            #expect((error as NSError).userInfo[LatchError.UserInfoKey.suberror] as? String == suberror)
        }
    }

    @Test("invalid code 17044; the state stays usable and the right code then works")
    func invalidCode() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let email = SDKTest.email("badcode")
        let state = try SDKTest.codeRequired(try await env.client().signUp(username: email, password: SDKTest.password))
        let code = try env.code(to: email)
        let error = try await #require(throws: LatchError.self) { try await state.submitCode(Self.wrong(code)) }
        SDKTest.expect(
            error, .invalidCode, status: 400, oauthError: "invalid_grant", suberror: "invalid_oob_value",
            serverErrorCodes: [ServerErrorCode.invalidCode], recovery: .correctInput,
            correlation: .lastRequest(env.recorder))
        _ = try SDKTest.accountCreated(try await state.submitCode(code))
    }

    @Test("code expired 19002 after the tenant's code lifetime; resendCode gives a working code")
    func codeExpired() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        var settings = TenantSettings()
        settings.codeLifetime = 60
        try env.server.createTenant("shortcode", settings: settings)
        let email = SDKTest.email("expired")
        let state = try SDKTest.codeRequired(
            try await env.client(tenant: "shortcode").signUp(username: email, password: SDKTest.password))
        let code = try env.code(to: email, tenant: "shortcode")
        env.server.clock.advance(by: 61)

        let error = try await #require(throws: LatchError.self) { try await state.submitCode(code) }
        SDKTest.expect(
            error, .codeExpired, status: 400, oauthError: "invalid_grant", suberror: "invalid_oob_value",
            serverErrorCodes: [ServerErrorCode.expired], recovery: .resendCode,
            correlation: .lastRequest(env.recorder))

        let resent = try await state.resendCode()
        _ = try SDKTest.accountCreated(try await resent.submitCode(try env.code(to: email, tenant: "shortcode")))
    }

    @Test("code attempts exceeded 19003 on the attempt that reaches the limit; even the right code is refused")
    func codeAttemptsExceeded() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let email = SDKTest.email("attempts")
        try env.server.createUser(email: email, password: nil)
        let state = try SDKTest.codeRequired(try await env.client().signIn(username: email))
        let code = try env.code(to: email)
        for _ in 1..<5 {
            let error = try await #require(throws: LatchError.self) { try await state.submitCode(Self.wrong(code)) }
            #expect(error.code == .invalidCode)
        }
        let exceeded = try await #require(throws: LatchError.self) { try await state.submitCode(Self.wrong(code)) }
        SDKTest.expect(
            exceeded, .codeAttemptsExceeded, status: 400, oauthError: "invalid_grant", suberror: "invalid_oob_value",
            serverErrorCodes: [ServerErrorCode.codeAttemptsExceeded], recovery: .resendCode,
            correlation: .lastRequest(env.recorder))
        let right = try await #require(throws: LatchError.self) { try await state.submitCode(code) }
        #expect(right.code == .codeAttemptsExceeded)

        let resent = try await state.resendCode()
        let result = try SDKTest.completed(try await resent.submitCode(try env.code(to: email)))
        #expect(result.account.username == email)
    }

    @Test("flow expired 19004 after the continuation-token lifetime")
    func flowExpired() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let email = SDKTest.email("flow")
        try env.server.createUser(email: email, password: SDKTest.password)
        let state = try SDKTest.passwordRequired(try await env.client().signIn(username: email))
        env.server.clock.advance(by: 601)
        let error = try await #require(throws: LatchError.self) { try await state.submitPassword(SDKTest.password) }
        SDKTest.expect(
            error, .flowExpired, status: 400, oauthError: "expired_token", serverErrorCodes: [ServerErrorCode.expired],
            recovery: .restartFlow, correlation: .lastRequest(env.recorder))
    }

    @Test("invalid flow state 19005: a consumed sign-up state cannot sign in twice")
    func invalidFlowState() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let email = SDKTest.email("consumed")
        let state = try SDKTest.codeRequired(try await env.client().signUp(username: email, password: SDKTest.password))
        let code = try env.code(to: email)
        let after = try SDKTest.accountCreated(try await state.submitCode(code))
        _ = try await after.signIn()

        let twice = try await #require(throws: LatchError.self) { try await after.signIn() }
        SDKTest.expect(
            twice, .invalidFlowState, status: 400, oauthError: "invalid_grant",
            serverErrorCodes: [ServerErrorCode.invalidContinuationToken], recovery: .restartFlow,
            correlation: .lastRequest(env.recorder))
        // The code state was consumed by the first submission too.
        let again = try await #require(throws: LatchError.self) { try await state.submitCode(code) }
        #expect(again.code == .invalidFlowState)
    }

    @Test("unknown client 19007")
    func unknownClient() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let error = try await #require(throws: LatchError.self) {
            try await env.client(clientID: "no-such-app").signIn(username: SDKTest.email("client"))
        }
        SDKTest.expect(
            error, .unknownClient, status: 400, oauthError: "unauthorized_client",
            serverErrorCodes: [ServerErrorCode.clientNotFound], recovery: .none, correlation: .lastRequest(env.recorder))
    }

    @Test("unknown tenant 19008")
    func unknownTenant() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let error = try await #require(throws: LatchError.self) {
            try await env.client(tenant: "no-such-tenant").signUp(username: SDKTest.email("tenant"))
        }
        SDKTest.expect(
            error, .unknownTenant, status: 400, oauthError: "invalid_request",
            serverErrorCodes: [ServerErrorCode.tenantNotFound], recovery: .none, correlation: .lastRequest(env.recorder))
    }

    @Test("browser required 19001: sign-up by a password-only client gets the redirect answer")
    func browserRequired() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let client = try env.client(challengeTypes: [.password])
        for reset in [false, true] {
            let error = try await #require(throws: LatchError.self) {
                if reset {
                    try env.server.createUser(email: "reset-browser@example.com", password: SDKTest.password)
                    _ = try await client.resetPassword(username: "reset-browser@example.com")
                } else {
                    _ = try await client.signUp(username: SDKTest.email("browser"), password: SDKTest.password)
                }
            }
            SDKTest.expect(
                error, .browserRequired, status: 200, oauthError: nil, recovery: .useBrowser,
                correlation: .lastRequest(env.recorder))
            #expect(error.failureReason?.isEmpty == false)
        }
    }

    @Test(
        "browser required 19001 from a challenge: code-only account, password-only client; code-only sign-up where passwords are required"
    )
    func browserRequiredElsewhere() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let email = SDKTest.email("nopassword")
        try env.server.createUser(email: email, password: nil)
        let challenge = try await #require(throws: LatchError.self) {
            try await env.client(challengeTypes: [.password]).signIn(username: email)
        }
        SDKTest.expect(
            challenge, .browserRequired, status: 200, oauthError: nil, recovery: .useBrowser,
            correlation: .lastRequest(env.recorder))
        #expect(env.recorder.requests.last?.path == "/default/oauth2/v2.0/challenge")

        var settings = TenantSettings()
        settings.passwordRequiredOnSignUp = true
        try env.server.createTenant("pwonly", settings: settings)
        let signUp = try await #require(throws: LatchError.self) {
            try await env.client(tenant: "pwonly", challengeTypes: [.oob]).signUp(username: SDKTest.email("pwonly"))
        }
        SDKTest.expect(
            signUp, .browserRequired, status: 200, oauthError: nil, recovery: .useBrowser,
            correlation: .lastRequest(env.recorder))
    }

    /// A code of the same length that is not `code`.
    static func wrong(_ code: String) -> String {
        String(code.map { $0 == "1" ? "2" : "1" })
    }
}
