import Foundation
import Latch
import LatchSDKTesting
import Testing

/// Each call of the Firebase-style API raises the codes the Firebase error-handling page lists for
/// it, with Firebase's numbers and names, from the v1 `error.message` (`"CODE : detail"`).
@Suite("SDK Firebase-style errors", .timeLimit(.minutes(1)))
struct FirebaseErrorTests {
    typealias S = FirebaseScript

    /// One expected mapping: the server message, the code, its number and name.
    struct Case: Sendable, CustomTestStringConvertible {
        let message: String
        let code: LatchError.Code
        let number: Int
        let name: String
        var testDescription: String { "\(message) → \(number) \(name)" }

        init(_ message: String, _ code: LatchError.Code, _ number: Int, _ name: String) {
            self.message = message
            self.code = code
            self.number = number
            self.name = name
        }
    }

    static let common: [Case] = [
        Case("TOO_MANY_ATTEMPTS_TRY_LATER", .tooManyRequests, 17010, "ERROR_TOO_MANY_REQUESTS"),
        Case("SOMETHING_NEW : unmapped", .internalError, 17999, "ERROR_INTERNAL_ERROR"),
    ]

    static let signInCases: [Case] =
        [
            Case("OPERATION_NOT_ALLOWED", .operationNotAllowed, 17006, "ERROR_OPERATION_NOT_ALLOWED"),
            Case("PASSWORD_LOGIN_DISABLED", .operationNotAllowed, 17006, "ERROR_OPERATION_NOT_ALLOWED"),
            Case("INVALID_EMAIL", .invalidEmail, 17008, "ERROR_INVALID_EMAIL"),
            Case(
                "USER_DISABLED : The user account has been disabled by an administrator.", .userDisabled, 17005,
                "ERROR_USER_DISABLED"),
            Case("INVALID_PASSWORD", .wrongPassword, 17009, "ERROR_WRONG_PASSWORD"),
            Case("EMAIL_NOT_FOUND", .userNotFound, 17011, "ERROR_USER_NOT_FOUND"),
            Case("INVALID_LOGIN_CREDENTIALS", .invalidCredential, 17004, "ERROR_INVALID_CREDENTIAL"),
        ] + common

