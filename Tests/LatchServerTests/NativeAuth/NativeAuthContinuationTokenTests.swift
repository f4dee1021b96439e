import Foundation
import LatchServer
import LatchTesting
import Testing

@Suite("Native auth: continuation tokens")
struct NativeAuthContinuationTokenTests {
    /// A finished sign-up's token, ready for the `continuation_token` grant.
    func finishedSignUp(_ auth: NativeAuthFlows, _ email: String) async throws -> String {
        let start = try await auth.signUpStart(email, password: NativeAuthFixture.password)
        try auth.expectOK(start)
        let challenge = try await auth.signUpChallenge(start.continuationToken)
        try auth.expectOK(challenge)
        let done = try await auth.signUpContinue(challenge.continuationToken, grantType: "oob", oob: try auth.code(for: email))
        try auth.expectOK(done)
        return try #require(done.continuationToken)
    }

    @Test("an advanced token is refused: invalid_grant 55200 at every step")
    func replayedTokens() async throws {
        try await withNativeAuthServer { auth in
            let email = "replay@example.com"
            let start = try await auth.signUpStart(email, password: NativeAuthFixture.password)
            let challenge = try await auth.signUpChallenge(start.continuationToken)
            try auth.expectOK(challenge)
            let replayedStart = try await auth.signUpChallenge(start.continuationToken)
            auth.expectError(replayedStart, error: "invalid_grant", codes: [55200])
            #expect(
                replayedStart.errorDescription
                    == "The continuation_token is not valid: it is unknown, was already used, or belongs to another client.")
            let code = try auth.code(for: email)
            let done = try await auth.signUpContinue(challenge.continuationToken, grantType: "oob", oob: code)
            try auth.expectOK(done)
            let replayedCode = try await auth.signUpContinue(challenge.continuationToken, grantType: "oob", oob: code)
            auth.expectError(replayedCode, error: "invalid_grant", codes: [55200])

            let grant = try await auth.token(grantType: "continuation_token", continuationToken: done.continuationToken)
            try auth.expectOK(grant)
            let replayedGrant = try await auth.token(grantType: "continuation_token", continuationToken: done.continuationToken)
            auth.expectError(replayedGrant, error: "invalid_grant", codes: [55200])
            #expect(replayedGrant.string("access_token") == nil)

            // Sign-in: the initiate token after the challenge, the challenge token after the grant.
            let initiate = try await auth.initiate(email)
            let passwordChallenge = try await auth.challenge(initiate.continuationToken)
            auth.expectError(try await auth.challenge(initiate.continuationToken), error: "invalid_grant", codes: [55200])
            try auth.expectOK(
                try await auth.token(
                    grantType: "password", continuationToken: passwordChallenge.continuationToken,
                    password: NativeAuthFixture.password))
            let again = try await auth.token(
                grantType: "password", continuationToken: passwordChallenge.continuationToken,
                password: NativeAuthFixture.password)
            auth.expectError(again, error: "invalid_grant", codes: [55200])
        }
    }

    @Test("concurrent use of one token: exactly one request wins")
    func concurrentUse() async throws {
        try await withNativeAuthServer { auth in
            let token = try await finishedSignUp(auth, "race@example.com")
            let replies = try await withThrowingTaskGroup(of: NativeReply.self) { group in
                for _ in 0..<6 {
                    group.addTask { try await auth.token(grantType: "continuation_token", continuationToken: token) }
                }
                return try await group.reduce(into: [NativeReply]()) { $0.append($1) }
            }
            #expect(replies.filter { $0.status == 200 }.count == 1)
            let losers = replies.filter { $0.status != 200 }
            #expect(losers.count == 5)
            for loser in losers { auth.expectError(loser, error: "invalid_grant", codes: [55200]) }
        }
    }

    @Test("expired token: expired_token 552003, at a step and at the token endpoint")
    func expiredTokens() async throws {
        try await withNativeAuthServer { auth in
            let start = try await auth.signUpStart("slow@example.com", password: NativeAuthFixture.password)
            let finished = try await finishedSignUp(auth, "slower@example.com")
            auth.server.clock.advance(by: 601)
            let step = try await auth.signUpChallenge(start.continuationToken)
            auth.expectError(step, error: "expired_token", codes: [552_003])
            #expect(step.errorDescription == "The continuation_token expired; start the flow again.")
            let grant = try await auth.token(grantType: "continuation_token", continuationToken: finished)
            auth.expectError(grant, error: "expired_token", codes: [552_003])
        }
    }

    @Test("a token is still valid one second before it expires")
    func tokenLifetimeBoundary() async throws {
        try await withNativeAuthServer { auth in
            let finished = try await finishedSignUp(auth, "edge@example.com")
            auth.server.clock.advance(by: 599)
            try auth.expectOK(try await auth.token(grantType: "continuation_token", continuationToken: finished))
        }
    }

    @Test("unknown, oversized, missing tokens")
    func malformedTokens() async throws {
        try await withNativeAuthServer { auth in
            for token in ["not-a-token", String(repeating: "A", count: 300), "%%%"] {
                let reply = try await auth.signUpChallenge(token)
                auth.expectError(reply, error: "invalid_grant", codes: [55200])
            }
            let missing = try await auth.signUpChallenge(nil)
            auth.expectError(missing, error: "invalid_request", codes: [90100])
            #expect(missing.errorDescription == "continuation_token parameter is empty or not valid")
            let missingGrant = try await auth.token(grantType: "continuation_token")
            auth.expectError(missingGrant, error: "invalid_request", codes: [90100])
        }
    }

    @Test("a token used by another registered client of the tenant: 55200, and it still works for its own")
    func otherClientSameTenant() async throws {
        try await withNativeAuthServer { auth in
            try auth.server.app.services.admin.createClient(tenant: try auth.tenantRecord(), id: "other-app", name: "Other")
            let other = auth.client(clientID: "other-app")
            let token = try await finishedSignUp(auth, "bound@example.com")
            let stolen = try await other.token(grantType: "continuation_token", continuationToken: token)
            other.expectError(stolen, error: "invalid_grant", codes: [55200])

            let start = try await auth.signUpStart("bound2@example.com", password: NativeAuthFixture.password)
            other.expectError(try await other.signUpChallenge(start.continuationToken), error: "invalid_grant", codes: [55200])

            try auth.expectOK(try await auth.token(grantType: "continuation_token", continuationToken: token))
            try auth.expectOK(try await auth.signUpChallenge(start.continuationToken))
        }
    }

    @Test("a token used in another tenant (same client id): 55200")
    func otherTenant() async throws {
        try await withNativeAuthServer { auth in
            try auth.server.createTenant("other", settings: TenantSettings())
            let elsewhere = auth.client(tenant: "other")
            let token = try await finishedSignUp(auth, "tenant@example.com")
            let reply = try await elsewhere.token(grantType: "continuation_token", continuationToken: token)
            elsewhere.expectError(reply, error: "invalid_grant", codes: [55200])
            try auth.expectOK(try await auth.token(grantType: "continuation_token", continuationToken: token))
        }
    }

    @Test("a token of one flow used at another flow's endpoint: 55200")
    func wrongFlowKind() async throws {
        try await withNativeAuthServer { auth in
            try auth.server.createUser(email: "kind@example.com", password: NativeAuthFixture.password)
            let signUp = try await auth.signUpStart("new@example.com", password: NativeAuthFixture.password)
            let signIn = try await auth.initiate("kind@example.com")
            let reset = try await auth.resetStart("kind@example.com")
            auth.expectError(try await auth.challenge(signUp.continuationToken), error: "invalid_grant", codes: [55200])
            auth.expectError(try await auth.resetChallenge(signIn.continuationToken), error: "invalid_grant", codes: [55200])
            auth.expectError(try await auth.signUpChallenge(reset.continuationToken), error: "invalid_grant", codes: [55200])
            auth.expectError(
                try await auth.token(grantType: "continuation_token", continuationToken: signIn.continuationToken),
                error: "invalid_grant", codes: [55200])
        }
    }

    @Test("unknown client_id: unauthorized_client 700016; missing client_id: invalid_request")
    func unknownClient() async throws {
        try await withNativeAuthServer { auth in
            let stranger = auth.client(clientID: "no-such-app")
            let reply = try await stranger.signUpStart("client@example.com", password: NativeAuthFixture.password)
            stranger.expectError(reply, error: "unauthorized_client", codes: [700_016])
            let token = try await stranger.token(grantType: "password", username: "client@example.com", password: "x")
            stranger.expectError(token, error: "unauthorized_client", codes: [700_016])
            let malformed = auth.client(clientID: "bad id!")
            malformed.expectError(
                try await malformed.initiate("client@example.com"), error: "unauthorized_client", codes: [700_016])

            let missing = try await auth.postRaw(
                "oauth2/v2.0/initiate", body: Data("username=a%40example.com&challenge_type=password+redirect".utf8),
                contentType: "application/x-www-form-urlencoded")
            auth.expectError(missing, error: "invalid_request", codes: [90100])
            #expect(missing.errorDescription == "client_id parameter is empty or not valid")
        }
    }
}
