import Foundation
import LatchServer
import LatchTesting
import LatchWire
import Testing

@testable import Latch

/// Sign-in and password reset against a real server.
@Suite("SDK sign-in and password reset")
struct SignInTests {
    @Test("with a password: .completed with the account's tokens")
    func password() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let client = try env.client()
        let email = SDKTest.email("pw")
        let user = try env.server.createUser(email: email, password: SDKTest.password)

        let result = try SDKTest.completed(try await client.signIn(username: email, password: SDKTest.password))
        #expect(result.account.id == user.id)
        #expect(result.account.username == email)
        #expect(result.account.claims?.email == email)
        #expect(result.account.claims?.authenticationMethods == ["pwd"])
        #expect(result.account.sessionState == .signedIn)
        #expect(result.expiresOn == env.server.clock.now().addingTimeInterval(3600))
        #expect(
            env.recorder.requests.map(\.path) == [
                "/default/oauth2/v2.0/initiate", "/default/oauth2/v2.0/challenge", "/default/oauth2/v2.0/token",
            ])
    }

    @Test("without a password: .passwordRequired, then submitPassword")
    func passwordLater() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let client = try env.client()
        let email = SDKTest.email("later")
        try env.server.createUser(email: email, password: SDKTest.password)

        let state = try SDKTest.passwordRequired(try await client.signIn(username: email))
        #expect(state.username == email)
        let result = try SDKTest.completed(try await state.submitPassword(SDKTest.password))
        #expect(result.account.username == email)
    }

    @Test("code-only account: .codeRequired, then submitCode; resendCode voids the old code")
    func code() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let client = try env.client()
        let email = SDKTest.email("code")
        let user = try env.server.createUser(email: email, password: nil)

        let state = try SDKTest.codeRequired(try await client.signIn(username: email))
        #expect(state.username == email)
        let first = try env.code(to: email)
        let resent = try await state.resendCode()
        let second = try env.code(to: email)
        if first != second {
            let stale = try await #require(throws: LatchError.self) { try await resent.submitCode(first) }
            #expect(stale.code == .invalidCode)
        }
        let result = try SDKTest.completed(try await resent.submitCode(second))
        #expect(result.account.id == user.id)
        #expect(result.account.claims?.authenticationMethods == ["otp"])
    }

    @Test("wrong password 17009; the state stays usable and the right password then succeeds")
    func wrongPassword() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let client = try env.client()
        let email = SDKTest.email("wrong")
        try env.server.createUser(email: email, password: SDKTest.password)

        let direct = try await #require(throws: LatchError.self) {
            try await client.signIn(username: email, password: SDKTest.otherPassword)
        }
        SDKTest.expect(
            direct, .wrongPassword, status: 400, oauthError: "invalid_grant",
            serverErrorCodes: [ServerErrorCode.invalidCredentials], recovery: .correctInput,
            correlation: .lastRequest(env.recorder))

        let state = try SDKTest.passwordRequired(try await client.signIn(username: email))
        let wrong = try await #require(throws: LatchError.self) { try await state.submitPassword(SDKTest.otherPassword) }
        SDKTest.expect(
            wrong, .wrongPassword, status: 400, oauthError: "invalid_grant",
            serverErrorCodes: [ServerErrorCode.invalidCredentials], recovery: .correctInput,
            correlation: .lastRequest(env.recorder))
        #expect(wrong.failureReason?.isEmpty == false)
        let result = try SDKTest.completed(try await state.submitPassword(SDKTest.password))
        #expect(result.account.username == email)

        // The state is consumed by the success: using it again is an invalid flow state.
        let reused = try await #require(throws: LatchError.self) { try await state.submitPassword(SDKTest.password) }
        SDKTest.expect(
            reused, .invalidFlowState, status: 400, oauthError: "invalid_grant",
            serverErrorCodes: [ServerErrorCode.invalidContinuationToken], recovery: .restartFlow,
            correlation: .lastRequest(env.recorder))
    }

    @Test("unknown user 17011 on sign-in and on password reset")
    func userNotFound() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let client = try env.client()
        let email = SDKTest.email("nobody")
        for attempt in 0..<2 {
            let error = try await #require(throws: LatchError.self) {
                if attempt == 0 {
                    _ = try await client.signIn(username: email, password: SDKTest.password)
                } else {
                    _ = try await client.resetPassword(username: email)
                }
            }
            SDKTest.expect(
                error, .userNotFound, status: 400, oauthError: "user_not_found",
                serverErrorCodes: [ServerErrorCode.userNotFound], recovery: .signUpInstead,
                correlation: .lastRequest(env.recorder))
        }
        #expect(env.recorder.count == 2)
    }

    @Test("reset password: code, new password, signIn; the new password works and the old one no longer does")
    func resetPassword() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let client = try env.client()
        let email = SDKTest.email("reset")
        let user = try env.server.createUser(email: email, password: SDKTest.password)

        let state = try SDKTest.codeRequired(try await client.resetPassword(username: email))
        #expect(state.username == email)
        #expect(state.delivery.codeLength == 8)
        let passwordState = try SDKTest.passwordRequired(try await state.submitCode(try env.code(to: email)))

        let weak = try await #require(throws: LatchError.self) { try await passwordState.submitPassword("12345678") }
        SDKTest.expect(
            weak, .weakPassword, status: 400, oauthError: "invalid_grant", suberror: "password_banned",
            serverErrorCodes: [ServerErrorCode.weakPassword], recovery: .correctInput,
            correlation: .lastRequest(env.recorder))

        let after = try SDKTest.passwordReset(try await passwordState.submitPassword(SDKTest.otherPassword))
        #expect(after.username == email)
        let result = try SDKTest.completed(try await after.signIn())
        #expect(result.account.id == user.id)
        #expect(Set(result.account.claims?.authenticationMethods ?? []) == ["otp", "pwd"])

        _ = try SDKTest.completed(try await client.signIn(username: email, password: SDKTest.otherPassword))
        let old = try await #require(throws: LatchError.self) {
            try await client.signIn(username: email, password: SDKTest.password)
        }
        #expect(old.code == .wrongPassword)
    }

    @Test("catch LatchError.Code.x matches by code")
    func catchByCode() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let client = try env.client()
        do {
            _ = try await client.signIn(username: SDKTest.email("nobody"))
            Issue.record("sign-in of an unknown user succeeded")
        } catch LatchError.Code.userNotFound {
            // expected
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }
}
