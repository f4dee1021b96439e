import Foundation
import LatchServer
import LatchTesting
import Testing

@Suite("Native auth: sign-in")
struct NativeAuthSignInTests {
    @Test("password: initiate, challenge answers password, grant_type=password")
    func passwordSignIn() async throws {
        try await withNativeAuthServer { auth in
            let email = "pat@example.com"
            try auth.server.createUser(email: email, password: NativeAuthFixture.password)
            let initiate = try await auth.initiate(email)
            try auth.expectOK(initiate)
            #expect(initiate.keys == ["continuation_token"])
            let challenge = try await auth.challenge(initiate.continuationToken)
            try auth.expectOK(challenge)
            #expect(challenge.keys == ["challenge_type", "continuation_token"])
            #expect(challenge.string("challenge_type") == "password")
            #expect(challenge.continuationToken != initiate.continuationToken)
            #expect(try auth.messageCount(to: email) == 0, "a password challenge sends no code")

            let grant = try await auth.token(
                grantType: "password", continuationToken: challenge.continuationToken, password: NativeAuthFixture.password)
            let tokens = try auth.tokens(from: grant)
            #expect(grant.string("token_type") == "Bearer")
            #expect(grant.int("expires_in") == 3600)
            try auth.expectIDToken(tokens, email: email, amr: ["pwd"])

            #expect(grant.string("client_info") == nil, "client_info only when asked for")

            // The refresh token works and rotates.
            let refreshed = try await auth.refresh(try #require(tokens.refreshToken))
            try auth.expectOK(refreshed)
            #expect(refreshed.string("refresh_token") != tokens.refreshToken)
        }
    }

    @Test("code sign-in for an account without password, client declaring oob password redirect")
    func codeSignInForCodeOnlyAccount() async throws {
        try await withNativeAuthServer { auth in
            let email = "nopass@example.com"
            try auth.server.createUser(email: email, password: nil)
            let initiate = try await auth.initiate(email)
            let challenge = try await auth.challenge(initiate.continuationToken)
            try auth.expectOK(challenge)
            #expect(challenge.string("challenge_type") == "oob")
            #expect(challenge.string("challenge_channel") == "email")
            #expect(challenge.string("challenge_target_label") == "n***@e***.com")
            #expect(challenge.int("code_length") == 8)
            let grant = try await auth.token(
                grantType: "oob", continuationToken: challenge.continuationToken, oob: try auth.code(for: email))
            let tokens = try auth.tokens(from: grant)
            try auth.expectIDToken(tokens, email: email, amr: ["otp"])
        }
    }

    @Test("code sign-in for a password account when the client declares only oob redirect")
    func codeSignInForOOBOnlyClient() async throws {
        try await withNativeAuthServer { auth in
            let email = "oobclient@example.com"
            try auth.server.createUser(email: email, password: NativeAuthFixture.password)
            let tokens = try await auth.signInWithCode(email, challengeType: "oob redirect")
            try auth.expectIDToken(tokens, email: email, amr: ["otp"])
        }
    }

    @Test("an account without password and a client without oob: HTTP 200 redirect")
    func noPasswordNoOOBRedirects() async throws {
        try await withNativeAuthServer { auth in
            let email = "stuck@example.com"
            try auth.server.createUser(email: email, password: nil)
            let initiate = try await auth.initiate(email, challengeType: "password redirect")
            try auth.expectOK(initiate)
            let challenge = try await auth.challenge(initiate.continuationToken, challengeType: "password redirect")
            NativeAuthFixture.expectRedirect(challenge)
            let onlyRedirect = try await auth.initiate(email, challengeType: "redirect")
            NativeAuthFixture.expectRedirect(onlyRedirect)
        }
    }

    @Test("wrong password: invalid_grant 50126; the same token then takes the right password")
    func wrongPassword() async throws {
        try await withNativeAuthServer { auth in
            let email = "typo@example.com"
            try auth.server.createUser(email: email, password: NativeAuthFixture.password)
            let initiate = try await auth.initiate(email)
            let challenge = try await auth.challenge(initiate.continuationToken)
            let token = try #require(challenge.continuationToken)
            let wrong = try await auth.token(grantType: "password", continuationToken: token, password: "Tr0ub4dor&3X")
            auth.expectError(wrong, error: "invalid_grant", codes: [50126])
            #expect(wrong.errorDescription == "The username or password is incorrect.")
            #expect(wrong.continuationToken == nil)
            let right = try await auth.token(
                grantType: "password", continuationToken: token, password: NativeAuthFixture.password)
            try auth.expectOK(right)
        }
    }

    @Test("five wrong passwords end the flow: even the right one is then refused")
    func passwordAttemptsEndTheFlow() async throws {
        try await withNativeAuthServer { auth in
            let email = "guess@example.com"
            try auth.server.createUser(email: email, password: NativeAuthFixture.password)
            let initiate = try await auth.initiate(email)
            let challenge = try await auth.challenge(initiate.continuationToken)
            let token = try #require(challenge.continuationToken)
            for attempt in 1...5 {
                let wrong = try await auth.token(
                    grantType: "password", continuationToken: token, password: "Wr0ng-guess-\(attempt)")
                auth.expectError(wrong, error: "invalid_grant", codes: [50126])
            }
            let right = try await auth.token(
                grantType: "password", continuationToken: token, password: NativeAuthFixture.password)
            auth.expectError(right, error: "invalid_grant", codes: [55200])
            // A new flow works once the account's sign-in delay (60 s after five failures) has passed.
            auth.server.clock.advance(by: 60)
            _ = try await auth.signIn(email, password: NativeAuthFixture.password)
        }
    }

    @Test("unknown user: user_not_found 50034")
    func unknownUser() async throws {
        try await withNativeAuthServer { auth in
            let reply = try await auth.initiate("nobody@example.com")
            auth.expectError(reply, error: "user_not_found", codes: [50034])
            #expect(reply.errorDescription == "No account has this username.")
            #expect(reply.continuationToken == nil)
        }
    }

    @Test("password grant out of order or without a password: invalid_request")
    func passwordGrantPreconditions() async throws {
        try await withNativeAuthServer { auth in
            let email = "early@example.com"
            try auth.server.createUser(email: email, password: NativeAuthFixture.password)
            let initiate = try await auth.initiate(email)
            let early = try await auth.token(
                grantType: "password", continuationToken: initiate.continuationToken, password: NativeAuthFixture.password)
            auth.expectError(early, error: "invalid_request", codes: [90100])
            #expect(early.errorDescription == "no password was requested in this flow")
            let challenge = try await auth.challenge(initiate.continuationToken)
            let empty = try await auth.token(grantType: "password", continuationToken: challenge.continuationToken)
            auth.expectError(empty, error: "invalid_request", codes: [90100])
            #expect(empty.errorDescription == "password parameter is empty or not valid")
            let noGrant = try await auth.token(grantType: nil, continuationToken: challenge.continuationToken)
            auth.expectError(noGrant, error: "invalid_request", codes: [90100])
            let unknown = try await auth.token(grantType: "magic_link", continuationToken: challenge.continuationToken)
            auth.expectError(unknown, error: "unsupported_grant_type", codes: nil)
            let ok = try await auth.token(
                grantType: "password", continuationToken: challenge.continuationToken, password: NativeAuthFixture.password)
            try auth.expectOK(ok)
        }
    }

    @Test("continuation_token grant with another username: 55200")
    func continuationGrantChecksUsername() async throws {
        try await withNativeAuthServer { auth in
            let email = "owner@example.com"
            let start = try await auth.signUpStart(email, password: NativeAuthFixture.password)
            let challenge = try await auth.signUpChallenge(start.continuationToken)
            let done = try await auth.signUpContinue(
                challenge.continuationToken, grantType: "oob", oob: try auth.code(for: email))
            let other = try await auth.token(
                grantType: "continuation_token", continuationToken: done.continuationToken, username: "thief@example.com")
            auth.expectError(other, error: "invalid_grant", codes: [55200])
            let same = try await auth.token(
                grantType: "continuation_token", continuationToken: done.continuationToken, username: "Owner@Example.com")
            try auth.expectOK(same)
        }
    }

    @Test("client_info=1 returns the MSAL account identifiers; scope openid alone returns no refresh token")
    func clientInfoAndScope() async throws {
        try await withNativeAuthServer { auth in
            let email = "msal@example.com"
            let user = try auth.server.createUser(email: email, password: NativeAuthFixture.password)
            let initiate = try await auth.initiate(email)
            let challenge = try await auth.challenge(initiate.continuationToken)
            let grant = try await auth.token(
                grantType: "password", continuationToken: challenge.continuationToken, password: NativeAuthFixture.password,
                scope: "openid", clientInfo: true)
            let tokens = try auth.tokens(from: grant)
            #expect(grant.string("scope") == "openid")
            #expect(tokens.refreshToken == nil)
            var info = try #require(grant.string("client_info"))
            info = info.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            while info.count % 4 != 0 { info += "=" }
            let data = try #require(Data(base64Encoded: info))
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: String])
            #expect(object == ["uid": user.id, "utid": try auth.tenantRecord().id])
        }
    }
}
