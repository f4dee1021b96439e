import Foundation
import LatchHTTP
import LatchWire

/// The one table that renders a domain ``AuthFailure`` on the native-auth (and OAuth token) wire:
/// HTTP status, `error`, `suberror`, numeric `error_codes` and the extra members each carries.
enum NativeAuthErrorTable {
    /// The response for `failure`.
    static func response(for failure: AuthFailure, context: WireContext, now: Date) -> HTTPResponse {
        if case .browserRequired(let reason) = failure {
            return JSONBody.ok(["challenge_type": "redirect", "redirect_reason": reason])
        }
        var status = 400
        var headers = HTTPHeaders()
        var envelope: NativeAuthErrorResponse
        switch failure {
        case .invalidRequest(let message):
            envelope = .init(
                error: .invalidRequest, errorDescription: message, errorCodes: [ServerErrorCode.invalidRequestParameter])
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
        case .unsupportedChallengeType:
            envelope = .init(
                error: .unsupportedChallengeType,
                errorDescription: "challenge_type must include 'redirect' so the flow can fall back to a browser.")
        case .unsupportedGrantType(let grant):
            envelope = .init(
                error: .unsupportedGrantType, errorDescription: "grant_type '\(grant.prefix(64))' is not supported here.")
        case .browserRequired:
            preconditionFailure("rendered above")
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
                suberror: suberror(for: violation))
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
        case .credentialRequired(let token):
            envelope = .init(
                error: .credentialRequired, errorDescription: "A password is required to finish sign-up.",
                errorCodes: [ServerErrorCode.credentialRequired], continuationToken: token)
        case .attributesRequired(let token, let attributes):
            envelope = .init(
                error: .attributesRequired, errorDescription: "More attributes are required to finish sign-up.",
                errorCodes: [ServerErrorCode.attributesRequired], continuationToken: token)
            envelope.requiredAttributes = attributes.map {
                RequiredAttribute(name: $0.name, type: $0.type, required: $0.required, options: $0.regex.map { .init(regex: $0) })
            }
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
        case .refreshTokenRevoked:
            envelope = .init(
                error: .invalidGrant, errorDescription: "The refresh token expired or its session was revoked; sign in again.",
                errorCodes: [ServerErrorCode.refreshTokenRevoked])
        case .refreshTokenReused:
            envelope = .init(
                error: .invalidGrant,
                errorDescription: "The refresh token was already used; the session is revoked. Sign in again.",
                errorCodes: [ServerErrorCode.refreshTokenReused])
        case .tooManyAttempts(let retryAfter):
            // RFC 6585 § 4 and RFC 9110 § 10.2.3: 429 with the wait in whole seconds.
            let seconds = max(1, retryAfter)
            status = 429
            headers.add("Retry-After", String(seconds))
            envelope = .init(
                error: .tooManyRequests, errorDescription: "Too many attempts; try again in \(seconds) seconds.",
                errorCodes: [ServerErrorCode.tooManyAttempts])
        case .invalidAccessToken:
            status = 401
            headers.add("WWW-Authenticate", "Bearer error=\"invalid_token\"")
            envelope = .init(
                error: NativeAuthErrorCode(rawValue: "invalid_token"), errorDescription: "The access token is not valid.")
        }
        envelope.timestamp = WireContext.timestamp(now)
        envelope.traceID = context.traceID
        envelope.correlationID = context.correlationID
        return .json(status, JSONBody.encode(envelope), headers: headers)
    }

    /// The envelope for a request the HTTP layer refused (malformed body, wrong content type).
    static func response(for error: HTTPError, context: WireContext, now: Date) -> HTTPResponse {
        var envelope = NativeAuthErrorResponse(
            error: .invalidRequest, errorDescription: error.message, errorCodes: [ServerErrorCode.invalidRequestParameter])
        envelope.timestamp = WireContext.timestamp(now)
        envelope.traceID = context.traceID
        envelope.correlationID = context.correlationID
        return .json(error.status, JSONBody.encode(envelope))
    }

    /// A server-side failure: no detail beyond the trace id.
    static func serverError(context: WireContext, now: Date) -> HTTPResponse {
        var envelope = NativeAuthErrorResponse(
            error: .serverError, errorDescription: "The server failed to process the request; trace id \(context.traceID).")
        envelope.timestamp = WireContext.timestamp(now)
        envelope.traceID = context.traceID
        envelope.correlationID = context.correlationID
        return .json(500, JSONBody.encode(envelope))
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
