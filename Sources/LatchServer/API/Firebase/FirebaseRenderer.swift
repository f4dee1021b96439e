import Foundation
import LatchHTTP

/// The one place the Firebase-shaped family (Identity Toolkit v1 and v3, securetoken) renders
/// failures: Google's envelope
/// `{"error":{"code":400,"message":"CODE : detail","errors":[{"message":…,"domain":"global","reason":"invalid"}]}}`,
/// whose `message` the Firebase SDKs split at the first `:` to pick the error code
/// (`reference/firebase-auth-protocol.md` § 1). The codes are those the SDKs map.
struct FirebaseRenderer: ErrorRenderer {
    /// Which call failed, where one failure reads differently per call.
    enum Call {
        /// A call naming the account by its address (`accounts:signInWithPassword` / `verifyPassword`,
        /// a password-reset code request): an unknown address is `EMAIL_NOT_FOUND`.
        case signIn
        /// Any other call.
        case other
    }

    /// The message for an unknown or missing API key: an unmapped message whose reason starts
    /// with `keyInvalid`, which the Apple SDK reads as 17023 (invalid API key).
    static let invalidAPIKeyMessage = "API key not valid. Please pass a valid API key."

    func render(_ error: HTTPError, for request: HTTPRequest) -> HTTPResponse {
        switch error.status {
        case 404: Self.response(404, "NOT_FOUND")
        case 405: Self.response(405, "METHOD_NOT_ALLOWED")
        case 500...: Self.response(error.status, "INTERNAL_ERROR")
        default: Self.response(error.status, "INVALID_ARGUMENT", detail: error.message)
        }
    }

    /// The response for a domain failure of `call`; `tenant` (when resolved) decides how a wrong
    /// password reads under enumeration protection.
    func render(_ failure: AuthFailure, tenant: Tenant?, call: Call) -> HTTPResponse {
        switch failure {
        case .missingParameter(.apiKey), .invalidParameter(.apiKey), .unknownClient, .unknownTenant:
            return Self.response(400, Self.invalidAPIKeyMessage, reason: "keyInvalid")
        case .missingParameter(.email), .missingParameter(.username):
            return Self.response(400, "MISSING_EMAIL")
        case .invalidParameter(.email), .invalidParameter(.username):
            return Self.response(400, "INVALID_EMAIL")
        case .missingParameter(.password), .missingParameter(.newPassword):
            return Self.response(400, "MISSING_PASSWORD")
        case .missingParameter(.refreshToken):
            return Self.response(400, "MISSING_REFRESH_TOKEN")
        case .missingParameter(.grantType):
            return Self.response(400, "MISSING_GRANT_TYPE")
        case .unsupportedGrantType:
            return Self.response(400, "INVALID_GRANT_TYPE")
        case .missingParameter(.token), .invalidParameter(.token), .invalidAccessToken:
            return Self.response(400, "INVALID_ID_TOKEN")
        case .missingParameter(.oneTimeCode):
            return Self.response(400, "MISSING_OOB_CODE")
        case .invalidParameter(.oneTimeCode), .invalidCode:
            return Self.response(400, "INVALID_OOB_CODE")
        case .codeExpired:
            return Self.response(400, "EXPIRED_OOB_CODE")
        case .missingParameter(.requestType):
            return Self.response(400, "MISSING_REQ_TYPE")
        case .invalidParameter(.requestType):
            return Self.response(400, "INVALID_REQ_TYPE")
        case .missingParameter(.newEmail):
            return Self.response(400, "MISSING_NEW_EMAIL")
        case .invalidParameter(.newEmail):
            return Self.response(400, "INVALID_NEW_EMAIL")
        case .missingParameter(.continueURL):
            return Self.response(400, "MISSING_CONTINUE_URI")
        case .invalidParameter(.continueURL):
            return Self.response(400, "INVALID_CONTINUE_URI")
        case .codeAddressMismatch:
            return Self.response(
                400, "INVALID_EMAIL", detail: "The email provided does not match the sign-in email address.")
        case .missingParameter(let parameter), .invalidParameter(let parameter):
            return Self.response(400, "INVALID_ARGUMENT", detail: parameter.rawValue)
        case .userNotFound:
            return Self.response(400, call == .signIn ? "EMAIL_NOT_FOUND" : "USER_NOT_FOUND")
        case .userAlreadyExists:
            return Self.response(400, "EMAIL_EXISTS")
        case .invalidCredentials:
            let protected = tenant?.settings.enumerationProtection ?? false
            return Self.response(400, protected ? "INVALID_LOGIN_CREDENTIALS" : "INVALID_PASSWORD")
        case .userDisabled:
            return Self.response(400, "USER_DISABLED")
        case .passwordPolicy(let violation):
            return Self.response(400, "WEAK_PASSWORD", detail: violation.explanation)
        case .invalidRefreshToken:
            return Self.response(400, "INVALID_REFRESH_TOKEN")
        case .refreshTokenRevoked, .refreshTokenReused, .sessionExpired:
            return Self.response(400, "TOKEN_EXPIRED")
        case .operationNotAllowed:
            return Self.response(400, "OPERATION_NOT_ALLOWED")
        case .recentSignInRequired:
            return Self.response(400, "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
        case .tooManyAttempts(let retryAfter):
            // Google answers 400; `Retry-After` (RFC 9110 § 10.2.3) tells other clients how long.
            return Self.response(
                400, "TOO_MANY_ATTEMPTS_TRY_LATER", headers: HTTPHeaders([("Retry-After", String(max(1, retryAfter)))]))
        case .invalidCustomToken:
            return Self.response(400, "INVALID_CUSTOM_TOKEN")
        case .customTokenMismatch:
            return Self.response(400, "CREDENTIAL_MISMATCH")
        case .outOfOrder, .unauthorizedClient, .unsupportedChallengeType, .codeAttemptsExceeded,
            .invalidContinuationToken, .continuationTokenExpired, .invalidAttributes, .invalidScope, .deliveryUnavailable,
            .invalidVerificationContact, .verificationContactBlocked,
            .claimsChallenge, .protectionPolicyRequired:
            return Self.response(400, "OPERATION_NOT_ALLOWED")
        }
    }

    /// The envelope: `message` is `CODE` or `CODE : detail`, repeated in `errors[0].message`.
    static func response(
        _ status: Int, _ code: String, detail: String? = nil, reason: String = "invalid", headers: HTTPHeaders = HTTPHeaders()
    ) -> HTTPResponse {
        let message = JSONWriter.quoted(detail.map { "\(code) : \($0)" } ?? code)
        let body =
            #"{"error":{"code":\#(status),"message":\#(message),"errors":[{"message":\#(message),"#
            + #""domain":"global","reason":\#(JSONWriter.quoted(reason))}]}}"#
        return .json(status, Array(body.utf8), headers: headers)
    }
}
