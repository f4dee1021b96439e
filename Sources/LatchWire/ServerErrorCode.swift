/// Numeric codes carried in `error_codes[]` of the native-auth error envelope.
///
/// Codes below 9 000 000 keep the values Entra ID uses so that MSAL-shaped clients refine errors the
/// same way; codes from 9 000 000 are Latch's own.
public enum ServerErrorCode {
    /// No account has this username.
    public static let userNotFound = 50034
    /// Wrong username or password.
    public static let invalidCredentials = 50126
    /// The account has no password; sign in with a code.
    public static let userHasNoPassword = 500222
    /// A request parameter is missing or malformed.
    public static let invalidRequestParameter = 90100
    /// The tenant does not exist.
    public static let tenantNotFound = 90002
    /// The client (application) does not exist in the tenant.
    public static let clientNotFound = 700016
    /// The account must reset its password.
    public static let passwordResetRequired = 50142
    /// The verification contact is invalid.
    public static let invalidVerificationContact = 901001
    /// A second factor is needed to refresh.
    public static let mfaRequiredOnRefresh = 50076
    /// Sign-up needs a credential next.
    public static let credentialRequired = 55103
    /// Sign-up needs more attributes.
    public static let attributesRequired = 55106
    /// The continuation token or code expired.
    public static let expired = 552003
    /// The continuation token is unknown, already used or belongs to another client.
    public static let invalidContinuationToken = 55200
    /// An account with this username exists.
    public static let userAlreadyExists = 1003037
    /// The password does not meet the policy.
    public static let weakPassword = 399246
    /// The one-time code is wrong.
    public static let invalidCode = 50181
    /// The device authorization is still pending: the user has not entered or approved the code
    /// (Entra AADSTS70016).
    public static let authorizationPending = 70016
    /// The refresh token expired, was revoked, or its session ended.
    public static let refreshTokenRevoked = 70008
    /// The refresh token is unknown.
    public static let invalidRefreshToken = 9002313
    /// The one-time code was attempted too many times; request a new one.
    public static let codeAttemptsExceeded = 9_000_001
    /// A rotated refresh token was presented again; its whole family is revoked.
    public static let refreshTokenReused = 9_000_002
    /// The account is disabled.
    public static let userDisabled = 9_000_003
    /// The requested scope is not allowed for this client.
    public static let scopeNotAllowed = 9_000_004
    /// Too many attempts: sign-in is delayed after repeated failures, or too many codes were sent;
    /// retry after the `Retry-After` seconds.
    public static let tooManyAttempts = 9_000_005
}
