import Foundation
internal import LatchWire

/// The one error type of the Latch SDK.
///
/// Handle failures by ``code`` (stable numbers) and ``recovery`` (what to do next); ``message`` is
/// for developers and logs, not for end users. Network failures keep the original `URLError` in
/// ``underlyingError``, so `NSURLErrorDomain` / `NSURLErrorNotConnectedToInternet` stay checkable.
///
/// ```swift
/// do {
///     _ = try await client.acquireTokenSilent(scopes: ["openid"], account: account)
/// } catch let error as LatchError {
///     switch error.recovery {
///     case .signInAgain: showSignIn()
///     case .retry(let after): scheduleRetry(after: after)
///     default: log(error)
///     }
/// }
/// ```
public struct LatchError: Error, Sendable, CustomStringConvertible {
    /// The stable code.
    public let code: Code
    /// A developer-facing description.
    public let message: String
    /// Why it failed, in more detail (e.g. which password rule), when known.
    public let failureReason: String?
    /// The cause: the `URLError` of a network failure, a ``CredentialStoreError``, a decoding error.
    public let underlyingError: (any Error)?
    /// How long to wait before retrying (from `Retry-After`, RFC 9110 § 10.2.3), when the server said.
    public let retryAfter: TimeInterval?
    /// The correlation id of the flow the error belongs to: the `client-request-id` its requests
    /// carried (or the id the server answered with), also when the error was raised before any
    /// request. Quote it to support; the server logs it with every request.
    public internal(set) var correlationID: String?
    /// The HTTP status of the server's answer, when there was one.
    public let httpStatus: Int?
    /// The OAuth `error` value (RFC 6749 § 5.2), when the server sent one.
    public let oauthError: String?
    /// The native-auth `suberror`, e.g. `password_too_short`.
    public let suberror: String?
    /// The server's numeric `error_codes`.
    public let serverErrorCodes: [Int]
    /// Attributes the server found invalid (``Code/invalidAttributes``).
    public let invalidAttributes: [String]
    /// A claims challenge (OpenID Connect Core § 5.5 `claims` request) to pass to the next sign-in,
    /// when the server asked for one. Not the claims of a token: those are ``LatchAccount/claims``.
    public let claimsChallenge: String?
    /// The scopes the server granted, with ``Code/serverDeclinedScopes`` (as the token response
    /// named them).
    public let grantedScopes: [String]
    /// The requested scopes the server did not grant, with ``Code/serverDeclinedScopes``
    /// (`openid`, `profile` and `offline_access` are never counted).
    public let declinedScopes: [String]
    /// The protection policy the app must satisfy, with ``Code/serverProtectionPoliciesRequired``
    /// (the server's `protection_policy`, e.g. `app_attestation`).
    public let protectionPolicy: String?
    /// The e-mail address an ``Code/accountExistsWithDifferentCredential`` or
    /// ``Code/credentialAlreadyInUse`` error is about (Firebase's `FIRAuthErrorUserInfoEmailKey`).
    public internal(set) var email: String?
    /// The username of the account an ``Code/interactionRequired`` error of a silent call is about:
    /// the `login_hint` for the interactive sign-in that recovers
    /// (``LatchInteractiveParameters/init(error:scopes:browser:timeout:)``).
    public internal(set) var loginHint: String?
    /// The flow's next continuation token, when the answer carried one (internal: flow states use it).
    var continuationToken: String?
    /// Attributes the server still requires (internal: becomes a sign-up state).
    var requiredAttributes: [RequiredAttribute] = []

    /// Creates an error; the SDK builds these through its mapping table.
    public init(
        code: Code, message: String, failureReason: String? = nil, underlyingError: (any Error)? = nil,
        retryAfter: TimeInterval? = nil, correlationID: String? = nil, httpStatus: Int? = nil,
        oauthError: String? = nil, suberror: String? = nil, serverErrorCodes: [Int] = [],
        invalidAttributes: [String] = [], claimsChallenge: String? = nil, grantedScopes: [String] = [],
        declinedScopes: [String] = [], protectionPolicy: String? = nil
    ) {
        self.code = code
        self.message = message
        self.failureReason = failureReason
        self.underlyingError = underlyingError
        self.retryAfter = retryAfter
        self.correlationID = correlationID
        self.httpStatus = httpStatus
        self.oauthError = oauthError
        self.suberror = suberror
        self.serverErrorCodes = serverErrorCodes
        self.invalidAttributes = invalidAttributes
        self.claimsChallenge = claimsChallenge
        self.grantedScopes = grantedScopes
        self.declinedScopes = declinedScopes
        self.protectionPolicy = protectionPolicy
    }

    /// The cross-platform name, e.g. `ERROR_WRONG_PASSWORD`.
    public var name: String { code.name }

    /// Whether retrying the same call unchanged may succeed: only network errors, server errors
    /// (HTTP 5xx) and too-many-requests.
    public var isRetryable: Bool {
        code == .networkError || code == .serverError || code == .tooManyRequests
    }

    /// What the app should do next.
    public var recovery: Recovery {
        switch code {
        case .networkError, .serverError, .tooManyRequests: .retry(after: retryAfter)
        case .wrongPassword, .weakPassword, .invalidEmail, .invalidAttributes, .missingInput, .invalidCode, .invalidInput:
            .correctInput
        case .codeExpired, .codeAttemptsExceeded: .resendCode
        case .invalidChallenge:
            serverErrorCodes.contains(ServerErrorCode.expired) || serverErrorCodes.contains(ServerErrorCode.codeAttemptsExceeded)
                ? .resendCode : .correctInput
        case .authMethodBlocked, .verificationContactBlocked: .chooseAnotherMethod
        case .serverDeclinedScopes: .retryWithScopes(grantedScopes)
        case .serverProtectionPoliciesRequired: .satisfyProtectionPolicy(name: protectionPolicy ?? "")
        case .flowExpired, .invalidFlowState, .stateMismatch, .deviceCodeExpired: .restartFlow
        case .interactionRequired: .signInAgain(claimsChallenge: claimsChallenge)
        case .userTokenExpired, .invalidUserToken, .requiresRecentLogin: .signInAgain(claimsChallenge: nil)
        case .browserRequired: .useBrowser
        case .userAlreadyExists: .signInInstead
        case .userNotFound: .signUpInstead
        case .credentialStoreError: .checkCredentialStore
        default: .none
        }
    }

    public var description: String {
        var text = "\(code.name) (\(code.rawValue)): \(message)"
        if let failureReason { text += " — \(failureReason)" }
        if let correlationID { text += " [correlation id \(correlationID)]" }
        return text
    }
}
