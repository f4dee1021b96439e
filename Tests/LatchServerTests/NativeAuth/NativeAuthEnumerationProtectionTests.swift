import Foundation
import LatchServer
import LatchTesting
import Testing

@Suite("Native auth: enumeration protection")
struct NativeAuthEnumerationProtectionTests {
    /// A server with tenant `guarded` (enumeration protection on) holding `real@example.com`.
    func withProtectedTenant(_ body: (NativeAuthFlows) async throws -> Void) async throws {
        try await withNativeAuthServer { auth in
            var settings = TenantSettings()
            settings.enumerationProtection = true
            try auth.server.createTenant("guarded", settings: settings)
            try auth.server.createUser(email: "real@example.com", password: NativeAuthFixture.password, tenant: "guarded")
            try await body(auth.client(tenant: "guarded"))
        }
    }

    /// The parts of an answer that must not tell a real account from an unknown one.
    func shape(_ reply: NativeReply) -> [String] {
        [
            "\(reply.status)", reply.error ?? "-", reply.suberror ?? "-", "\(reply.errorCodes)",
            reply.errorDescription ?? "-", reply.keys.joined(separator: ","),
            "token-length=\(reply.continuationToken?.count ?? 0)",
            reply.string("challenge_type") ?? "-",
        ]
    }

    @Test("sign-up start answers alike for taken and free addresses; only the mailbox owner learns it is taken")
    func signUpDoesNotReveal() async throws {
        try await withProtectedTenant { auth in
            let taken = try await auth.signUpStart("real@example.com", password: NativeAuthFixture.password)
            let free = try await auth.signUpStart("free@example.com", password: NativeAuthFixture.password)
            #expect(shape(taken) == shape(free))
            try auth.expectOK(taken)
            let challenge = try await auth.signUpChallenge(taken.continuationToken)
            try auth.expectOK(challenge)
            let finished = try await auth.signUpContinue(
                challenge.continuationToken, grantType: "oob", oob: try auth.code(for: "real@example.com"))
            auth.expectError(finished, error: "user_already_exists", codes: [1_003_037])
        }
    }

    @Test("sign-in of an unknown user looks like a real one; any password gets invalid_grant 50126")
    func unknownUserSignIn() async throws {
        try await withProtectedTenant { auth in
            let realInitiate = try await auth.initiate("real@example.com")
            let fakeInitiate = try await auth.initiate("nobody@example.com")
            try auth.expectOK(fakeInitiate)
            #expect(shape(fakeInitiate) == shape(realInitiate))
            #expect(fakeInitiate.keys == ["continuation_token"])

            let realChallenge = try await auth.challenge(realInitiate.continuationToken)
            let fakeChallenge = try await auth.challenge(fakeInitiate.continuationToken)
            #expect(fakeChallenge.string("challenge_type") == "password")
            #expect(shape(fakeChallenge) == shape(realChallenge))

            let realWrong = try await auth.token(
                grantType: "password", continuationToken: realChallenge.continuationToken, password: "N0t-the-password")
            auth.expectError(realWrong, error: "invalid_grant", codes: [50126])
            for password in ["N0t-the-password", NativeAuthFixture.password, "x"] {
                let fake = try await auth.token(
                    grantType: "password", continuationToken: fakeChallenge.continuationToken, password: password)
                auth.expectError(fake, error: "invalid_grant", codes: [50126])
                #expect(shape(fake) == shape(realWrong))
            }
            #expect(try auth.messageCount(to: "nobody@example.com") == 0)
        }
    }

    @Test("code sign-in of an unknown user: a code challenge, no message, every code refused as wrong")
    func unknownUserCodeSignIn() async throws {
        try await withProtectedTenant { auth in
            let fake = try await auth.initiate("nobody@example.com", challengeType: "oob redirect")
            let challenge = try await auth.challenge(fake.continuationToken, challengeType: "oob redirect")
            try auth.expectOK(challenge)
            #expect(challenge.string("challenge_type") == "oob")
            #expect(challenge.string("challenge_target_label") == "n***@e***.com")
            #expect(try auth.messageCount(to: "nobody@example.com") == 0)
            let reply = try await auth.token(grantType: "oob", continuationToken: challenge.continuationToken, oob: "12345678")
            auth.expectError(reply, error: "invalid_grant", suberror: "invalid_oob_value", codes: [50181])
        }
    }

    @Test("reset of an unknown user: same answers as a real one, and no code is ever accepted")
    func unknownUserReset() async throws {
        try await withProtectedTenant { auth in
            let realStart = try await auth.resetStart("real@example.com")
            let fakeStart = try await auth.resetStart("nobody@example.com")
            #expect(shape(fakeStart) == shape(realStart))
            let realChallenge = try await auth.resetChallenge(realStart.continuationToken)
            let fakeChallenge = try await auth.resetChallenge(fakeStart.continuationToken)
            #expect(shape(fakeChallenge) == shape(realChallenge))
            #expect(fakeChallenge.int("code_length") == realChallenge.int("code_length"))
            #expect(try auth.messageCount(to: "nobody@example.com") == 0)

            let realCode = try auth.code(for: "real@example.com")
            let fake = try await auth.resetContinue(fakeChallenge.continuationToken, oob: realCode)
            auth.expectError(fake, error: "invalid_grant", suberror: "invalid_oob_value", codes: [50181])
        }
    }

    @Test("without protection, unknown users get user_not_found at sign-in and reset")
    func withoutProtection() async throws {
        try await withNativeAuthServer { auth in
            auth.expectError(try await auth.initiate("nobody@example.com"), error: "user_not_found", codes: [50034])
            auth.expectError(try await auth.resetStart("nobody@example.com"), error: "user_not_found", codes: [50034])
        }
    }
}
