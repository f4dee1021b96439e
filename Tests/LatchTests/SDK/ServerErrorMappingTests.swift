import Foundation
import LatchWire
import Testing

@testable import Latch

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One test case per row of ``ServerErrorMapping``, fed envelopes directly.
@Suite("ServerErrorMapping table")
struct ServerErrorMappingTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let status: Int
        let error: String
        let suberror: String?
        let codes: [Int]?
        let expected: LatchError.Code
        let recovery: LatchError.Recovery
        /// The endpoint the answer came from, for the rows that hold at one endpoint only.
        let path: String
        let grantType: String?

        init(
            _ name: String, status: Int = 400, _ error: String, suberror: String? = nil, codes: [Int]? = nil,
            at path: String = "", grantType: String? = nil, _ expected: LatchError.Code, _ recovery: LatchError.Recovery
        ) {
            self.name = name
            self.status = status
            self.error = error
            self.suberror = suberror
            self.codes = codes
            self.path = path
            self.grantType = grantType
            self.expected = expected
            self.recovery = recovery
        }

        var testDescription: String { "\(name) → \(expected.name)" }
    }

    typealias Codes = ServerErrorCode

    static let rows: [Row] = [
        Row("HTTP 429", status: 429, "server_error", .tooManyRequests, .retry(after: 3)),
        Row("too_many_requests", "too_many_requests", .tooManyRequests, .retry(after: 3)),
        Row("slow_down", "slow_down", .tooManyRequests, .retry(after: 3)),
        Row("HTTP 500", status: 500, "server_error", .serverError, .retry(after: 3)),
        Row(
            "HTTP 503 with invalid_grant", status: 503, "invalid_grant", codes: [Codes.invalidCredentials], .serverError,
            .retry(after: 3)),
        Row("credential_required", "credential_required", codes: [Codes.credentialRequired], .internal, .none),
        Row("attributes_required", "attributes_required", codes: [Codes.attributesRequired], .internal, .none),
        Row("user_not_found", "user_not_found", codes: [Codes.userNotFound], .userNotFound, .signUpInstead),
        Row("user_already_exists", "user_already_exists", codes: [Codes.userAlreadyExists], .userAlreadyExists, .signInInstead),
        Row("expired_token", "expired_token", codes: [Codes.expired], .flowExpired, .restartFlow),
        Row("expired_refresh_token", "expired_refresh_token", .interactionRequired, .signInAgain(claimsChallenge: nil)),
        Row("unsupported_challenge_type", "unsupported_challenge_type", .browserRequired, .useBrowser),
        Row("invalid_scope", "invalid_scope", codes: [Codes.scopeNotAllowed], .invalidScope, .none),
        Row(
            "unauthorized_client + client not found", "unauthorized_client", codes: [Codes.clientNotFound], .unknownClient, .none),
        Row("invalid_client + client not found", "invalid_client", codes: [Codes.clientNotFound], .unknownClient, .none),
        Row("unauthorized_client", "unauthorized_client", .operationNotAllowed, .none),
        Row("invalid_client", "invalid_client", .operationNotAllowed, .none),
        Row("access_denied", "access_denied", .operationNotAllowed, .none),
        Row("invalid_request + tenant not found", "invalid_request", codes: [Codes.tenantNotFound], .unknownTenant, .none),
        Row("invalid_request", "invalid_request", codes: [Codes.invalidRequestParameter], .internal, .none),
        Row(
            "invalid_grant password_too_short", "invalid_grant", suberror: "password_too_short", codes: [Codes.weakPassword],
            .weakPassword, .correctInput),
        Row(
            "invalid_grant password_too_long", "invalid_grant", suberror: "password_too_long", codes: [Codes.weakPassword],
            .weakPassword, .correctInput),
        Row(
            "invalid_grant password_too_weak", "invalid_grant", suberror: "password_too_weak", codes: [Codes.weakPassword],
            .weakPassword, .correctInput),
        Row(
            "invalid_grant password_banned", "invalid_grant", suberror: "password_banned", codes: [Codes.weakPassword],
            .weakPassword, .correctInput),
        Row(
            "invalid_grant password_is_invalid", "invalid_grant", suberror: "password_is_invalid", codes: [Codes.weakPassword],
            .weakPassword, .correctInput),
        Row(
            "invalid_grant password_recently_used", "invalid_grant", suberror: "password_recently_used",
            codes: [Codes.weakPassword], .weakPassword, .correctInput),
        Row(
            "invalid_grant attribute_validation_failed", "invalid_grant", suberror: "attribute_validation_failed",
            codes: [Codes.invalidRequestParameter], .invalidAttributes, .correctInput),
        Row(
            "invalid_oob_value + expired", "invalid_grant", suberror: "invalid_oob_value", codes: [Codes.expired], .codeExpired,
            .resendCode),
        Row(
            "invalid_oob_value + attempts exceeded", "invalid_grant", suberror: "invalid_oob_value",
            codes: [Codes.codeAttemptsExceeded], .codeAttemptsExceeded, .resendCode),
        Row(
            "invalid_oob_value", "invalid_grant", suberror: "invalid_oob_value", codes: [Codes.invalidCode], .invalidCode,
            .correctInput),
        Row("invalid_oob_value without codes", "invalid_grant", suberror: "invalid_oob_value", .invalidCode, .correctInput),
        Row(
            "invalid_grant + invalid credentials", "invalid_grant", codes: [Codes.invalidCredentials], .wrongPassword,
            .correctInput),
        Row("invalid_grant + user disabled", "invalid_grant", codes: [Codes.userDisabled], .userDisabled, .none),
        Row(
            "invalid_grant + invalid continuation token", "invalid_grant", codes: [Codes.invalidContinuationToken],
            .invalidFlowState, .restartFlow),
        Row(
            "invalid_grant + refresh token revoked", "invalid_grant", codes: [Codes.refreshTokenRevoked], .interactionRequired,
            .signInAgain(claimsChallenge: nil)),
        Row(
            "invalid_grant + refresh token reused", "invalid_grant", codes: [Codes.refreshTokenReused], .interactionRequired,
            .signInAgain(claimsChallenge: nil)),
        Row(
            "invalid_grant + invalid refresh token", "invalid_grant", codes: [Codes.invalidRefreshToken], .interactionRequired,
            .signInAgain(claimsChallenge: nil)),
        Row(
            "invalid_grant + user has no password", "invalid_grant", codes: [Codes.userHasNoPassword], .wrongPassword,
            .correctInput),
        Row("invalid_grant, unknown codes", "invalid_grant", codes: [123], .internal, .none),
        Row("invalid_grant, unknown suberror", "invalid_grant", suberror: "mfa_required", .internal, .none),
        Row("unknown error", "some_future_error", codes: [42], .internal, .none),
        // Second factors, registration, step-up and protection policies.
        Row(
            "access_denied provider_blocked_by_rep at oauth2/v2.0/challenge", "access_denied",
            suberror: "provider_blocked_by_rep", at: "oauth2/v2.0/challenge", .authMethodBlocked, .chooseAnotherMethod),
        Row(
            "access_denied provider_blocked_by_rep at register/v1.0/challenge", "access_denied",
            suberror: "provider_blocked_by_rep", at: "register/v1.0/challenge", .verificationContactBlocked,
            .chooseAnotherMethod),
        Row(
            "invalid_request + 901001 anywhere", "invalid_request", codes: [Codes.invalidRequestParameter, 901001],
            at: "register/v1.0/challenge", .invalidInput, .correctInput),
        Row(
            "invalid_oob_value at the mfa_oob grant", "invalid_grant", suberror: "invalid_oob_value", codes: [Codes.invalidCode],
            at: "oauth2/v2.0/token", grantType: "mfa_oob", .invalidChallenge, .correctInput),
        Row(
            "invalid_oob_value + expired at the mfa_oob grant", "invalid_grant", suberror: "invalid_oob_value",
            codes: [Codes.expired], at: "oauth2/v2.0/token", grantType: "mfa_oob", .invalidChallenge, .resendCode),
        Row(
            "invalid_oob_value + attempts exceeded at register/v1.0/continue", "invalid_grant", suberror: "invalid_oob_value",
            codes: [Codes.codeAttemptsExceeded], at: "register/v1.0/continue", .invalidChallenge, .resendCode),
        Row(
            "invalid_oob_value at register/v1.0/continue", "invalid_grant", suberror: "invalid_oob_value",
            at: "register/v1.0/continue", .invalidChallenge, .correctInput),
        Row(
            "invalid_oob_value at the oob grant stays invalidCode", "invalid_grant", suberror: "invalid_oob_value",
            at: "oauth2/v2.0/token", grantType: "oob", .invalidCode, .correctInput),
        Row(
            "interaction_required", "interaction_required", codes: [Codes.mfaRequiredOnRefresh], at: "oauth2/v2.0/token",
            grantType: "refresh_token", .interactionRequired, .signInAgain(claimsChallenge: nil)),
        Row(
            "unauthorized_client protection_policy_required", "unauthorized_client", suberror: "protection_policy_required",
            .serverProtectionPoliciesRequired, .satisfyProtectionPolicy(name: "")),
    ]

    @Test("envelope row", arguments: rows)
    func envelope(_ row: Row) throws {
        var envelope = NativeAuthErrorResponse(
            error: NativeAuthErrorCode(rawValue: row.error), errorDescription: "described by the server",
            errorCodes: row.codes, suberror: row.suberror.map(NativeAuthSuberror.init(rawValue:)))
        envelope.correlationID = "corr-from-server"
        let error = ServerErrorMapping.error(
            from: envelope,
            answer: .init(
                status: row.status, retryAfter: 3, correlationID: "corr-sent", path: row.path, grantType: row.grantType))
        #expect(error.code == row.expected)
        #expect(!error.message.isEmpty)
        #expect(error.failureReason == "described by the server")
        #expect(error.httpStatus == row.status)
        #expect(error.oauthError == row.error)
        #expect(error.suberror == row.suberror)
        #expect(error.serverErrorCodes == (row.codes ?? []))
        #expect(error.correlationID == "corr-from-server")
        #expect(error.retryAfter == 3)
        #expect(error.recovery == row.recovery)
        #expect(error.isRetryable == [.tooManyRequests, .serverError].contains(row.expected))
        #expect(error.underlyingError == nil)
        #expect(error.name != "ERROR_UNKNOWN_\(row.expected.rawValue)")
    }

    @Test("the envelope's correlation id wins; the request's is the fallback")
    func correlationFallback() {
        let envelope = NativeAuthErrorResponse(error: .userNotFound)
        let error = ServerErrorMapping.error(from: envelope, answer: .init(status: 400, retryAfter: nil, correlationID: "sent"))
        #expect(error.correlationID == "sent")
        #expect(error.failureReason == nil)
        #expect(error.retryAfter == nil)
        #expect(error.recovery == .signUpInstead)
    }

    @Test("continuation token, required and invalid attributes are carried")
    func carriedMembers() {
        var envelope = NativeAuthErrorResponse(
            error: .attributesRequired, errorCodes: [ServerErrorCode.attributesRequired], continuationToken: "next")
        envelope.requiredAttributes = [RequiredAttribute(name: "displayName", type: "string", required: true)]
        let error = ServerErrorMapping.error(from: envelope, answer: .init(status: 400))
        #expect(error.continuationToken == "next")
        #expect(error.requiredAttributes.map(\.name) == ["displayName"])

        var invalid = NativeAuthErrorResponse(error: .invalidGrant, suberror: .attributeValidationFailed)
        invalid.invalidAttributes = [AttributeName(name: "city"), AttributeName(name: "zip")]
        let mapped = ServerErrorMapping.error(from: invalid, answer: .init(status: 400))
        #expect(mapped.code == .invalidAttributes)
        #expect(mapped.invalidAttributes == ["city", "zip"])
    }

    @Test("the claims of interaction_required and the protection_policy of protection_policy_required are carried")
    func claimsAndPolicy() {
        let claims = #"{"access_token":{"acrs":{"essential":true,"value":"c1"}}}"#
        var challenge = NativeAuthErrorResponse(error: .interactionRequired)
        challenge.claims = claims
        let refresh = ServerErrorMapping.error(
            from: challenge, answer: .init(status: 400, path: "oauth2/v2.0/token", grantType: "refresh_token"))
        #expect(refresh.code == .interactionRequired)
        #expect(refresh.claimsChallenge == claims)
        #expect(refresh.recovery == .signInAgain(claimsChallenge: claims))
        #expect(LatchAuthEvent.SessionEndReason.ending(refresh) == nil, "the session goes on")

        var policy = NativeAuthErrorResponse(error: .unauthorizedClient, suberror: .protectionPolicyRequired)
        policy.protectionPolicy = "app_attestation"
        let required = ServerErrorMapping.error(from: policy, answer: .init(status: 400))
        #expect(required.code == .serverProtectionPoliciesRequired)
        #expect(required.protectionPolicy == "app_attestation")
        #expect(required.recovery == .satisfyProtectionPolicy(name: "app_attestation"))
        #expect(required.claimsChallenge == nil)

        let decoded = try? JSONDecoder().decode(
            NativeAuthErrorResponse.self,
            from: Data(#"{"error":"interaction_required","claims":"{}","protection_policy":"p"}"#.utf8))
        #expect(decoded?.claims == "{}")
        #expect(decoded?.protectionPolicy == "p")
    }

    @Test("the new codes: numbers in the 19xxx range, names and recoveries")
    func secondStepCodes() {
        let codes: [(LatchError.Code, Int, String, LatchError.Recovery)] = [
            (.authMethodBlocked, 19013, "ERROR_AUTH_METHOD_BLOCKED", .chooseAnotherMethod),
            (.invalidChallenge, 19014, "ERROR_INVALID_CHALLENGE", .correctInput),
            (.invalidInput, 19015, "ERROR_INVALID_INPUT", .correctInput),
            (.verificationContactBlocked, 19016, "ERROR_VERIFICATION_CONTACT_BLOCKED", .chooseAnotherMethod),
        ]
        for (code, number, name, recovery) in codes {
            #expect(code.rawValue == number)
            #expect(code.name == name)
            #expect(LatchError(code: code, message: "m").recovery == recovery)
        }
        let declined = LatchError(
            code: .serverDeclinedScopes, message: "m", grantedScopes: ["openid", "a"], declinedScopes: ["b"])
        #expect(declined.recovery == .retryWithScopes(["openid", "a"]))
    }

    @Test("redirect answer row: browserRequired")
    func redirect() {
        let error = ServerErrorMapping.browserRequired(reason: "needs a browser", correlationID: "c")
        #expect(error.code == .browserRequired)
        #expect(error.failureReason == "needs a browser")
        #expect(error.correlationID == "c")
        #expect(error.httpStatus == 200)
        #expect(error.oauthError == nil && error.suberror == nil && error.serverErrorCodes.isEmpty)
        #expect(error.recovery == .useBrowser)
        #expect(!error.isRetryable)
    }

    @Test("transport failure row: networkError keeps the URLError")
    func network() {
        let cause = URLError(.notConnectedToInternet)
        let error = ServerErrorMapping.network(cause, correlationID: "c")
        #expect(error.code == .networkError)
        #expect((error.underlyingError as? URLError)?.code == .notConnectedToInternet)
        #expect(error.correlationID == "c")
        #expect(error.httpStatus == nil)
        #expect(error.recovery == .retry(after: nil))
        #expect(error.isRetryable)
        let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
        #expect(underlying?.domain == NSURLErrorDomain)
        #expect(underlying?.code == NSURLErrorNotConnectedToInternet)
    }

    @Test(
        "unparseable answer rows",
        arguments: [
            (429, LatchError.Code.tooManyRequests), (500, .serverError), (502, .serverError), (200, .unexpectedResponse),
            (404, .unexpectedResponse), (0, .unexpectedResponse),
        ])
    func unexpected(status: Int, code: LatchError.Code) {
        let error = ServerErrorMapping.unexpected(status: status, correlationID: "c", retryAfter: 5)
        #expect(error.code == code)
        #expect(error.httpStatus == status)
        #expect(error.retryAfter == 5)
        #expect(error.correlationID == "c")
        #expect(error.oauthError == nil)
        #expect(!error.message.isEmpty)
        #expect(error.isRetryable == (code != .unexpectedResponse))
    }

    @Test("every code has a name, and the NSError bridge carries the server fields")
    func bridge() {
        let codes: [LatchError.Code] = [
            .userDisabled, .operationNotAllowed, .userAlreadyExists, .invalidEmail, .wrongPassword, .tooManyRequests,
            .userNotFound, .networkError, .weakPassword, .invalidCode, .credentialStoreError, .malformedJWT, .internal,
            .interactionRequired, .serverDeclinedScopes, .serverProtectionPoliciesRequired, .userCanceled, .serverError,
            .browserRequired, .codeExpired, .codeAttemptsExceeded, .flowExpired, .invalidFlowState, .invalidAttributes,
            .unknownClient, .unknownTenant, .invalidScope, .missingInput, .unexpectedResponse, .invalidConfiguration,
            .authMethodBlocked, .invalidChallenge, .invalidInput, .verificationContactBlocked,
        ]
        #expect(Set(codes.map(\.name)).count == codes.count)
        #expect(codes.allSatisfy { $0.name != "ERROR_UNKNOWN_\($0.rawValue)" })
        #expect(LatchError.Code(rawValue: 1).name == "ERROR_UNKNOWN_1")

        let error = ServerErrorMapping.error(
            from: NativeAuthErrorResponse(
                error: .invalidGrant, errorDescription: "why", errorCodes: [ServerErrorCode.weakPassword],
                suberror: .passwordBanned),
            answer: .init(status: 400, retryAfter: nil, correlationID: "corr"))
        let bridged = error as NSError
        #expect(bridged.domain == LatchError.domain)
        #expect(bridged.code == 17026)
        #expect(bridged.userInfo[NSLocalizedFailureReasonErrorKey] as? String == "why")
        #expect(bridged.userInfo[LatchError.UserInfoKey.name] as? String == "ERROR_WEAK_PASSWORD")
        #expect(bridged.userInfo[LatchError.UserInfoKey.oauthError] as? String == "invalid_grant")
        #expect(bridged.userInfo[LatchError.UserInfoKey.suberror] as? String == "password_banned")
        #expect(bridged.userInfo[LatchError.UserInfoKey.serverErrorCodes] as? [Int] == [ServerErrorCode.weakPassword])
        #expect(bridged.userInfo[LatchError.UserInfoKey.correlationID] as? String == "corr")
        #expect(bridged.userInfo[LatchError.UserInfoKey.httpStatus] as? Int == 400)
        #expect(bridged.userInfo[LatchError.UserInfoKey.retryAfter] == nil)
        #expect(error.description.contains("ERROR_WEAK_PASSWORD (17026)"))
        #expect(error.description.contains("corr"))
    }
}
