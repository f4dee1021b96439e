import Foundation
import LatchHTTP
import LatchWire

/// The one place native-auth answers are rendered: every ``AuthFailure``, every next step that is
/// an error on this wire (`credential_required`, `attributes_required`, `mfa_required`), the
/// browser fallback, and the HTTP layer's own failures under the family's paths. Entra's envelope
/// (`error`, `error_description`, `error_codes`, `suberror`, `timestamp`, `trace_id`,
/// `correlation_id`), which is also a valid RFC 6749 § 5.2 error object, so standard OAuth clients
/// of the shared token endpoint read it too.
struct NativeAuthRenderer: ErrorRenderer {
    let clock: any ServerClock

    // MARK: - Next steps

    /// `200 {"challenge_type":"redirect"}`: the client must continue in a browser.
    static func browserRequired(_ reason: BrowserReason) -> HTTPResponse {
        JSONBody.ok(["challenge_type": "redirect", "redirect_reason": reason.explanation])
    }

    /// Sign-up needs a password next (`credential_required`).
    func passwordRequired(continuationToken: String, request: HTTPRequest) -> HTTPResponse {
        render(
            .init(
                error: .credentialRequired, errorDescription: "A password is required to finish sign-up.",
                errorCodes: [ServerErrorCode.credentialRequired], continuationToken: continuationToken),
            status: 400, request: request)
    }

    /// Sign-up needs these attributes next (`attributes_required`).
    func attributesRequired(continuationToken: String, attributes: [AttributeDefinition], request: HTTPRequest)
        -> HTTPResponse
    {
        var envelope = NativeAuthErrorResponse(
            error: .attributesRequired, errorDescription: "More attributes are required to finish sign-up.",
            errorCodes: [ServerErrorCode.attributesRequired], continuationToken: continuationToken)
        envelope.requiredAttributes = attributes.map {
            RequiredAttribute(name: $0.name, type: $0.type, required: $0.required, options: $0.regex.map { .init(regex: $0) })
        }
        return render(envelope, status: 400, request: request)
    }

    /// A second factor is needed (`invalid_grant` + `mfa_required` with the continuation token).
    func secondFactorRequired(continuationToken: String, request: HTTPRequest) -> HTTPResponse {
        render(
            .init(
                error: .invalidGrant, errorDescription: "A second factor is required to finish signing in.",
                suberror: .mfaRequired, continuationToken: continuationToken),
            status: 400, request: request)
    }

    /// The user must register a strong authentication method first (`invalid_grant` +
    /// `registration_required` with the continuation token).
    func methodRegistrationRequired(continuationToken: String, request: HTTPRequest) -> HTTPResponse {
        render(
            .init(
                error: .invalidGrant,
                errorDescription: "A strong authentication method must be registered to finish signing in.",
                suberror: .registrationRequired, continuationToken: continuationToken),
            status: 400, request: request)
    }

    // MARK: - Failures

