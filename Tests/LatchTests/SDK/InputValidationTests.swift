import Foundation
import LatchServer
import LatchTesting
import Testing

@testable import Latch

/// Errors raised before any request: the transport and the server see nothing.
@Suite("SDK input checks before any request")
struct InputValidationTests {
    enum Call: String, CaseIterable, CustomTestStringConvertible {
        case signUpEmptyUsername, signUpBlankUsername, signUpNotAnEmail, signUpNoDomainDot, signUpEmptyPassword
        case signInEmptyUsername, signInNotAnEmail, signInEmptyPassword, resetEmptyUsername, resetNotAnEmail

        var testDescription: String { rawValue }

        var expected: LatchError.Code {
            switch self {
            case .signUpNotAnEmail, .signUpNoDomainDot, .signInNotAnEmail, .resetNotAnEmail: .invalidEmail
            default: .missingInput
            }
        }

        func run(_ client: LatchClient, correlationID id: UUID) async throws {
            switch self {
            case .signUpEmptyUsername: _ = try await client.signUp(username: "", password: SDKTest.password, correlationID: id)
            case .signUpBlankUsername: _ = try await client.signUp(username: "  \n ", correlationID: id)
            case .signUpNotAnEmail:
                _ = try await client.signUp(username: "not-an-email", password: SDKTest.password, correlationID: id)
            case .signUpNoDomainDot: _ = try await client.signUp(username: "ada@localhost", correlationID: id)
            case .signUpEmptyPassword: _ = try await client.signUp(username: "ada@example.com", password: "", correlationID: id)
            case .signInEmptyUsername: _ = try await client.signIn(username: "", correlationID: id)
            case .signInNotAnEmail:
                _ = try await client.signIn(username: "not-an-email", password: SDKTest.password, correlationID: id)
            case .signInEmptyPassword: _ = try await client.signIn(username: "ada@example.com", password: "", correlationID: id)
            case .resetEmptyUsername: _ = try await client.resetPassword(username: "", correlationID: id)
            case .resetNotAnEmail: _ = try await client.resetPassword(username: "ada example.com", correlationID: id)
            }
        }
    }

    @Test("start calls", arguments: Call.allCases)
    func startCalls(_ call: Call) async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let id = UUID()
        let error = try await #require(throws: LatchError.self) { try await call.run(try env.client(), correlationID: id) }
        SDKTest.expect(
            error, call.expected, status: nil, oauthError: nil, recovery: .correctInput, correlation: .flow(id))
        #expect(env.recorder.count == 0)
        #expect(env.server.faults.requests().isEmpty)
    }

    @Test("empty code, password and attributes on flow states")
    func flowStates() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let client = try env.client()
        let email = SDKTest.email("states")
        try env.server.createUser(email: email, password: SDKTest.password)
        let codeOnly = SDKTest.email("codeonly")
        try env.server.createUser(email: codeOnly, password: nil)

        let signUp = try SDKTest.codeRequired(try await client.signUp(username: SDKTest.email("new")))
        let passwordState = try SDKTest.passwordRequired(try await client.signIn(username: email))
        let codeState = try SDKTest.codeRequired(try await client.signIn(username: codeOnly))
        let reset = try SDKTest.codeRequired(try await client.resetPassword(username: email))
        let resetPassword = try SDKTest.passwordRequired(try await reset.submitCode(try env.code(to: email)))

        let before = env.recorder.count
        let serverBefore = env.server.faults.requests().count
        let calls: [(String, UUID, () async throws -> Void)] = [
            ("sign-up code", signUp.correlationID, { _ = try await signUp.submitCode("") }),
            ("sign-up blank code", signUp.correlationID, { _ = try await signUp.submitCode("   ") }),
            ("sign-in password", passwordState.correlationID, { _ = try await passwordState.submitPassword("") }),
            ("sign-in code", codeState.correlationID, { _ = try await codeState.submitCode("") }),
            ("reset code", reset.correlationID, { _ = try await reset.submitCode("\n") }),
            ("reset password", resetPassword.correlationID, { _ = try await resetPassword.submitPassword("") }),
        ]
        for (name, flow, call) in calls {
            let error = try await #require(throws: LatchError.self, "\(name)") { try await call() }
            SDKTest.expect(
                error, .missingInput, status: nil, oauthError: nil, recovery: .correctInput, correlation: .flow(flow))
        }
        #expect(Set(calls.map(\.1)).count == 4, "each flow has its own correlation id")
        #expect(resetPassword.correlationID == reset.correlationID, "a flow's states share its correlation id")
        #expect(env.recorder.count == before)
        #expect(env.server.faults.requests().count == serverBefore)
    }

    @Test("empty password and attributes on sign-up states")
    func signUpStates() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        var settings = TenantSettings()
        settings.requiredAttributes = [AttributeDefinition(name: "displayName")]
        try env.server.createTenant("inputs", settings: settings)
        let client = try env.client(tenant: "inputs")
        let email = SDKTest.email("inputs")

        let state = try SDKTest.codeRequired(try await client.signUp(username: email))
        let passwordState = try SDKTest.passwordRequired(try await state.submitCode(try env.code(to: email, tenant: "inputs")))
        let before = env.recorder.count
        let empty = try await #require(throws: LatchError.self) { try await passwordState.submitPassword("") }
        SDKTest.expect(
            empty, .missingInput, status: nil, oauthError: nil, recovery: .correctInput,
            correlation: .flow(passwordState.correlationID))
        #expect(env.recorder.count == before)

        let (attributesState, _) = try SDKTest.attributesRequired(try await passwordState.submitPassword(SDKTest.password))
        let beforeAttributes = env.recorder.count
        let none = try await #require(throws: LatchError.self) { try await attributesState.submitAttributes([:]) }
        SDKTest.expect(
            none, .missingInput, status: nil, oauthError: nil, recovery: .correctInput,
            correlation: .flow(attributesState.correlationID))
        #expect(attributesState.correlationID == state.correlationID)
        #expect(env.recorder.count == beforeAttributes)
    }
}