    @Test("signIn(email:password:)", arguments: signInCases)
    func signIn(_ expected: Case) async throws {
        let script = ScriptedTransport()
        script.respond(to: S.v1("signInWithPassword"), with: S.error(expected.message))
        let client = try S.client(script)
        let error = try await #require(throws: LatchError.self) {
            try await client.firebase.signIn(email: S.email, password: S.password)
        }
        S.expect(error, expected.code, expected.number, expected.name)
        #expect(error.httpStatus == 400)
    }

    static let createUserCases: [Case] =
        [
            Case("INVALID_EMAIL", .invalidEmail, 17008, "ERROR_INVALID_EMAIL"),
            Case("EMAIL_EXISTS", .emailAlreadyInUse, 17007, "ERROR_EMAIL_ALREADY_IN_USE"),
            Case("OPERATION_NOT_ALLOWED", .operationNotAllowed, 17006, "ERROR_OPERATION_NOT_ALLOWED"),
            Case("WEAK_PASSWORD : Password should be at least 6 characters", .weakPassword, 17026, "ERROR_WEAK_PASSWORD"),
        ] + common

    @Test("createUser(email:password:)", arguments: createUserCases)
    func createUser(_ expected: Case) async throws {
        let script = ScriptedTransport()
        script.respond(to: S.v1("signUp"), with: S.error(expected.message))
        let client = try S.client(script)
        let error = try await #require(throws: LatchError.self) {
            try await client.firebase.createUser(email: S.email, password: S.password)
        }
        S.expect(error, expected.code, expected.number, expected.name)
    }

    @Test("the weak-password rule is the failure reason, also as NSLocalizedFailureReasonErrorKey; EMAIL_EXISTS drops its detail")
    func weakPasswordReason() async throws {
        let script = ScriptedTransport()
        script.respond(to: S.v1("signUp"), with: S.error("WEAK_PASSWORD : Password should be at least 6 characters"))
        script.respond(to: S.v1("signUp"), with: S.error("EMAIL_EXISTS : some detail"))
        let client = try S.client(script)
        let weak = try await #require(throws: LatchError.self) {
            try await client.firebase.createUser(email: S.email, password: "123")
        }
        #expect(weak.failureReason == "Password should be at least 6 characters")
        #expect(
            (weak as NSError).userInfo[NSLocalizedFailureReasonErrorKey] as? String
                == "Password should be at least 6 characters")
        let exists = try await #require(throws: LatchError.self) {
            try await client.firebase.createUser(email: S.email, password: S.password)
        }
        #expect(exists.failureReason == nil)
    }

    @Test(
        "signInAnonymously()",
        arguments: [Case("OPERATION_NOT_ALLOWED", .operationNotAllowed, 17006, "ERROR_OPERATION_NOT_ALLOWED")] + common)
    func anonymous(_ expected: Case) async throws {
        let script = ScriptedTransport()
        script.respond(to: S.v1("signUp"), with: S.error(expected.message))
        let client = try S.client(script)
        let error = try await #require(throws: LatchError.self) { try await client.firebase.signInAnonymously() }
        S.expect(error, expected.code, expected.number, expected.name)
    }

    @Test(
        "fetchSignInMethods(forEmail:)",
        arguments: [
            Case("INVALID_EMAIL", .invalidEmail, 17008, "ERROR_INVALID_EMAIL"),
            Case("INVALID_IDENTIFIER", .invalidEmail, 17008, "ERROR_INVALID_EMAIL"),
        ] + common)
    func fetchSignInMethods(_ expected: Case) async throws {
        let script = ScriptedTransport()
        script.respond(to: S.v1("createAuthUri"), with: S.error(expected.message))
        let client = try S.client(script)
        let error = try await #require(throws: LatchError.self) {
            try await client.firebase.fetchSignInMethods(forEmail: "not an address")
        }
        S.expect(error, expected.code, expected.number, expected.name)
    }

    @Test("common: no answer is networkError (17020); bad key reasons; a non-envelope body is internalError")
    func commonTransportErrors() async throws {
        let script = ScriptedTransport()
        script.respond(
            to: S.v1("createAuthUri"), with: S.error("API key not valid. Please pass a valid API key.", reason: "keyInvalid"))
        script.respond(
            to: S.v1("createAuthUri"),
            with: S.error("Requests from this referer are blocked.", status: 403, reason: "ipRefererBlocked"))
        script.respond(to: S.v1("createAuthUri"), with: .json("<html>oops</html>", status: 500))
        script.respond(to: S.v1("createAuthUri"), with: ScriptedTransport.Response(status: 502, body: Data()))
        let client = try S.client(script)
        func failure() async throws -> LatchError {
            try await #require(throws: LatchError.self) { try await client.firebase.fetchSignInMethods(forEmail: S.email) }
        }
        S.expect(try await failure(), .invalidAPIKey, 17023, "ERROR_INVALID_API_KEY")
        S.expect(try await failure(), .appNotAuthorized, 17028, "ERROR_APP_NOT_AUTHORIZED")
        S.expect(try await failure(), .internalError, 17999, "ERROR_INTERNAL_ERROR")
        S.expect(try await failure(), .networkError, 17020, "ERROR_NETWORK_REQUEST_FAILED")
        let unscripted = try await #require(throws: LatchError.self) {
            try await client.firebase.signIn(email: S.email, password: S.password)
        }
        S.expect(unscripted, .networkError, 17020, "ERROR_NETWORK_REQUEST_FAILED")
        #expect(unscripted.isRetryable)
    }

    static let reauthenticateCases: [Case] = [
        Case("INVALID_LOGIN_CREDENTIALS", .invalidCredential, 17004, "ERROR_INVALID_CREDENTIAL"),
        Case("INVALID_EMAIL", .invalidEmail, 17008, "ERROR_INVALID_EMAIL"),
        Case("INVALID_PASSWORD", .wrongPassword, 17009, "ERROR_WRONG_PASSWORD"),
        Case("USER_NOT_FOUND", .userMismatch, 17024, "ERROR_USER_MISMATCH"),
        Case("OPERATION_NOT_ALLOWED", .operationNotAllowed, 17006, "ERROR_OPERATION_NOT_ALLOWED"),
        Case("EMAIL_EXISTS", .emailAlreadyInUse, 17007, "ERROR_EMAIL_ALREADY_IN_USE"),
        Case("USER_DISABLED", .userDisabled, 17005, "ERROR_USER_DISABLED"),
    ]

    @Test("reauthenticate(with:)", arguments: reauthenticateCases)
    func reauthenticate(_ expected: Case) async throws {
        let script = ScriptedTransport()
        let (_, user, _) = try await S.signedIn(script)
        script.respond(to: S.v1("signInWithPassword"), with: S.error(expected.message))
        let error = try await #require(throws: LatchError.self) {
            try await user.reauthenticate(with: .email(S.email, password: S.password))
        }
        S.expect(error, expected.code, expected.number, expected.name)
    }

    static let userCommon: [Case] = [
        Case("INVALID_ID_TOKEN", .invalidUserToken, 17017, "ERROR_INVALID_USER_TOKEN"),
        Case("USER_DISABLED", .userDisabled, 17005, "ERROR_USER_DISABLED"),
        Case("TOKEN_EXPIRED", .userTokenExpired, 17021, "ERROR_USER_TOKEN_EXPIRED"),
        Case("USER_NOT_FOUND", .userNotFound, 17011, "ERROR_USER_NOT_FOUND"),
    ]

    @Test(
        "updateEmail(to:)",
        arguments: [
            Case("EMAIL_EXISTS", .emailAlreadyInUse, 17007, "ERROR_EMAIL_ALREADY_IN_USE"),
            Case("INVALID_EMAIL", .invalidEmail, 17008, "ERROR_INVALID_EMAIL"),
            Case("CREDENTIAL_TOO_OLD_LOGIN_AGAIN", .requiresRecentLogin, 17014, "ERROR_REQUIRES_RECENT_LOGIN"),
        ] + userCommon)
    func updateEmail(_ expected: Case) async throws {
        let script = ScriptedTransport()
        let (_, user, _) = try await S.signedIn(script)
        script.respond(to: S.v1("update"), with: S.error(expected.message))
        let error = try await #require(throws: LatchError.self) { try await user.updateEmail(to: "new@example.com") }
        S.expect(error, expected.code, expected.number, expected.name)
    }

    @Test(
        "updatePassword(to:)",
        arguments: [
            Case("OPERATION_NOT_ALLOWED", .operationNotAllowed, 17006, "ERROR_OPERATION_NOT_ALLOWED"),
            Case("CREDENTIAL_TOO_OLD_LOGIN_AGAIN", .requiresRecentLogin, 17014, "ERROR_REQUIRES_RECENT_LOGIN"),
            Case("WEAK_PASSWORD : Password should be at least 6 characters", .weakPassword, 17026, "ERROR_WEAK_PASSWORD"),
        ] + userCommon)
    func updatePassword(_ expected: Case) async throws {
        let script = ScriptedTransport()
        let (_, user, _) = try await S.signedIn(script)
        script.respond(to: S.v1("update"), with: S.error(expected.message))
        let error = try await #require(throws: LatchError.self) { try await user.updatePassword(to: "x") }
        S.expect(error, expected.code, expected.number, expected.name)
        if expected.code == .weakPassword { #expect(error.failureReason == "Password should be at least 6 characters") }
    }

    @Test(
        "delete()",
        arguments: [Case("CREDENTIAL_TOO_OLD_LOGIN_AGAIN", .requiresRecentLogin, 17014, "ERROR_REQUIRES_RECENT_LOGIN")]
            + userCommon)
    func delete(_ expected: Case) async throws {
        let script = ScriptedTransport()
        let (client, user, _) = try await S.signedIn(script)
        script.respond(to: S.v1("delete"), with: S.error(expected.message))
        let error = try await #require(throws: LatchError.self) { try await user.delete() }
        S.expect(error, expected.code, expected.number, expected.name)
        if expected.code == .requiresRecentLogin {
            #expect(try await client.firebase.currentUser?.uid == S.uid, "requiresRecentLogin keeps the user signed in")
        }
    }

    @Test(
        "sendEmailVerification()", arguments: [Case("USER_NOT_FOUND", .userNotFound, 17011, "ERROR_USER_NOT_FOUND")] + userCommon)
    func sendEmailVerification(_ expected: Case) async throws {
        let script = ScriptedTransport()
        let (_, user, _) = try await S.signedIn(script)
        script.respond(to: S.v1("sendOobCode"), with: S.error(expected.message))
        let error = try await #require(throws: LatchError.self) { try await user.sendEmailVerification() }
        S.expect(error, expected.code, expected.number, expected.name)
    }

    @Test("link(with:) and unlink(fromProvider:) errors from the server")
    func linkErrors() async throws {
        let script = ScriptedTransport()
        script.respond(to: S.v1("signUp"), json: S.tokens(S.idToken(uid: "anon", email: nil, provider: "anonymous"), uid: "anon"))
        script.respond(to: S.v1("signUp"), with: S.error("FEDERATED_USER_ID_ALREADY_LINKED"))
        script.respond(to: S.v1("signUp"), with: S.error("OPERATION_NOT_ALLOWED"))
        script.respond(to: S.v1("lookup"), json: S.lookup(uid: "anon", email: nil, password: false))
        let client = try S.client(script)
        let user = try await client.firebase.signInAnonymously()
        let inUse = try await #require(throws: LatchError.self) {
            try await user.link(with: .email(S.email, password: S.password))
        }
        S.expect(inUse, .credentialAlreadyInUse, 17025, "ERROR_CREDENTIAL_ALREADY_IN_USE")
        let notAllowed = try await #require(throws: LatchError.self) {
            try await user.link(with: .email(S.email, password: S.password))
        }
        S.expect(notAllowed, .operationNotAllowed, 17006, "ERROR_OPERATION_NOT_ALLOWED")

        let other = ScriptedTransport()
        let (_, signedIn, _) = try await S.signedIn(other)
        other.respond(to: S.v1("update"), with: S.error("CREDENTIAL_TOO_OLD_LOGIN_AGAIN"))
        let old = try await #require(throws: LatchError.self) { try await signedIn.unlink(fromProvider: "password") }
        S.expect(old, .requiresRecentLogin, 17014, "ERROR_REQUIRES_RECENT_LOGIN")
    }

    @Test(
        "action codes",
        arguments: [
            Case("EXPIRED_OOB_CODE", .expiredActionCode, 17029, "ERROR_EXPIRED_ACTION_CODE"),
            Case("INVALID_OOB_CODE", .invalidActionCode, 17030, "ERROR_INVALID_ACTION_CODE"),
        ])
    func actionCodes(_ expected: Case) async throws {
        let script = ScriptedTransport()
        script.respond(to: S.v1("resetPassword"), with: S.error(expected.message))
        script.respond(to: S.v1("update"), with: S.error(expected.message))
        let client = try S.client(script)
        let reset = try await #require(throws: LatchError.self) {
            try await client.firebase.confirmPasswordReset(code: "c", newPassword: S.password)
        }
        S.expect(reset, expected.code, expected.number, expected.name)
        let apply = try await #require(throws: LatchError.self) { try await client.firebase.applyActionCode("c") }
        S.expect(apply, expected.code, expected.number, expected.name)
    }

    @Test("sendPasswordReset: MISSING_EMAIL is 17034, EMAIL_NOT_FOUND 17011, INVALID_EMAIL 17008")
    func sendPasswordReset() async throws {
        let script = ScriptedTransport()
        for message in ["MISSING_EMAIL", "EMAIL_NOT_FOUND", "INVALID_EMAIL"] {
            script.respond(to: S.v1("sendOobCode"), with: S.error(message))
        }
        let client = try S.client(script)
        func failure() async throws -> LatchError {
            try await #require(throws: LatchError.self) { try await client.firebase.sendPasswordReset(withEmail: "") }
        }
        S.expect(try await failure(), .missingEmail, 17034, "ERROR_MISSING_EMAIL")
        S.expect(try await failure(), .userNotFound, 17011, "ERROR_USER_NOT_FOUND")
        S.expect(try await failure(), .invalidEmail, 17008, "ERROR_INVALID_EMAIL")
    }

    @Test("the message code is matched on the part before the first colon, trimmed")
    func messageSplitting() async throws {
        let script = ScriptedTransport()
        script.respond(to: S.v1("createAuthUri"), with: S.error("  INVALID_EMAIL   :  detail: with a colon "))
        let client = try S.client(script)
        let error = try await #require(throws: LatchError.self) {
            try await client.firebase.fetchSignInMethods(forEmail: "x")
        }
        S.expect(error, .invalidEmail, 17008, "ERROR_INVALID_EMAIL")
        #expect(error.failureReason == "detail: with a colon")
    }
}