    /// The response for `failure`.
    func render(_ failure: AuthFailure, for request: HTTPRequest) -> HTTPResponse {
        var status = 400
        var headers = HTTPHeaders()
        var envelope: NativeAuthErrorResponse
        switch failure {
        case .missingParameter(let parameter), .invalidParameter(let parameter):
            // MSAL matches these descriptions literally (invalidUsername, unauthorizedClient).
            envelope = .init(
                error: .invalidRequest, errorDescription: "\(Self.wireName(of: parameter)) parameter is empty or not valid",
                errorCodes: [ServerErrorCode.invalidRequestParameter])
        case .outOfOrder(let message):
            envelope = .init(
                error: .invalidRequest, errorDescription: message,
                errorCodes: [ServerErrorCode.invalidRequestParameter])
        case .unknownTenant:
            envelope = .init(
                error: .invalidRequest, errorDescription: "The tenant does not exist.",
                errorCodes: [ServerErrorCode.tenantNotFound])
        case .unknownClient:
            envelope = .init(
                error: .unauthorizedClient, errorDescription: "The client_id is not registered in this tenant.",
                errorCodes: [ServerErrorCode.clientNotFound])
        case .unauthorizedClient(let message):
            envelope = .init(error: .unauthorizedClient, errorDescription: message)
        case .invalidClientAuthentication(let basic):
            // RFC 6749 § 5.2: 401, and a Basic challenge when the client tried Basic.
            status = 401
            if basic { headers.add("WWW-Authenticate", ClientCredentials.challenge(request)) }
            envelope = .init(error: .invalidClient, errorDescription: ClientCredentials.failureDescription)
        case .multipleClientAuthentications:
            envelope = .init(error: .invalidRequest, errorDescription: ClientCredentials.multipleDescription)
        case .unsupportedChallengeType:
            envelope = .init(
                error: .unsupportedChallengeType,
                errorDescription: "challenge_type must include 'redirect' so the flow can fall back to a browser.")
        case .unsupportedGrantType(let grant):
            envelope = .init(
                error: .unsupportedGrantType, errorDescription: "grant_type '\(grant.prefix(64))' is not supported here.")
        case .userNotFound:
            envelope = .init(
                error: .userNotFound, errorDescription: "No account has this username.",
                errorCodes: [ServerErrorCode.userNotFound])
        case .userAlreadyExists:
            envelope = .init(
                error: .userAlreadyExists, errorDescription: "An account with this username already exists.",
                errorCodes: [ServerErrorCode.userAlreadyExists])
        case .invalidCredentials:
            envelope = .init(
                error: .invalidGrant, errorDescription: "The username or password is incorrect.",
                errorCodes: [ServerErrorCode.invalidCredentials])
        case .userDisabled:
            envelope = .init(
                error: .invalidGrant, errorDescription: "The account is disabled.", errorCodes: [ServerErrorCode.userDisabled])
        case .passwordPolicy(let violation):
            envelope = .init(
                error: .invalidGrant, errorDescription: violation.explanation, errorCodes: [ServerErrorCode.weakPassword],
                suberror: Self.suberror(for: violation))
        case .invalidCode:
            envelope = .init(
                error: .invalidGrant, errorDescription: "The code is incorrect.", errorCodes: [ServerErrorCode.invalidCode],
                suberror: .invalidOOBValue)
        case .codeExpired:
            envelope = .init(
                error: .invalidGrant, errorDescription: "The code expired; request a new one.",
                errorCodes: [ServerErrorCode.expired], suberror: .invalidOOBValue)
        case .codeAttemptsExceeded:
            envelope = .init(
                error: .invalidGrant, errorDescription: "The code was entered wrongly too many times; request a new one.",
                errorCodes: [ServerErrorCode.codeAttemptsExceeded], suberror: .invalidOOBValue)
        case .invalidContinuationToken:
            envelope = .init(
                error: .invalidGrant,
                errorDescription:
                    "The continuation_token is not valid: it is unknown, was already used, or belongs to another client.",
                errorCodes: [ServerErrorCode.invalidContinuationToken])
        case .continuationTokenExpired:
            envelope = .init(
                error: .expiredToken, errorDescription: "The continuation_token expired; start the flow again.",
                errorCodes: [ServerErrorCode.expired])
        case .invalidAttributes(let names):
            envelope = .init(
                error: .invalidGrant, errorDescription: "Some attributes failed validation.",
                errorCodes: [ServerErrorCode.invalidRequestParameter], suberror: .attributeValidationFailed)
            envelope.invalidAttributes = names.map(AttributeName.init(name:))
        case .invalidScope(let message):
            envelope = .init(error: .invalidScope, errorDescription: message, errorCodes: [ServerErrorCode.scopeNotAllowed])
        case .invalidRefreshToken:
            envelope = .init(
                error: .invalidGrant, errorDescription: "The refresh token is not valid.",
                errorCodes: [ServerErrorCode.invalidRefreshToken])
        case .refreshTokenRevoked, .sessionExpired:
            envelope = .init(
                error: .invalidGrant, errorDescription: "The refresh token expired or its session was revoked; sign in again.",
                errorCodes: [ServerErrorCode.refreshTokenRevoked])
        case .refreshTokenReused:
            envelope = .init(
                error: .invalidGrant,
                errorDescription: "The refresh token was already used; the session is revoked. Sign in again.",
                errorCodes: [ServerErrorCode.refreshTokenReused])
        case .invalidVerificationContact:
            // MSAL reports invalidInput when 901001 is anywhere in error_codes.
            envelope = .init(
                error: .invalidRequest,
                errorDescription: "The verification contact is not a valid e-mail address or E.164 phone number.",
                errorCodes: [ServerErrorCode.invalidVerificationContact])
        case .verificationContactBlocked:
            envelope = .init(
                error: .accessDenied, errorDescription: "This verification method or contact is blocked.",
                suberror: .providerBlockedByReputation)
        case .claimsChallenge(let claims):
            // OIDC Core § 3.1.2.6 interaction_required, with the claims to ask for next and Entra's
            // MFA-required code; MSAL turns an error on refresh into interactionRequired.
            envelope = .init(
                error: NativeAuthErrorCode(rawValue: "interaction_required"),
                errorDescription: "This session needs a recent second factor; authenticate again with these claims.",
                errorCodes: [ServerErrorCode.mfaRequiredOnRefresh])
            envelope.claims = claims
        case .protectionPolicyRequired(let policy):
            envelope = .init(
                error: .unauthorizedClient,
                errorDescription: "This client requires the '\(policy)' protection policy, which the request does not meet.",
                suberror: .protectionPolicyRequired)
            envelope.protectionPolicy = policy
        case .tooManyAttempts(let retryAfter):
            // RFC 6585 § 4 and RFC 9110 § 10.2.3: 429 with the wait in whole seconds.
            let seconds = max(1, retryAfter)
            status = 429
            headers.add("Retry-After", String(seconds))
            envelope = .init(
                error: .tooManyRequests, errorDescription: "Too many attempts; try again in \(seconds) seconds.",
                errorCodes: [ServerErrorCode.tooManyAttempts])
        case .operationNotAllowed:
            envelope = .init(error: .unauthorizedClient, errorDescription: "The tenant does not allow this sign-in.")
        case .recentSignInRequired:
            envelope = .init(error: .invalidRequest, errorDescription: "This change needs a recent sign-in; sign in again.")
        case .invalidIdPResponse, .invalidNonce, .federatedIdentityInUse, .providerAlreadyLinked:
            // Identity-provider sign-in exists on the account API only.
            envelope = .init(error: .invalidGrant, errorDescription: "The identity provider's credential is not valid.")
        case .codeAddressMismatch:
            envelope = .init(
                error: .invalidRequest, errorDescription: "The address is not the one the code was sent to.")
        case .invalidAuthorizationCode(let why):
            envelope = .init(error: .invalidGrant, errorDescription: why)
        case .invalidPageState:
            // The hosted pages' own failure; it cannot reach this wire.
            envelope = .init(error: .invalidRequest, errorDescription: "The request was refused.")
        case .invalidCustomToken, .customTokenMismatch:
            // Custom tokens exist on the account API only.
            envelope = .init(error: .invalidGrant, errorDescription: "The custom token is not valid for this tenant.")
        case .accountAdministration:
            // Account administration exists on the account API only.
            envelope = .init(error: .invalidRequest, errorDescription: "The request was refused.")
        case .deliveryUnavailable:
            // RFC 6749 § 4.1.2.1 names this condition temporarily_unavailable; it lasts until an
            // operator configures delivery, so no Retry-After is promised.
            status = 503
            envelope = .init(
                error: NativeAuthErrorCode(rawValue: "temporarily_unavailable"),
                errorDescription: "This server cannot deliver one-time codes: no delivery is configured.")
        case .deviceAuthorization(let device):
            envelope = Self.envelope(device)
        case .invalidAccessToken:
            status = 401
            headers.add("WWW-Authenticate", "Bearer error=\"invalid_token\"")
            envelope = .init(
                error: NativeAuthErrorCode(rawValue: "invalid_token"), errorDescription: "The access token is not valid.")
        }
        return render(envelope, status: status, request: request, headers: headers)
    }

