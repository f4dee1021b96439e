import Foundation
import LatchWire

/// The one place where server answers become ``LatchError`` values: the native-auth error
/// envelope (`error`, `suberror`, `error_codes`), HTTP statuses, the `redirect` answer and transport
/// failures. Every row has a test.
enum ServerErrorMapping {
    /// Context of the answer being mapped.
    struct Answer {
        var status: Int
        var retryAfter: TimeInterval?
        var correlationID: String?
    }

    /// Maps an error envelope.
    static func error(from envelope: NativeAuthErrorResponse, answer: Answer) -> LatchError {
        let codes = envelope.errorCodes ?? []
        let suberror = envelope.suberror?.rawValue
        let description = envelope.errorDescription ?? envelope.error.rawValue
        func make(_ code: LatchError.Code, _ message: String, reason: String? = nil) -> LatchError {
            var error = LatchError(
                code: code, message: message, failureReason: reason ?? envelope.errorDescription,
                retryAfter: answer.retryAfter, correlationID: envelope.correlationID ?? answer.correlationID,
                httpStatus: answer.status, oauthError: envelope.error.rawValue, suberror: suberror,
                serverErrorCodes: codes, invalidAttributes: envelope.invalidAttributes?.map(\.name) ?? [])
            error.continuationToken = envelope.continuationToken
            error.requiredAttributes = envelope.requiredAttributes ?? []
            return error
        }
        if answer.status == 429 || envelope.error == .tooManyRequests || envelope.error == .slowDown {
            return make(.tooManyRequests, "The server is limiting requests; retry later.")
        }
        if answer.status >= 500 {
            return make(.serverError, "The server failed (HTTP \(answer.status)).")
        }
        switch envelope.error {
        case .credentialRequired:
            return make(.internal, "The sign-up needs a password.")
        case .attributesRequired:
            return make(.internal, "The sign-up needs more attributes.")
        case .userNotFound:
            return make(.userNotFound, "No account has this username.")
        case .userAlreadyExists:
            return make(.userAlreadyExists, "An account with this username already exists.")
        case .expiredToken:
            return make(.flowExpired, "The flow expired; start again.")
        case .expiredRefreshToken:
            return make(.interactionRequired, "The session expired; sign in again.")
        case .unsupportedChallengeType:
            return make(.browserRequired, "The server needs a challenge type this app does not support.")
        case .invalidScope:
            return make(.invalidScope, "A requested scope is not allowed: \(description)")
        case .unauthorizedClient, .invalidClient:
            if codes.contains(ServerErrorCode.clientNotFound) {
                return make(.unknownClient, "The client id is not registered in this tenant.")
            }
            return make(.operationNotAllowed, "The client may not use this flow: \(description)")
        case .accessDenied:
            return make(.operationNotAllowed, "Access denied: \(description)")
        case .invalidRequest:
            if codes.contains(ServerErrorCode.tenantNotFound) {
                return make(.unknownTenant, "The tenant does not exist.")
            }
            return make(.internal, "The server refused the request: \(description)")
        case .invalidGrant:
            return invalidGrant(codes: codes, suberror: envelope.suberror, make: make)
        default:
            return make(.internal, "Unexpected server error '\(envelope.error.rawValue)': \(description)")
        }
    }

    private static func invalidGrant(
        codes: [Int], suberror: NativeAuthSuberror?, make: (LatchError.Code, String, String?) -> LatchError
    ) -> LatchError {
        switch suberror {
        case .passwordTooShort?, .passwordTooLong?, .passwordTooWeak?, .passwordBanned?, .passwordIsInvalid?,
            .passwordRecentlyUsed?:
            return make(.weakPassword, "The password does not meet the policy.", nil)
        case .attributeValidationFailed?:
            return make(.invalidAttributes, "Some attributes failed validation.", nil)
        case .invalidOOBValue?:
            if codes.contains(ServerErrorCode.expired) { return make(.codeExpired, "The code expired; request a new one.", nil) }
            if codes.contains(ServerErrorCode.codeAttemptsExceeded) {
                return make(.codeAttemptsExceeded, "The code was entered wrongly too often; request a new one.", nil)
            }
            return make(.invalidCode, "The code is incorrect.", nil)
        default:
            break
        }
        if codes.contains(ServerErrorCode.invalidCredentials) {
            return make(.wrongPassword, "The username or password is incorrect.", nil)
        }
        if codes.contains(ServerErrorCode.userDisabled) { return make(.userDisabled, "The account is disabled.", nil) }
        if codes.contains(ServerErrorCode.invalidContinuationToken) {
            return make(.invalidFlowState, "The flow is no longer valid; start again.", nil)
        }
        if codes.contains(ServerErrorCode.refreshTokenRevoked) || codes.contains(ServerErrorCode.refreshTokenReused)
            || codes.contains(ServerErrorCode.invalidRefreshToken)
        {
            return make(.interactionRequired, "The session ended; sign in again.", nil)
        }
        if codes.contains(ServerErrorCode.userHasNoPassword) {
            return make(.wrongPassword, "The account has no password; sign in with a code.", nil)
        }
        return make(.internal, "The server refused the grant.", nil)
    }

    /// The `redirect` answer: the flow needs a browser.
    static func browserRequired(reason: String?, correlationID: String?) -> LatchError {
        LatchError(
            code: .browserRequired, message: "This flow cannot be completed natively; continue in a browser.",
            failureReason: reason, correlationID: correlationID, httpStatus: 200, oauthError: nil,
            suberror: nil, serverErrorCodes: [])
    }

    /// A transport failure; keeps the `URLError` as the underlying error.
    static func network(_ error: any Error, correlationID: String?) -> LatchError {
        LatchError(
            code: .networkError, message: "The network request failed: \(error.localizedDescription)",
            underlyingError: error, correlationID: correlationID)
    }

    /// An answer that is neither a known success nor an error envelope.
    static func unexpected(
        status: Int, correlationID: String?, retryAfter: TimeInterval? = nil, underlying: (any Error)? = nil
    ) -> LatchError {
        if status == 429 {
            return LatchError(
                code: .tooManyRequests, message: "The server is limiting requests; retry later.",
                retryAfter: retryAfter, correlationID: correlationID, httpStatus: status)
        }
        return LatchError(
            code: status >= 500 ? .serverError : .unexpectedResponse,
            message: "The server's answer could not be understood (HTTP \(status)).", underlyingError: underlying,
            retryAfter: retryAfter, correlationID: correlationID, httpStatus: status)
    }
}
