extension LatchError {
    /// A stable error code. Raw values keep the numbers developers already know: Firebase Auth's
    /// 17xxx codes where Firebase has the same meaning, MSAL's −50xxx codes for the token-acquisition
    /// outcomes MSAL defines, and 19xxx (Latch's own range) for native-auth outcomes neither has.
    /// One meaning, one code: a wrong password is ``wrongPassword`` whichever wire reported it.
    ///
    /// A growing value set, so a struct of constants rather than an enum; `catch` can match a code
    /// directly: `catch LatchError.Code.wrongPassword { … }`.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The numeric value.
        public let rawValue: Int
        /// Wraps a numeric value.
        public init(rawValue: Int) { self.rawValue = rawValue }

        // MARK: Firebase Auth numbers (FIRAuthErrorCode)

        /// The user is disabled (Firebase 17005).
        public static let userDisabled = Code(rawValue: 17005)
        /// The operation is not allowed for this client or tenant (Firebase 17006).
        public static let operationNotAllowed = Code(rawValue: 17006)
        /// An account with this username exists (Firebase 17007 `ERROR_EMAIL_ALREADY_IN_USE`).
        public static let userAlreadyExists = Code(rawValue: 17007)
        /// The username is not a valid e-mail address (Firebase 17008).
        public static let invalidEmail = Code(rawValue: 17008)
        /// Wrong username or password (Firebase 17009).
        public static let wrongPassword = Code(rawValue: 17009)
        /// Too many requests; wait for ``LatchError/retryAfter`` (Firebase 17010).
        public static let tooManyRequests = Code(rawValue: 17010)
        /// No account has this username (Firebase 17011).
        public static let userNotFound = Code(rawValue: 17011)
        /// The network failed; ``LatchError/underlyingError`` is the `URLError` (Firebase 17020).
        public static let networkError = Code(rawValue: 17020)
        /// The password breaks the policy; ``LatchError/suberror`` says which rule (Firebase 17026).
        public static let weakPassword = Code(rawValue: 17026)
        /// The one-time code is wrong (Firebase 17044).
        public static let invalidCode = Code(rawValue: 17044)
        /// The credential store failed; the cause is in ``LatchError/underlyingError`` (Firebase 17995).
        public static let credentialStoreError = Code(rawValue: 17995)
        /// A token could not be decoded (Firebase 18000).
        public static let malformedJWT = Code(rawValue: 18000)

        // MARK: MSAL numbers (MSALError)

        /// Anything else; see ``LatchError/message`` (MSAL −50000).
        public static let `internal` = Code(rawValue: -50000)
        /// Silent acquisition failed: the session expired or was revoked, or the server asks for
        /// more (``LatchError/claimsChallenge``, then the session is still valid: step up with
        /// ``LatchClient/stepUp(account:claims:scopes:correlationID:)``); sign in again (MSAL −50002).
        public static let interactionRequired = Code(rawValue: -50002)
        /// The server granted fewer scopes than requested (MSAL −50003). The tokens are stored all the
        /// same; ``LatchError/grantedScopes`` and ``LatchError/declinedScopes`` say which, and a silent
        /// acquisition for the granted ones is served from the cache.
        public static let serverDeclinedScopes = Code(rawValue: -50003)
        /// An app-protection policy must be applied first (MSAL −50004): ``LatchError/protectionPolicy``
        /// names it; supply the evidence through ``LatchConfiguration/requestHeaders`` and try again.
        public static let serverProtectionPoliciesRequired = Code(rawValue: -50004)
        /// The user cancelled (MSAL −50005).
        public static let userCanceled = Code(rawValue: -50005)
        /// The server failed (HTTP 5xx) (MSAL −50006).
        public static let serverError = Code(rawValue: -50006)

        // MARK: Latch native auth (19xxx)