    /// The envelope for a failure of the HTTP layer or router under native-auth paths (malformed
    /// body, wrong content type, 404, 405, 413, 431, 500).
    func render(_ error: HTTPError, for request: HTTPRequest) -> HTTPResponse {
        if error.status == 503 {
            return error.addingRetryAfter(
                to: render(
                    .init(error: NativeAuthErrorCode(rawValue: "temporarily_unavailable"), errorDescription: error.message),
                    status: 503, request: request))
        }
        if error.status >= 500 { return serverError(for: request) }
        return render(
            .init(error: .invalidRequest, errorDescription: error.message, errorCodes: [ServerErrorCode.invalidRequestParameter]),
            status: error.status, request: request)
    }

    /// A server-side failure: no detail beyond the trace id.
    func serverError(for request: HTTPRequest) -> HTTPResponse {
        render(
            .init(
                error: .serverError,
                errorDescription: "The server failed to process the request; trace id \(request.requestID)."),
            status: 500, request: request)
    }

    private func render(
        _ envelope: NativeAuthErrorResponse, status: Int, request: HTTPRequest, headers: HTTPHeaders = HTTPHeaders()
    ) -> HTTPResponse {
        var envelope = envelope
        envelope.timestamp = UTCTimestamp.nativeAuth(clock.now())
        envelope.traceID = request.requestID
        envelope.correlationID = request.correlationID
        return .json(status, JSONBody.encode(envelope), headers: headers)
    }

