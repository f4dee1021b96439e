import Foundation
internal import LatchWire

/// The one place where server answers become ``LatchError`` values: the native-auth error
/// envelope (`error`, `suberror`, `error_codes`), HTTP statuses, the `redirect` answer and transport
/// failures. Every row has a test.
enum ServerErrorMapping {
    /// Context of the answer being mapped: some rows hold only at one endpoint (a blocked method
    /// at `oauth2/v2.0/challenge` is not a blocked contact at `register/v1.0/challenge`).
    struct Answer {
        var status: Int
        var retryAfter: TimeInterval?
        var correlationID: String?
        /// The endpoint under the tenant, e.g. `oauth2/v2.0/token`; empty when unknown.
        var path: String = ""
        /// The request's `grant_type`, at the token endpoint.
        var grantType: String? = nil
    }

    /// The endpoints whose rows differ.
    enum Endpoint {
        static let token = "oauth2/v2.0/token"
        static let registerChallenge = "register/v1.0/challenge"
        static let registerContinue = "register/v1.0/continue"
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
                serverErrorCodes: codes, invalidAttributes: envelope.invalidAttributes?.map(\.name) ?? [],
                claimsChallenge: code == .interactionRequired ? envelope.claims : nil,
                protectionPolicy: code == .serverProtectionPoliciesRequired ? envelope.protectionPolicy : nil)
            error.continuationToken = envelope.continuationToken
            error.requiredAttributes = envelope.requiredAttributes ?? []
            return error
        }
        if answer.path == Endpoint.token, let row = grantRow(envelope.error, grantType: answer.grantType) {
            return make(row.code, row.message)
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
        case .interactionRequired:
            // A claims challenge (step-up) or another reason the user must act; the refresh token
            // still works, so the session does not end (see LatchAuthEvent.SessionEndReason).
            return make(.interactionRequired, "The server needs the user to act: \(description)")
        case .unauthorizedClient where envelope.suberror == .protectionPolicyRequired:
            return make(
                .serverProtectionPoliciesRequired,
                "The app must satisfy the protection policy '\(envelope.protectionPolicy ?? "")' first.")
        case .unauthorizedClient, .invalidClient:
            if codes.contains(ServerErrorCode.clientNotFound) {
                return make(.unknownClient, "The client id is not registered in this tenant.")
            }
            return make(.operationNotAllowed, "The client may not use this flow: \(description)")
        case .accessDenied where envelope.suberror == .providerBlockedByReputation:
            if answer.path == Endpoint.registerChallenge {
                return make(.verificationContactBlocked, "This verification contact is blocked; use another one.")
            }
            return make(.authMethodBlocked, "This authentication method is blocked; choose another one.")
        case .accessDenied:
            return make(.operationNotAllowed, "Access denied: \(description)")
        case .invalidRequest:
            if codes.contains(ServerErrorCode.tenantNotFound) {
                return make(.unknownTenant, "The tenant does not exist.")
            }
            if codes.contains(ServerErrorCode.invalidVerificationContact) {
                return make(.invalidInput, "The verification contact is not valid.")
            }
            return make(.internal, "The server refused the request: \(description)")
        case .invalidGrant:
            let secondFactor =
                answer.path == Endpoint.registerContinue || (answer.path == Endpoint.token && answer.grantType == "mfa_oob")
            if secondFactor, envelope.suberror == .invalidOOBValue {
                // One code, as MSAL has; the recovery tells a wrong code from a dead one.
                if codes.contains(ServerErrorCode.expired) {
                    return make(.invalidChallenge, "The code expired; request a new one.")
                }
                if codes.contains(ServerErrorCode.codeAttemptsExceeded) {
                    return make(.invalidChallenge, "The code was entered wrongly too often; request a new one.")
                }
                return make(.invalidChallenge, "The code is incorrect.")
            }
            return invalidGrant(codes: codes, suberror: envelope.suberror, make: make)
        default:
            return make(.internal, "Unexpected server error '\(envelope.error.rawValue)': \(description)")
        }
    }

    /// The grant types of the interactive flows, whose errors have rows of their own.
    enum GrantType {
        /// RFC 6749 § 4.1.3.
        static let authorizationCode = "authorization_code"
        /// RFC 8628 § 3.4.
        static let deviceCode = "urn:ietf:params:oauth:grant-type:device_code"
    }

    /// The rows of the device grant (RFC 8628 § 3.5) and the code exchange (RFC 6749 § 5.2) that
    /// differ from the native-auth ones. `authorization_pending` and `slow_down` never reach the
    /// app: the device flow polls on (its loop reads ``LatchError/oauthError``).
    private static func grantRow(_ error: NativeAuthErrorCode, grantType: String?) -> (code: LatchError.Code, message: String)? {
        switch (grantType, error) {
        case (GrantType.deviceCode, .expiredToken):
            (.deviceCodeExpired, "The device code expired before the sign-in was approved; start again.")
        case (GrantType.deviceCode, .accessDenied):
            (.userCanceled, "The sign-in was declined on the verification page.")
        case (GrantType.deviceCode, .authorizationPending):
            (.internal, "The sign-in is not approved yet.")
        case (GrantType.authorizationCode, .invalidGrant):
            (
                .authorizationFailed,
                "The authorization code was refused (expired, used, or issued for another request); sign in again."
            )
        default: nil
        }
    }

    /// An error redirect of the authorization endpoint (RFC 6749 § 4.1.2.1, OpenID Connect Core
    /// § 3.1.2.6). `access_denied` is ``LatchError/Code/userCanceled``, as MSAL maps it; the
    /// `prompt=none` errors are ``LatchError/Code/interactionRequired``.
    static func authorizationError(_ error: String, description: String?) -> LatchError {
        let (code, message): (LatchError.Code, String) =
            switch error {
            case "access_denied": (.userCanceled, "The sign-in was declined.")
            case "login_required", "interaction_required", "consent_required", "account_selection_required":
                (.interactionRequired, "The server needs the user to sign in (\(error)).")
            case "invalid_scope": (.invalidScope, "A requested scope is not allowed.")
            case "unauthorized_client": (.operationNotAllowed, "The client may not use the authorization code flow.")
            case "server_error", "temporarily_unavailable": (.serverError, "The authorization server failed (\(error)).")
            default: (.authorizationFailed, "The authorization server refused the request (\(error)).")
            }
        return LatchError(code: code, message: message, failureReason: description, oauthError: error)
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

    /// A transport failure; keeps the `URLError` as the underlying error. A server certificate the
    /// client does not trust (`URLError.serverCertificateUntrusted` and its kin) is a network error
    /// too, whose message says so: the request never reached the server.
    static func network(_ error: any Error, correlationID: String?) -> LatchError {
        let error = normalizedCertificateFailure(error)
        if let urlError = error as? URLError, certificateFailures.contains(urlError.code) {
            return LatchError(
                code: .networkError,
                message: "The server's TLS certificate is not trusted, so no request was sent: \(error.localizedDescription)",
                failureReason: "Trust the certificate authority that signed the server's certificate.",
                underlyingError: error, correlationID: correlationID)
        }
        return LatchError(
            code: .networkError, message: "The network request failed: \(error.localizedDescription)",
            underlyingError: error, correlationID: correlationID)
    }

    /// The `URLError` codes of a server certificate that failed verification.
    private static let certificateFailures: Set<URLError.Code> = [
        .serverCertificateUntrusted, .serverCertificateHasUnknownRoot, .serverCertificateHasBadDate,
        .serverCertificateNotYetValid,
    ]

    /// On Linux, `URLSession` (FoundationNetworking over libcurl) reports a certificate it does not
    /// trust as `URLError(.unknown)` carrying only libcurl's message ("SSL certificate problem:
    /// unable to get local issuer certificate"); Apple platforms report
    /// `URLError(.serverCertificateUntrusted)`. This turns the former into the latter — same
    /// description and failing URL, the original under `NSUnderlyingErrorKey` — so apps check one
    /// code everywhere. Any other error is returned as it is.
    private static func normalizedCertificateFailure(_ error: any Error) -> any Error {
        #if canImport(FoundationNetworking)
            guard let urlError = error as? URLError, urlError.code == .unknown else { return error }
            let description = urlError.localizedDescription
            let libcurlCertificateMessages = [
                "SSL certificate problem", "SSL: no alternative certificate subject name", "SSL: certificate subject name",
            ]
            guard libcurlCertificateMessages.contains(where: description.hasPrefix) else { return error }
            var userInfo: [String: Any] = [NSLocalizedDescriptionKey: description, NSUnderlyingErrorKey: urlError]
            if let url = urlError.failingURL { userInfo[NSURLErrorFailingURLErrorKey] = url }
            return URLError(.serverCertificateUntrusted, userInfo: userInfo)
        #else
            return error
        #endif
    }

    /// Whether `error` is a cancellation: the task's (`CancellationError`) or the request's
    /// (`URLError.cancelled`, e.g. a `URLSession` task cancelled by its delegate).
    static func isCancellation(_ error: any Error) -> Bool {
        error is CancellationError || (error as? URLError)?.code == .cancelled
    }

    /// A cancelled call: ``LatchError/Code/userCanceled``, never a retryable network error.
    static func cancelled(_ error: (any Error)?, correlationID: String?) -> LatchError {
        LatchError(
            code: .userCanceled, message: "The operation was cancelled.", underlyingError: error,
            correlationID: correlationID)
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
