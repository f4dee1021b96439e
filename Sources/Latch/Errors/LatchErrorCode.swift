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

        /// The custom token is malformed, expired or not signed by a key of the tenant (Firebase
        /// 17000, `INVALID_CUSTOM_TOKEN`).
        public static let invalidCustomToken = Code(rawValue: 17000)
        /// The custom token was signed for another tenant (project) than the client's (Firebase
        /// 17002, `CREDENTIAL_MISMATCH`).
        public static let customTokenMismatch = Code(rawValue: 17002)

        /// The credential is invalid, expired or malformed; under e-mail enumeration protection also
        /// a wrong password or an unknown e-mail (Firebase 17004, `INVALID_LOGIN_CREDENTIALS`).
        public static let invalidCredential = Code(rawValue: 17004)
        /// The user is disabled (Firebase 17005).
        public static let userDisabled = Code(rawValue: 17005)
        /// The operation is not allowed for this client or tenant (Firebase 17006).
        public static let operationNotAllowed = Code(rawValue: 17006)
        /// An account with this username exists (Firebase 17007 `ERROR_EMAIL_ALREADY_IN_USE`).
        public static let userAlreadyExists = Code(rawValue: 17007)
        /// Firebase's name for ``userAlreadyExists``: the same code, 17007.
        public static let emailAlreadyInUse = userAlreadyExists
        /// The username is not a valid e-mail address (Firebase 17008).
        public static let invalidEmail = Code(rawValue: 17008)
        /// Wrong username or password (Firebase 17009).
        public static let wrongPassword = Code(rawValue: 17009)
        /// Too many requests; wait for ``LatchError/retryAfter`` (Firebase 17010).
        public static let tooManyRequests = Code(rawValue: 17010)
        /// No account has this username (Firebase 17011).
        public static let userNotFound = Code(rawValue: 17011)
        /// A security-sensitive change (e-mail, password, deletion) needs a recent sign-in:
        /// An account with the credential's e-mail exists and signs in another way; sign in with that
        /// way, then link this credential. ``LatchError/email`` is the address (Firebase 17012,
        /// raised by the client for a `needConfirmation` answer).
        public static let accountExistsWithDifferentCredential = Code(rawValue: 17012)
        /// reauthenticate, then try again (Firebase 17014, `CREDENTIAL_TOO_OLD_LOGIN_AGAIN`).
        public static let requiresRecentLogin = Code(rawValue: 17014)
        /// The provider is already linked to the user; raised before any request (Firebase 17015).
        public static let providerAlreadyLinked = Code(rawValue: 17015)
        /// The provider is not linked to the user; raised before any request (Firebase 17016).
        public static let noSuchProvider = Code(rawValue: 17016)
        /// The user's token is not valid (Firebase 17017, `INVALID_ID_TOKEN`); the user is signed
        /// out locally.
        public static let invalidUserToken = Code(rawValue: 17017)
        /// The network failed; ``LatchError/underlyingError`` is the `URLError` (Firebase 17020).
        public static let networkError = Code(rawValue: 17020)
        /// The user's session expired or was revoked, e.g. the password changed on another device
        /// (Firebase 17021, `TOKEN_EXPIRED`); the user is signed out locally.
        public static let userTokenExpired = Code(rawValue: 17021)
        /// The API key (``LatchConfiguration/apiKey``) is missing or not valid (Firebase 17023).
        public static let invalidAPIKey = Code(rawValue: 17023)
        /// A reauthentication named another user than the signed-in one (Firebase 17024).
        public static let userMismatch = Code(rawValue: 17024)
        /// The credential is already linked to another account (Firebase 17025,
        /// `FEDERATED_USER_ID_ALREADY_LINKED`).
        public static let credentialAlreadyInUse = Code(rawValue: 17025)
        /// The password breaks the policy; ``LatchError/suberror`` says which rule (Firebase 17026).
        public static let weakPassword = Code(rawValue: 17026)
        /// The app is not authorized to use this API key (Firebase 17028, `ipRefererBlocked`).
        public static let appNotAuthorized = Code(rawValue: 17028)
        /// The action code (password reset, e-mail verification) expired (Firebase 17029,
        /// `EXPIRED_OOB_CODE`).
        public static let expiredActionCode = Code(rawValue: 17029)
        /// The action code is not valid, or was used already (Firebase 17030, `INVALID_OOB_CODE`).
        public static let invalidActionCode = Code(rawValue: 17030)
        /// An e-mail address is required (Firebase 17034, `MISSING_EMAIL`).
        public static let missingEmail = Code(rawValue: 17034)
        /// The one-time code is wrong (Firebase 17044).
        public static let invalidCode = Code(rawValue: 17044)
        /// The nonce sent with an OpenID Connect credential is missing, or its SHA-256 is not the
        /// ID token's `nonce` claim (Firebase 17094, `MISSING_OR_INVALID_NONCE`).
        public static let missingOrInvalidNonce = Code(rawValue: 17094)
        /// The credential store failed; the cause is in ``LatchError/underlyingError`` (Firebase 17995).
        public static let credentialStoreError = Code(rawValue: 17995)
        /// The server answered in a way the Firebase-style API does not know (Firebase 17999,
        /// `ERROR_INTERNAL_ERROR`): an unmapped `error.message`, or a body that is not the error
        /// envelope. The user stays signed in.
        public static let internalError = Code(rawValue: 17999)
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
        /// The redirect of an interactive sign-in carried a `state` other than the one sent (or
        /// none): it may be forged (RFC 6749 § 10.12), so no code is exchanged; start again (MSAL's
        /// internal InvalidState, −42501).
        public static let stateMismatch = Code(rawValue: -42501)
        /// The redirect of an interactive sign-in is not an authorization response (RFC 6749
        /// § 4.1.2): it carries neither a `code` nor an `error` (MSAL's internal InvalidResponse, −42600).
        public static let invalidAuthorizationResponse = Code(rawValue: -42600)

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
        /// The device code expired before the user approved it (`expired_token` at the device grant,
        /// RFC 8628 § 3.5); start the device flow again.
        public static let deviceCodeExpired = Code(rawValue: 19017)
        /// The authorization endpoint redirected back with an error no other code describes
        /// (`invalid_request`, `unsupported_response_type`, … RFC 6749 § 4.1.2.1);
        /// ``LatchError/oauthError`` names it.
        public static let authorizationFailed = Code(rawValue: 19018)
        /// No browser could be opened for an interactive sign-in (the browser command failed or the
        /// platform has none); use the device flow, or supply a ``LatchWebBrowser``.
        public static let browserUnavailable = Code(rawValue: 19019)

        /// The cross-platform name, e.g. `ERROR_WRONG_PASSWORD`.
        public var name: String { Self.names[rawValue] ?? "ERROR_UNKNOWN_\(rawValue)" }

        public var description: String { "\(name) (\(rawValue))" }

        private static let names: [Int: String] = [
            17000: "ERROR_INVALID_CUSTOM_TOKEN", 17002: "ERROR_CUSTOM_TOKEN_MISMATCH",
            17012: "ERROR_ACCOUNT_EXISTS_WITH_DIFFERENT_CREDENTIAL", 17005: "ERROR_USER_DISABLED",
            17006: "ERROR_OPERATION_NOT_ALLOWED", 17007: "ERROR_EMAIL_ALREADY_IN_USE",
            17008: "ERROR_INVALID_EMAIL", 17009: "ERROR_WRONG_PASSWORD", 17010: "ERROR_TOO_MANY_REQUESTS",
            17011: "ERROR_USER_NOT_FOUND", 17020: "ERROR_NETWORK_REQUEST_FAILED", 17026: "ERROR_WEAK_PASSWORD",
            17044: "ERROR_INVALID_VERIFICATION_CODE", 17004: "ERROR_INVALID_CREDENTIAL",
            17014: "ERROR_REQUIRES_RECENT_LOGIN", 17015: "ERROR_PROVIDER_ALREADY_LINKED", 17016: "ERROR_NO_SUCH_PROVIDER",
            17017: "ERROR_INVALID_USER_TOKEN", 17021: "ERROR_USER_TOKEN_EXPIRED", 17023: "ERROR_INVALID_API_KEY",
            17024: "ERROR_USER_MISMATCH", 17025: "ERROR_CREDENTIAL_ALREADY_IN_USE", 17028: "ERROR_APP_NOT_AUTHORIZED",
            17029: "ERROR_EXPIRED_ACTION_CODE", 17030: "ERROR_INVALID_ACTION_CODE", 17034: "ERROR_MISSING_EMAIL",
            17094: "ERROR_MISSING_OR_INVALID_NONCE",
            17999: "ERROR_INTERNAL_ERROR", 17995: "ERROR_KEYCHAIN_ERROR", 18000: "ERROR_MALFORMED_JWT",
            -50000: "ERROR_INTERNAL", -50002: "ERROR_INTERACTION_REQUIRED", -50003: "ERROR_SERVER_DECLINED_SCOPES",
            -50004: "ERROR_SERVER_PROTECTION_POLICIES_REQUIRED", -50005: "ERROR_USER_CANCELED",
            -50006: "ERROR_SERVER_ERROR", 19001: "ERROR_BROWSER_REQUIRED", 19002: "ERROR_CODE_EXPIRED",
            19003: "ERROR_CODE_ATTEMPTS_EXCEEDED", 19004: "ERROR_FLOW_EXPIRED", 19005: "ERROR_INVALID_FLOW_STATE",
            19006: "ERROR_INVALID_ATTRIBUTES", 19007: "ERROR_UNKNOWN_CLIENT", 19008: "ERROR_UNKNOWN_TENANT",
            19009: "ERROR_INVALID_SCOPE", 19010: "ERROR_MISSING_INPUT", 19011: "ERROR_UNEXPECTED_RESPONSE",
            19012: "ERROR_INVALID_CONFIGURATION", 19013: "ERROR_AUTH_METHOD_BLOCKED", 19014: "ERROR_INVALID_CHALLENGE",
            19015: "ERROR_INVALID_INPUT", 19016: "ERROR_VERIFICATION_CONTACT_BLOCKED",
            19017: "ERROR_DEVICE_CODE_EXPIRED", 19018: "ERROR_AUTHORIZATION_FAILED", 19019: "ERROR_BROWSER_UNAVAILABLE",
            -42501: "ERROR_STATE_MISMATCH", -42600: "ERROR_INVALID_AUTHORIZATION_RESPONSE",
        ]

        /// Lets `catch LatchError.Code.x` match a thrown ``LatchError``.
        public static func ~= (code: Code, error: any Error) -> Bool {
            (error as? LatchError)?.code == code
        }
    }
}
