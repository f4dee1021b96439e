import Foundation
import LatchServer
import LatchTesting
import Testing

/// A flow that proves the address with an e-mailed code.
enum NativeCodeFlow: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case signUp, signIn, passwordReset

    var testDescription: String { rawValue }

    /// Starts the flow for `email` and sends the first code; returns the token the code goes with.
    func begin(_ auth: NativeAuthFlows, _ email: String) async throws -> String {
        let start: NativeReply
        switch self {
        case .signUp:
            start = try await auth.signUpStart(email, challengeType: "oob redirect")
        case .signIn:
            try auth.server.createUser(email: email, password: nil, tenant: auth.tenant)
            start = try await auth.initiate(email, challengeType: "oob redirect")
        case .passwordReset:
            try auth.server.createUser(email: email, password: NativeAuthFixture.password, tenant: auth.tenant)
            start = try await auth.resetStart(email)
        }
        try auth.expectOK(start)
        let challenge = try await resend(auth, try #require(start.continuationToken))
        try auth.expectOK(challenge)
        #expect(challenge.string("challenge_type") == "oob")
        return try #require(challenge.continuationToken)
    }

    /// Calls the flow's challenge endpoint again ("resend code").
    func resend(_ auth: NativeAuthFlows, _ token: String) async throws -> NativeReply {
        switch self {
        case .signUp: try await auth.signUpChallenge(token, challengeType: "oob redirect")
        case .signIn: try await auth.challenge(token, challengeType: "oob redirect")
        case .passwordReset: try await auth.resetChallenge(token)
        }
    }

    /// Submits `code`.
    func submit(_ auth: NativeAuthFlows, _ token: String, _ code: String) async throws -> NativeReply {
        switch self {
        case .signUp: try await auth.signUpContinue(token, grantType: "oob", oob: code)
        case .signIn: try await auth.token(grantType: "oob", continuationToken: token, oob: code)
        case .passwordReset: try await auth.resetContinue(token, oob: code)
        }
    }
}

@Suite("Native auth: one-time codes")
struct NativeAuthOneTimeCodeTests {
    /// A code that differs from `code` in every digit.
    static func wrong(_ code: String) -> String {
        String(code.map { $0 == "9" ? "0" : Character(String(($0.wholeNumberValue ?? 0) + 1)) })
    }

    @Test("wrong code: invalid_grant invalid_oob_value 50181; the right one then works", arguments: NativeCodeFlow.allCases)
    func wrongCode(flow: NativeCodeFlow) async throws {
        try await withNativeAuthServer { auth in
            let email = "wrong-\(flow.rawValue.lowercased())@example.com"
            let token = try await flow.begin(auth, email)
            let code = try auth.code(for: email)
            let reply = try await flow.submit(auth, token, Self.wrong(code))
            auth.expectError(reply, error: "invalid_grant", suberror: "invalid_oob_value", codes: [50181])
            #expect(reply.errorDescription == "The code is incorrect.")
            let tooLong = try await flow.submit(auth, token, String(repeating: "1", count: 33))
            auth.expectError(tooLong, error: "invalid_grant", suberror: "invalid_oob_value", codes: [50181])
            let empty = try await flow.submit(auth, token, "")
            auth.expectError(empty, error: "invalid_request", codes: [90100])
            try auth.expectOK(try await flow.submit(auth, token, code))
        }
    }

    @Test("a code is bound to its flow: another flow's code for the same address is refused", arguments: NativeCodeFlow.allCases)
    func codeFromAnotherFlow(flow: NativeCodeFlow) async throws {
        try await withNativeAuthServer { auth in
            let email = "twice-\(flow.rawValue.lowercased())@example.com"
            let first = try await flow.begin(auth, email)
            let firstCode = try auth.code(for: email)
            // A second, parallel flow for the same address (the account exists now for sign-in and reset).
            let restart: NativeReply
            switch flow {
            case .signUp: restart = try await auth.signUpStart(email, challengeType: "oob redirect")
            case .signIn: restart = try await auth.initiate(email, challengeType: "oob redirect")
            case .passwordReset: restart = try await auth.resetStart(email)
            }
            let restartToken = try #require(restart.continuationToken)
            let resent = try await flow.resend(auth, restartToken)
            let second = try #require(resent.continuationToken)
            let secondCode = try auth.code(for: email)
            try #require(secondCode != firstCode, "two random codes collided; rerun")
            let crossed = try await flow.submit(auth, second, firstCode)
            auth.expectError(crossed, error: "invalid_grant", suberror: "invalid_oob_value", codes: [50181])
            // Each flow keeps its own code.
            try auth.expectOK(try await flow.submit(auth, first, firstCode))
            if flow != .signUp { try auth.expectOK(try await flow.submit(auth, second, secondCode)) }
        }
    }