    /// The form parameter that carries `parameter` on this wire.
    static func wireName(of parameter: AuthParameter) -> String {
        switch parameter {
        case .username: "username"
        case .password: "password"
        case .newPassword: "new_password"
        case .clientID: "client_id"
        case .continuationToken: "continuation_token"
        case .grantType: "grant_type"
        case .challengeType: "challenge_type"
        case .oneTimeCode: "oob"
        case .attributes: "attributes"
        case .refreshToken: "refresh_token"
        case .scope: "scope"
        case .tenantName: "tenant"
        case .email: "email"
        case .keyID: "kid"
        case .token: "token"
        case .adminTokenID: "id"
        case .adminTokenLabel: "name"
        case .authMethodID: "id"
        case .apiKey: "key"
        case .uid: "uid"
        case .claims: "claims"
        case .requestURI: "requestUri"
        case .providerID: "providerId"
        case .issuer: "issuer"
        case .jwks: "jwks"
        case .requestType: "request_type"
        case .newEmail: "new_email"
        case .continueURL: "continue_url"
        case .code: "code"
        case .codeVerifier: "code_verifier"
        case .redirectURI: "redirect_uri"
        case .deviceCode: "device_code"
        case .userCode: "user_code"
        }
    }

    /// RFC 8628 § 3.5: each poll outcome is its own `error` with HTTP 400; a device code that is
    /// unknown, used or another client's is RFC 6749 § 5.2 `invalid_grant`.
    private static func envelope(_ failure: DeviceFlowFailure) -> NativeAuthErrorResponse {
        switch failure {
        case .authorizationPending:
            // Entra's code for a pending device authorization, which MSAL keeps polling on.
            .init(
                error: .authorizationPending, errorDescription: "The user has not yet approved the request; keep polling.",
                errorCodes: [ServerErrorCode.authorizationPending])
        case .slowDown(let interval):
            .init(
                error: .slowDown,
                errorDescription: "Polling too often; wait at least \(interval) seconds between requests.")
        case .expired:
            .init(
                error: .expiredToken, errorDescription: "The device code expired; start a new device authorization.",
                errorCodes: [ServerErrorCode.expired])
        case .denied:
            .init(error: .accessDenied, errorDescription: "The user denied the request.")
        case .invalidDeviceCode:
            .init(
                error: .invalidGrant,
                errorDescription: "The device_code is not valid: it is unknown, was already used, or belongs to another client.")
        case .invalidUserCode:
            .init(error: .invalidGrant, errorDescription: "The user code is not valid or has expired.")
        }
    }

    private static func suberror(for violation: PasswordViolation) -> NativeAuthSuberror {
        switch violation {
        case .tooShort: .passwordTooShort
        case .tooLong: .passwordTooLong
        case .banned: .passwordBanned
        case .tooWeak: .passwordTooWeak
        case .invalidCharacters: .passwordIsInvalid
        }
    }
}