        /// The flow cannot finish natively; use the browser (`redirect` answer).
        public static let browserRequired = Code(rawValue: 19001)
        /// The one-time code expired; request a new one.
        public static let codeExpired = Code(rawValue: 19002)
        /// The code was entered wrongly too often; request a new one.
        public static let codeAttemptsExceeded = Code(rawValue: 19003)
        /// The flow (continuation token) expired; start again.
        public static let flowExpired = Code(rawValue: 19004)
        /// The flow state is no longer valid (used already, or bound to another client); start again.
        public static let invalidFlowState = Code(rawValue: 19005)
        /// Sign-up attributes failed validation; see ``LatchError/invalidAttributes``.
        public static let invalidAttributes = Code(rawValue: 19006)
        /// The client id is not registered in the tenant.
        public static let unknownClient = Code(rawValue: 19007)
        /// The tenant does not exist.
        public static let unknownTenant = Code(rawValue: 19008)
        /// A requested scope is invalid or not allowed for the client.
        public static let invalidScope = Code(rawValue: 19009)
        /// A required argument was empty (checked before any request).
        public static let missingInput = Code(rawValue: 19010)
        /// The server's answer could not be understood.
        public static let unexpectedResponse = Code(rawValue: 19011)
        /// The configuration asks for something this version of the SDK cannot do (a challenge type
        /// or capability it cannot complete); raised when the client is made.
        public static let invalidConfiguration = Code(rawValue: 19012)
        /// The second-factor method chosen is blocked (the server's reputation check refused it,
        /// `access_denied` + `provider_blocked_by_rep` at `oauth2/v2.0/challenge`); offer another of
        /// ``MFARequiredState/authMethods``. MSAL's `authMethodBlocked`.
        public static let authMethodBlocked = Code(rawValue: 19013)
        /// The second-factor or registration code is wrong (`invalid_oob_value` at the `mfa_oob`
        /// grant or `register/v1.0/continue`); the state stays usable: ask again, or send a new code
        /// when ``LatchError/recovery`` says ``LatchError/Recovery/resendCode``. MSAL's `invalidChallenge`.
        public static let invalidChallenge = Code(rawValue: 19014)
        /// The verification contact given to register a strong authentication method is not valid
        /// (`invalid_request` with 901001); correct it. MSAL's `invalidInput`.
        public static let invalidInput = Code(rawValue: 19015)
        /// The verification contact given to register a strong authentication method is blocked
        /// (`access_denied` + `provider_blocked_by_rep` at `register/v1.0/challenge`); use another
        /// contact or method. MSAL's `verificationContactBlocked`.
        public static let verificationContactBlocked = Code(rawValue: 19016)

        /// The cross-platform name, e.g. `ERROR_WRONG_PASSWORD`.
        public var name: String { Self.names[rawValue] ?? "ERROR_UNKNOWN_\(rawValue)" }

        public var description: String { "\(name) (\(rawValue))" }

        private static let names: [Int: String] = [
            17005: "ERROR_USER_DISABLED", 17006: "ERROR_OPERATION_NOT_ALLOWED", 17007: "ERROR_EMAIL_ALREADY_IN_USE",
            17008: "ERROR_INVALID_EMAIL", 17009: "ERROR_WRONG_PASSWORD", 17010: "ERROR_TOO_MANY_REQUESTS",
            17011: "ERROR_USER_NOT_FOUND", 17020: "ERROR_NETWORK_REQUEST_FAILED", 17026: "ERROR_WEAK_PASSWORD",
            17044: "ERROR_INVALID_VERIFICATION_CODE", 17995: "ERROR_KEYCHAIN_ERROR", 18000: "ERROR_MALFORMED_JWT",
            -50000: "ERROR_INTERNAL", -50002: "ERROR_INTERACTION_REQUIRED", -50003: "ERROR_SERVER_DECLINED_SCOPES",
            -50004: "ERROR_SERVER_PROTECTION_POLICIES_REQUIRED", -50005: "ERROR_USER_CANCELED",
            -50006: "ERROR_SERVER_ERROR", 19001: "ERROR_BROWSER_REQUIRED", 19002: "ERROR_CODE_EXPIRED",
            19003: "ERROR_CODE_ATTEMPTS_EXCEEDED", 19004: "ERROR_FLOW_EXPIRED", 19005: "ERROR_INVALID_FLOW_STATE",
            19006: "ERROR_INVALID_ATTRIBUTES", 19007: "ERROR_UNKNOWN_CLIENT", 19008: "ERROR_UNKNOWN_TENANT",
            19009: "ERROR_INVALID_SCOPE", 19010: "ERROR_MISSING_INPUT", 19011: "ERROR_UNEXPECTED_RESPONSE",
            19012: "ERROR_INVALID_CONFIGURATION", 19013: "ERROR_AUTH_METHOD_BLOCKED", 19014: "ERROR_INVALID_CHALLENGE",
            19015: "ERROR_INVALID_INPUT", 19016: "ERROR_VERIFICATION_CONTACT_BLOCKED",
        ]

        /// Lets `catch LatchError.Code.x` match a thrown ``LatchError``.
        public static func ~= (code: Code, error: any Error) -> Bool {
            (error as? LatchError)?.code == code
        }
    }
}