    @Test("resend: a new code and token; the old code and the old token are refused", arguments: NativeCodeFlow.allCases)
    func resendCode(flow: NativeCodeFlow) async throws {
        try await withNativeAuthServer { auth in
            let email = "resend-\(flow.rawValue.lowercased())@example.com"
            let first = try await flow.begin(auth, email)
            let oldCode = try auth.code(for: email)
            let again = try await flow.resend(auth, first)
            try auth.expectOK(again)
            #expect(again.string("challenge_type") == "oob")
            let second = try #require(again.continuationToken)
            #expect(second != first)
            #expect(try auth.messageCount(to: email) == 2)
            let newCode = try auth.code(for: email)
            try #require(newCode != oldCode, "two random codes collided; rerun")

            let stale = try await flow.submit(auth, second, oldCode)
            auth.expectError(stale, error: "invalid_grant", suberror: "invalid_oob_value", codes: [50181])
            let oldToken = try await flow.submit(auth, first, newCode)
            auth.expectError(oldToken, error: "invalid_grant", codes: [55200])
            try auth.expectOK(try await flow.submit(auth, second, newCode))
        }
    }

    @Test(
        "code older than the default 600 s: the flow's token has expired too (expired_token 552003)",
        arguments: NativeCodeFlow.allCases)
    func expiredWithDefaultLifetimes(flow: NativeCodeFlow) async throws {
        try await withNativeAuthServer { auth in
            let email = "late-\(flow.rawValue.lowercased())@example.com"
            let token = try await flow.begin(auth, email)
            let code = try auth.code(for: email)
            auth.server.clock.advance(by: 601)
            let reply = try await flow.submit(auth, token, code)
            auth.expectError(reply, error: "expired_token", codes: [552_003])
        }
    }

    @Test("code past its own lifetime: invalid_oob_value 552003; a resent code works", arguments: NativeCodeFlow.allCases)
    func expiredCode(flow: NativeCodeFlow) async throws {
        try await withNativeAuthServer { auth in
            var settings = TenantSettings()
            settings.codeLifetime = 60
            try auth.server.createTenant("short", settings: settings)
            let short = auth.client(tenant: "short")
            let email = "expired-\(flow.rawValue.lowercased())@example.com"
            let token = try await flow.begin(short, email)
            let code = try short.code(for: email)
            auth.server.clock.advance(by: 61)
            let reply = try await flow.submit(short, token, code)
            short.expectError(reply, error: "invalid_grant", suberror: "invalid_oob_value", codes: [552_003])
            #expect(reply.errorDescription == "The code expired; request a new one.")

            let again = try await flow.resend(short, token)
            try short.expectOK(again)
            try short.expectOK(try await flow.submit(short, try #require(again.continuationToken), try short.code(for: email)))
        }
    }

    @Test(
        "five wrong codes burn the code: 9000001 from the fifth on, even for the right code", arguments: NativeCodeFlow.allCases)
    func tooManyAttempts(flow: NativeCodeFlow) async throws {
        try await withNativeAuthServer { auth in
            let email = "attempts-\(flow.rawValue.lowercased())@example.com"
            let token = try await flow.begin(auth, email)
            let code = try auth.code(for: email)
            let wrong = Self.wrong(code)
            for attempt in 1...4 {
                let reply = try await flow.submit(auth, token, wrong)
                auth.expectError(reply, error: "invalid_grant", suberror: "invalid_oob_value", codes: [50181])
                #expect(reply.status == 400, "attempt \(attempt)")
            }
            for _ in 5...6 {
                let reply = try await flow.submit(auth, token, wrong)
                auth.expectError(reply, error: "invalid_grant", suberror: "invalid_oob_value", codes: [9_000_001])
            }
            let right = try await flow.submit(auth, token, code)
            auth.expectError(right, error: "invalid_grant", suberror: "invalid_oob_value", codes: [9_000_001])
            #expect(right.errorDescription == "The code was entered wrongly too many times; request a new one.")

            // A resent code starts a fresh count.
            let again = try await flow.resend(auth, token)
            try auth.expectOK(again)
            try auth.expectOK(try await flow.submit(auth, try #require(again.continuationToken), try auth.code(for: email)))
        }
    }
}
