import Foundation
import Latch
import LatchSDKTesting
import Testing

/// App test support with no server: a scripted transport that records requests, and preview
/// values for states and results.
@Suite struct ScriptedTransportTests {
    @Test func previewStatesAndResults() async throws {
        let code = try await LatchPreview.signInCodeRequired(username: "ada@example.com")
        #expect(code.username == "ada@example.com")
        #expect(code.delivery.codeLength == 8)
        #expect(code.delivery.sentTo == "a***@example.com")
        let password = try await LatchPreview.signInPasswordRequired()
        #expect(password.username == "ada@example.com")
        let signUp = try await LatchPreview.signUpCodeRequired(username: "grace@example.com")
        #expect(signUp.username == "grace@example.com")
        let tokens = try await LatchPreview.signedIn(username: "grace@example.com")
        #expect(tokens.account.username == "grace@example.com")
        #expect(tokens.expiresOn > Date())
    }

    @Test func scriptRecordsEveryRequestOfAFlow() async throws {
        let script = ScriptedTransport()
        let correlationID = UUID()
        script.respond(to: "/oauth2/v2.0/initiate", json: #"{"continuation_token":"ct-1"}"#)
        script.respond(to: "/oauth2/v2.0/challenge", with: LatchPreview.codeChallenge())
        script.respond(to: "/oauth2/v2.0/token", with: LatchPreview.tokenResponse(username: "ada@example.com"))
        let client = try LatchPreview.client(script)
        let step = try await client.signIn(username: "ada@example.com", correlationID: correlationID)
        guard case .codeRequired(let state) = step else {
            Issue.record("expected a code step, got \(step)")
            return
        }
        guard case .completed(let tokens) = try await state.submitCode("12345678") else {
            Issue.record("expected a finished sign-in")
            return
        }
        #expect(tokens.account.username == "ada@example.com")
        #expect(
            script.requests.map(\.path) == [
                "/default/oauth2/v2.0/initiate", "/default/oauth2/v2.0/challenge", "/default/oauth2/v2.0/token",
            ])
        #expect(script.requests(to: "/oauth2/v2.0/token").first?.form["oob"] == "12345678")
        #expect(script.requests(to: "/oauth2/v2.0/initiate").first?.form["username"] == "ada@example.com")
        #expect(Set(script.requests.compactMap(\.correlationID)) == [correlationID.uuidString.lowercased()])
        #expect(try await client.accounts().map(\.username) == ["ada@example.com"])
    }

    @Test func scriptedErrorsAndUnscriptedPaths() async throws {
        let script = ScriptedTransport()
        script.respond(to: "/oauth2/v2.0/initiate", with: .oauthError("user_not_found"))
        let client = try LatchPreview.client(script)
        let notFound = try await #require(throws: LatchError.self) { try await client.signIn(username: "ada@example.com") }
        #expect(notFound.code == .userNotFound)

        let empty = try LatchPreview.client(ScriptedTransport())
        let offline = try await #require(throws: LatchError.self) { try await empty.signIn(username: "ada@example.com") }
        #expect(offline.code == .networkError)
    }

    @Test func laterTokenRequestsAreAnsweredByTheScript() async throws {
        let script = ScriptedTransport()
        let tokens = try await LatchPreview.signedIn(username: "ada@example.com", script: script)
        let client = try LatchPreview.client(script)
        #expect(try await client.accounts().isEmpty, "each preview client has its own in-memory store")
        #expect(script.requests(to: "/oauth2/v2.0/token").count == 1)
        #expect(tokens.scopes == ["openid", "offline_access"])
    }

    @Test("preview values for the second steps: awaiting MFA with two methods, and a registration")
    func previewSecondSteps() async throws {
        let mfa = try await LatchPreview.awaitingMFA()
        #expect(mfa.authMethods.map(\.channel) == [.email, .sms])
        #expect(mfa.delivery == nil)
        let registration = try await LatchPreview.strongAuthMethodRegistration()
        #expect(registration.authMethods.map(\.channel) == [.email, .sms])
    }
}
