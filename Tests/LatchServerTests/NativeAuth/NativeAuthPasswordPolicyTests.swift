import Foundation
import LatchServer
import LatchTesting
import Testing

/// A password the policy refuses, with the suberror and explanation expected.
struct NativeWeakPassword: Sendable, CustomTestStringConvertible {
    let password: String
    let suberror: String
    let description: String
    let label: String

    var testDescription: String { label }

    static let all: [NativeWeakPassword] = [
        NativeWeakPassword(
            password: "Sh0rt!x", suberror: "password_too_short",
            description: "The password must be at least 8 characters long.", label: "7 characters"),
        NativeWeakPassword(
            password: String(repeating: "Xy7#", count: 64) + "Q", suberror: "password_too_long",
            description: "The password must be at most 256 characters long.", label: "257 characters"),
        NativeWeakPassword(
            password: "password123", suberror: "password_banned",
            description: "The password is on the list of commonly used passwords; choose another.", label: "password123"),
        NativeWeakPassword(
            password: "PASSWORD123", suberror: "password_banned",
            description: "The password is on the list of commonly used passwords; choose another.", label: "PASSWORD123"),
        NativeWeakPassword(
            password: "aaaaaaaaaa", suberror: "password_too_weak",
            description: "The password is too easy to guess: it repeats too few distinct characters.", label: "aaaaaaaaaa"),
        NativeWeakPassword(
            password: "lmnopqrstu", suberror: "password_too_weak",
            description: "The password is too easy to guess: it is a keyboard or counting sequence.", label: "sequence"),
        NativeWeakPassword(
            password: "my-pat.weakling-2024", suberror: "password_too_weak",
            description: "The password is too easy to guess: it contains the username.", label: "contains username"),
        NativeWeakPassword(
            password: "Tr0ub4dor\u{7}3x", suberror: "password_is_invalid",
            description: "The password must not contain control characters.", label: "control character"),
    ]
}

@Suite("Native auth: password policy")
struct NativeAuthPasswordPolicyTests {
    static let username = "pat.weakling@example.com"

    @Test("refused at sign-up start, sign-up continue and reset submit with the reason", arguments: NativeWeakPassword.all)
    func weakPasswordRefused(weak: NativeWeakPassword) async throws {
        try await withNativeAuthServer { auth in
            let email = Self.username
            let start = try await auth.signUpStart(email, password: weak.password)
            auth.expectError(start, error: "invalid_grant", suberror: weak.suberror, codes: [399_246])
            #expect(start.errorDescription == weak.description)
            #expect(try auth.messageCount(to: email) == 0)

            let later = try await auth.signUpStart(email)
            let challenge = try await auth.signUpChallenge(later.continuationToken)
            let verified = try await auth.signUpContinue(
                challenge.continuationToken, grantType: "oob", oob: try auth.code(for: email))
            auth.expectError(verified, error: "credential_required", codes: [55103])
            let onContinue = try await auth.signUpContinue(
                verified.continuationToken, grantType: "password", password: weak.password)
            auth.expectError(onContinue, error: "invalid_grant", suberror: weak.suberror, codes: [399_246])
            #expect(onContinue.errorDescription == weak.description)
            try auth.expectOK(
                try await auth.signUpContinue(
                    verified.continuationToken, grantType: "password", password: NativeAuthFixture.password))

            let reset = try await auth.resetStart(email)
            let resetChallenge = try await auth.resetChallenge(reset.continuationToken)
            let resetVerified = try await auth.resetContinue(resetChallenge.continuationToken, oob: try auth.code(for: email))
            let submit = try await auth.resetSubmit(resetVerified.continuationToken, newPassword: weak.password)
            auth.expectError(submit, error: "invalid_grant", suberror: weak.suberror, codes: [399_246])
            #expect(submit.errorDescription == weak.description)
            // The old password still works.
            try auth.expectOK(try await auth.passwordGrant(email, password: NativeAuthFixture.password))
        }
    }

    @Test("the length limits are inclusive: 8 and 256 characters are accepted")
    func lengthBoundaries() async throws {
        try await withNativeAuthServer { auth in
            for (index, password) in ["Xy7#Qw2!", String(repeating: "Xy7#", count: 64)].enumerated() {
                #expect(password.count == (index == 0 ? 8 : 256))
                let email = "edge\(index)@example.com"
                _ = try await auth.signUp(email, password: password)
                try auth.expectOK(try await auth.passwordGrant(email, password: password))
            }
        }
    }
}
