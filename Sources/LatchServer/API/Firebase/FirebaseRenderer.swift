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
        // google.rpc.Code UNAVAILABLE, the status Google APIs answer 503 with.
        case 503: error.addingRetryAfter(to: Self.response(503, "UNAVAILABLE"))
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
        case .missingParameter(.requestURI):
            return Self.response(400, "MISSING_REQUEST_URI")
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
        case .accountAdministration(let refusal):
            return Self.render(refusal)
        case .invalidIdPResponse:
            return Self.response(400, "INVALID_IDP_RESPONSE")
        case .invalidNonce:
            return Self.response(400, "MISSING_OR_INVALID_NONCE")
        case .federatedIdentityInUse:
            return Self.response(400, "FEDERATED_USER_ID_ALREADY_LINKED")
        case .providerAlreadyLinked:
            return Self.response(400, "PROVIDER_ALREADY_LINKED")
        case .outOfOrder, .unauthorizedClient, .unsupportedChallengeType, .codeAttemptsExceeded, .invalidAuthorizationCode,
            .invalidPageState,
            .invalidContinuationToken, .continuationTokenExpired, .invalidAttributes, .invalidScope, .deliveryUnavailable,
            .invalidVerificationContact, .verificationContactBlocked,
            .claimsChallenge, .protectionPolicyRequired, .invalidClientAuthentication, .multipleClientAuthentications,
            .deviceAuthorization:
            return Self.response(400, "OPERATION_NOT_ALLOWED")
        }
    }

    /// The response for a refused administration call (§ 6: the codes firebase-admin maps).
    static func render(_ refusal: AccountAdminFailure) -> HTTPResponse {
        switch refusal {
        case .duplicateAccountID: response(400, "DUPLICATE_LOCAL_ID")
        case .invalidClaims: response(400, "INVALID_CLAIMS")
        case .forbiddenClaim(let name): response(400, "FORBIDDEN_CLAIM", detail: name)
        case .claimsTooLarge: response(400, "CLAIMS_TOO_LARGE")
        case .invalidSessionCookieDuration: response(400, "INVALID_SESSION_COOKIE_DURATION")
        case .tooManyAccounts(let limit):
            response(400, "INVALID_ARGUMENT", detail: "at most \(limit) accounts may be named in one request")
        case .invalidHashOptions(let why): response(400, "INVALID_HASH_ALGORITHM", detail: why)
        case .unsupportedSetting(let why): response(400, "INVALID_ARGUMENT", detail: why)
        case .unknownProject: response(404, "CONFIGURATION_NOT_FOUND")
        case .unknownTenant: response(400, "TENANT_NOT_FOUND")
        case .invalidPageToken: response(400, "INVALID_PAGE_SELECTION")
        case .invalidField(let name): response(400, "INVALID_ARGUMENT", detail: name)
        }
    }

    /// An administration call without an administrator's credential: 401 when none or an unknown
    /// one was presented, 403 for a token of another tenant; firebase-admin maps the code to
    /// `InsufficientPermissionError` (§ 6).
    static func insufficientPermission(status: Int) -> HTTPResponse {
        response(status, "INSUFFICIENT_PERMISSION", reason: status == 401 ? "unauthorized" : "forbidden")
    }

    /// The `message` of one refused account of an import (`error[].message`, § 6).
    static func message(for problem: ImportedAccount.Problem) -> String {
        switch problem {
        case .invalidID: "localId: must be 1 to 128 characters"
        case .duplicateID: "localId: an account with this id exists"
        case .repeatedID: "localId: the id appears earlier in this request"
        case .invalidEmail: "email: not a valid e-mail address"
        case .emailExists: "email: another account has this address"
        case .claims(.claimsTooLarge): "customAttributes: the claims exceed 1000 bytes"
        case .claims(.forbiddenClaim(let name)): "customAttributes: the claim \(name) is reserved"
        case .claims: "customAttributes: not a JSON object"
        case .unsupportedHash(let why): "passwordHash: \(why)"
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
