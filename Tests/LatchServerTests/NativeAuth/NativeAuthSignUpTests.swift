import Foundation
import LatchServer
import LatchTesting
import Testing

@Suite("Native auth: sign-up")
struct NativeAuthSignUpTests {
    @Test("password at start, code, continuation-token grant: tokens with every claim")
    func signUpWithPasswordAndCode() async throws {
        try await withNativeAuthServer { auth in
            let email = "ada@example.com"
            let start = try await auth.signUpStart(email, password: NativeAuthFixture.password)
            try auth.expectOK(start)
            #expect(start.keys == ["continuation_token"])

            let challenge = try await auth.signUpChallenge(start.continuationToken)
            try auth.expectOK(challenge)
            #expect(
                challenge.keys == [
                    "binding_method", "challenge_channel", "challenge_target_label", "challenge_type", "code_length",
                    "continuation_token", "interval",
                ])
            #expect(challenge.string("challenge_type") == "oob")
            #expect(challenge.string("binding_method") == "prompt")
            #expect(challenge.string("challenge_channel") == "email")
            #expect(challenge.string("challenge_target_label") == "a***@e***.com")
            #expect(challenge.int("code_length") == 8)
            #expect(challenge.int("interval") == 300)
            #expect(challenge.continuationToken != start.continuationToken)

            let code = try auth.code(for: email)
            #expect(code.count == 8 && code.utf8.allSatisfy { (0x30...0x39).contains($0) })
            #expect(try auth.messageCount(to: email) == 1)

            let verified = try await auth.signUpContinue(challenge.continuationToken, grantType: "oob", oob: code)
            try auth.expectOK(verified)
            #expect(verified.keys == ["continuation_token", "expires_in"])
            #expect(verified.int("expires_in") == 600)

            let grant = try await auth.token(grantType: "continuation_token", continuationToken: verified.continuationToken)
            let tokens = try auth.tokens(from: grant)
            #expect(grant.string("token_type") == "Bearer")
            #expect(grant.string("scope") == "openid offline_access")
            #expect(grant.int("expires_in") == 3600)
            #expect(tokens.refreshToken?.isEmpty == false)
            #expect(grant.wire.headers["pragma"] == "no-cache")
            try auth.expectIDToken(tokens, email: email, amr: ["otp"])

            let user = try auth.user(email)
            #expect(user.emailVerified)
            #expect(user.passwordHash != nil)
            // The password chosen at sign-up signs in.
            let signIn = try await auth.signIn(email, password: NativeAuthFixture.password)
            try auth.expectIDToken(signIn, email: email, amr: ["pwd"])
        }
    }

    @Test("the username is normalized: trimmed and lower-cased in the account, outbox and claims")
    func usernameIsNormalized() async throws {
        try await withNativeAuthServer { auth in
            let tokens = try await auth.signUp("  Grace.Hopper@Example.COM ", password: NativeAuthFixture.password)
            try auth.expectIDToken(tokens, email: "grace.hopper@example.com", amr: ["otp"])
            let again = try await auth.signUpStart("grace.hopper@example.com", password: NativeAuthFixture.password)
            auth.expectError(again, error: "user_already_exists", codes: [1_003_037])
        }
    }

    @Test("password asked after the code: credential_required, then grant_type=password")
    func passwordGivenLater() async throws {
        try await withNativeAuthServer { auth in
            let email = "later@example.com"
            let start = try await auth.signUpStart(email)
            try auth.expectOK(start)
            let challenge = try await auth.signUpChallenge(start.continuationToken)
            try auth.expectOK(challenge)
            let verified = try await auth.signUpContinue(
                challenge.continuationToken, grantType: "oob", oob: try auth.code(for: email))
            auth.expectError(verified, error: "credential_required", codes: [55103])
            let required = try #require(verified.continuationToken)
            #expect(required != challenge.continuationToken)
            #expect(try auth.server.app.services.admin.users(tenant: auth.tenantRecord()).isEmpty, "no account yet")

            let done = try await auth.signUpContinue(required, grantType: "password", password: NativeAuthFixture.password)
            try auth.expectOK(done)
            #expect(done.int("expires_in") == 600)
            let tokens = try auth.tokens(
                from: try await auth.token(grantType: "continuation_token", continuationToken: done.continuationToken))
            try auth.expectIDToken(tokens, email: email, amr: ["otp"])
            _ = try await auth.signIn(email, password: NativeAuthFixture.password)
        }
    }

    @Test("MSAL order after credential_required: challenge answers password, continue with it")
    func passwordChallengeAfterCredentialRequired() async throws {
        try await withNativeAuthServer { auth in
            let email = "msal@example.com"
            let start = try await auth.signUpStart(email)
            let challenge = try await auth.signUpChallenge(start.continuationToken)
            let verified = try await auth.signUpContinue(
                challenge.continuationToken, grantType: "oob", oob: try auth.code(for: email))
            auth.expectError(verified, error: "credential_required", codes: [55103])

            let password = try await auth.signUpChallenge(verified.continuationToken)
            try auth.expectOK(password)
            #expect(password.keys == ["challenge_type", "continuation_token"])
            #expect(password.string("challenge_type") == "password")
            #expect(try auth.messageCount(to: email) == 1, "a verified flow sends no second code")

            let stale = try await auth.signUpContinue(
                verified.continuationToken, grantType: "password", password: NativeAuthFixture.password)
            auth.expectError(stale, error: "invalid_grant", codes: [55200])
            let done = try await auth.signUpContinue(
                password.continuationToken, grantType: "password", password: NativeAuthFixture.password)
            try auth.expectOK(done)
        }
    }

    @Test("a refused password does not use up the token: the next try with a good one finishes")
    func weakPasswordAtContinueCanBeRetried() async throws {
        try await withNativeAuthServer { auth in
            let email = "retry@example.com"
            let start = try await auth.signUpStart(email)
            let challenge = try await auth.signUpChallenge(start.continuationToken)
            let verified = try await auth.signUpContinue(
                challenge.continuationToken, grantType: "oob", oob: try auth.code(for: email))
            let token = try #require(verified.continuationToken)
            let weak = try await auth.signUpContinue(token, grantType: "password", password: "password123")
            auth.expectError(weak, error: "invalid_grant", suberror: "password_banned", codes: [399_246])
            let missing = try await auth.signUpContinue(token, grantType: "password")
            auth.expectError(missing, error: "invalid_request", codes: [90100])
            #expect(missing.errorDescription == "password parameter is empty or not valid")
            let done = try await auth.signUpContinue(token, grantType: "password", password: NativeAuthFixture.password)
            try auth.expectOK(done)
        }
    }

    @Test("code-only sign-up (oob redirect): no password asked, account without password")
    func codeOnlySignUp() async throws {
        try await withNativeAuthServer { auth in
            let email = "codeonly@example.com"
            let tokens = try await auth.signUp(email, challengeType: "oob redirect")
            try auth.expectIDToken(tokens, email: email, amr: ["otp"])
            let user = try auth.user(email)
            #expect(user.passwordHash == nil)
            #expect(user.emailVerified)
            // It signs in with a code afterwards.
            let again = try await auth.signInWithCode(email)
            try auth.expectIDToken(again, email: email, amr: ["otp"])
        }
    }

    @Test("sign-up of an existing account: user_already_exists 1003037")
    func existingUser() async throws {
        try await withNativeAuthServer { auth in
            try auth.server.createUser(email: "taken@example.com", password: NativeAuthFixture.password)
            let reply = try await auth.signUpStart("Taken@Example.com", password: NativeAuthFixture.otherPassword)
            auth.expectError(reply, error: "user_already_exists", codes: [1_003_037])
            #expect(reply.continuationToken == nil)
            #expect(try auth.messageCount(to: "taken@example.com") == 0)
        }
    }

    @Test("the address is taken while the sign-up runs: the code step answers user_already_exists")
    func accountCreatedDuringSignUp() async throws {
        try await withNativeAuthServer { auth in
            let email = "race@example.com"
            let start = try await auth.signUpStart(email, password: NativeAuthFixture.password)
            let challenge = try await auth.signUpChallenge(start.continuationToken)
            let code = try auth.code(for: email)
            try auth.server.createUser(email: email, password: NativeAuthFixture.otherPassword)
            let reply = try await auth.signUpContinue(challenge.continuationToken, grantType: "oob", oob: code)
            auth.expectError(reply, error: "user_already_exists", codes: [1_003_037])
            #expect(try auth.server.app.services.admin.users(tenant: auth.tenantRecord()).count == 1)
        }
    }

    @Test("a client without oob cannot verify the address: HTTP 200 redirect")
    func clientWithoutOOBGetsRedirect() async throws {
        try await withNativeAuthServer { auth in
            let reply = try await auth.signUpStart(
                "nooob@example.com", password: NativeAuthFixture.password, challengeType: "password redirect")
            NativeAuthFixture.expectRedirect(reply)
            #expect(try auth.messageCount(to: "nooob@example.com") == 0)
        }
    }

    @Test("oob grant before any code was sent, and unknown grant types, are refused")
    func continueOutOfOrder() async throws {
        try await withNativeAuthServer { auth in
            let start = try await auth.signUpStart("order@example.com", password: NativeAuthFixture.password)
            let early = try await auth.signUpContinue(start.continuationToken, grantType: "oob", oob: "12345678")
            auth.expectError(early, error: "invalid_request", codes: [90100])
            #expect(early.errorDescription == "no code was sent in this flow")
            let noGrant = try await auth.signUpContinue(start.continuationToken, grantType: nil)
            auth.expectError(noGrant, error: "invalid_request", codes: [90100])
            #expect(noGrant.errorDescription == "grant_type parameter is empty or not valid")
            let unknown = try await auth.signUpContinue(start.continuationToken, grantType: "magic")
            auth.expectError(unknown, error: "unsupported_grant_type", codes: nil)
            // None of these used the token up.
            let challenge = try await auth.signUpChallenge(start.continuationToken)
            try auth.expectOK(challenge)
        }
    }

    @Test("a tenant requiring passwords: code-only clients are redirected, others are asked for one")
    func passwordRequiredOnSignUp() async throws {
        try await withNativeAuthServer { auth in
            var settings = TenantSettings()
            settings.passwordRequiredOnSignUp = true
            try auth.server.createTenant("strict", settings: settings)
            let strict = auth.client(tenant: "strict")
            NativeAuthFixture.expectRedirect(try await strict.signUpStart("strict@example.com", challengeType: "oob redirect"))
            #expect(try strict.messageCount(to: "strict@example.com") == 0)
            let tokens = try await strict.signUp("strict@example.com", laterPassword: NativeAuthFixture.password)
            try strict.expectIDToken(tokens, email: "strict@example.com", amr: ["otp"])
            #expect(try strict.user("strict@example.com").passwordHash != nil)
        }
    }
}
