/// Every way a domain operation can fail, in domain terms. Adapters render it per wire family
/// (native auth, OAuth, accounts) from one table each; the domain never speaks wire formats.
public enum AuthFailure: Error, Sendable, Equatable {
    /// A required parameter is absent or empty.
    case missingParameter(AuthParameter)
    /// A parameter is present but malformed or unacceptable (the value is never echoed).
    case invalidParameter(AuthParameter)
    /// The request does not fit the flow's current step (e.g. a code submitted before one was sent);
    /// the text says what was expected.
    case outOfOrder(String)
    /// The tenant in the path does not exist.
    case unknownTenant
    /// The client id is unknown in this tenant.
    case unknownClient
    /// A confidential client's authentication failed, or a public client sent a secret (RFC 6749
    /// § 5.2 `invalid_client`); `basic` when the request tried HTTP Basic, which the answer then
    /// challenges with `WWW-Authenticate: Basic`.
    case invalidClientAuthentication(basic: Bool)
    /// The request authenticated the client in more than one way (RFC 6749 § 2.3: a client must
    /// not use more than one method per request).
    case multipleClientAuthentications
    /// The client may not use this flow or grant.
    case unauthorizedClient(String)
    /// The client's declared challenge types are not acceptable (native auth: `redirect` missing).
    case unsupportedChallengeType
    /// The grant type is not supported here; carries the value the client sent, for the message.
    case unsupportedGrantType(String)
    /// No account has this username.
    case userNotFound
    /// An account with this username exists.
    case userAlreadyExists
    /// Wrong username or password.
    case invalidCredentials
    /// The account is disabled.
    case userDisabled
    /// The password breaks the policy.
    case passwordPolicy(PasswordViolation)
    /// The one-time code is wrong.
    case invalidCode
    /// The one-time code expired; request a new one.
    case codeExpired
    /// The code was tried too often; request a new one.
    case codeAttemptsExceeded
    /// The continuation token is unknown, used already, or bound to another tenant or client.
    case invalidContinuationToken
    /// The continuation token expired.
    case continuationTokenExpired
    /// These attributes failed validation.
    case invalidAttributes([String])
    /// A requested scope is malformed or not allowed for the client.
    case invalidScope(String)
    /// The refresh token is unknown or malformed.
    case invalidRefreshToken
    /// The refresh token's session expired or was revoked.
    case refreshTokenRevoked
    /// A rotated refresh token was presented again; its whole session is now revoked.
    case refreshTokenReused
    /// A bearer token was missing, malformed or invalid (RFC 6750 § 3.1).
    case invalidAccessToken
    /// One-time codes cannot be delivered: the server has no delivery transport configured.
    case deliveryUnavailable
    /// The contact given for a strong authentication method is not a valid e-mail address or
    /// E.164 phone number, or its channel is not offered.
    case invalidVerificationContact
    /// The strong authentication method, or the contact, is blocked by the tenant.
    case verificationContactBlocked
    /// The session lacks what the tenant's conditional access, or the client's `claims`, asks for
    /// (a recent second factor); carries the OIDC claims request (OIDC Core § 5.5) that a new
    /// authentication must satisfy.
    case claimsChallenge(String)
    /// The request does not meet the client's protection policy; carries the policy's name
    /// (`app_attestation`).
    case protectionPolicyRequired(String)
    /// The tenant does not allow this way of signing in (anonymous sign-in turned off).
    case operationNotAllowed
    /// The session is older than the user's `validSince` (a password change or revocation since):
    /// sign in again.
    case sessionExpired
    /// The change (e-mail, password, deletion) needs a sign-in more recent than the tenant allows.
    case recentSignInRequired
    /// Too many attempts: sign-in is delayed after repeated failures, or too many codes were sent;
    /// try again after `retryAfter` seconds (HTTP 429 with `Retry-After`, RFC 6585 § 4).
    case tooManyAttempts(retryAfter: Int)
    /// A custom token that is malformed, wrongly signed, expired, meant for another audience, or
    /// unsigned outside emulator mode.
    case invalidCustomToken
    /// A custom token, validly signed, by another tenant's service account.
    case customTokenMismatch
    /// An account-administration request was refused for a reason of its own
    /// (`reference/firebase-auth-protocol.md` § 6).
    case accountAdministration(AccountAdminFailure)
    /// An identity provider's ID token that is missing, malformed, wrongly signed (or by an unknown
    /// key), expired, or issued by another issuer or to another audience.
    case invalidIdPResponse
    /// The nonce of an identity provider's ID token is missing from the request, or its SHA-256 does
    /// not match the token's `nonce` claim.
    case invalidNonce
    /// The federated identity is linked to another account already.
    case federatedIdentityInUse
    /// The account has another identity at this provider already.
    case providerAlreadyLinked
    /// The address given with a code is not the one the code was sent to (e-mail link sign-in).
    case codeAddressMismatch
    /// An authorization code (or the PKCE verifier, redirect URI or client presented with it) is
    /// refused (RFC 6749 § 5.2 `invalid_grant`); the text says why, without the code.
    case invalidAuthorizationCode(String)
    /// The hosted pages' anti-forgery check failed: the form's token does not match the browser's
    /// cookie, or the page's state is unreadable or too old.
    case invalidPageState
    /// A device authorization grant request failed (RFC 8628 § 3.5), or the verification page was
    /// given a user code that is not pending.
    case deviceAuthorization(DeviceFlowFailure)
}

/// The inputs a domain call can find missing or invalid. Each wire family maps them to its own
/// parameter names and wording (native auth: `username parameter is empty or not valid`; the
/// account API: `MISSING_PASSWORD`).
public enum AuthParameter: String, Sendable, Equatable, CaseIterable {
    /// The account's e-mail address used as its username.
    case username
    /// A password.
    case password
    /// The new password of a reset.
    case newPassword
    /// The client id.
    case clientID
    /// The continuation token of a flow.
    case continuationToken
    /// The grant type.
    case grantType
    /// The declared challenge types.
    case challengeType
    /// A one-time code.
    case oneTimeCode
    /// Sign-up attributes.
    case attributes
    /// A refresh token.
    case refreshToken
    /// Requested scopes.
    case scope
    /// A tenant name (administration).
    case tenantName
    /// An e-mail address (administration).
    case email
    /// A signing key id (administration).
    case keyID
    /// The token to revoke (RFC 7009 § 2.1 `token`).
    case token
    /// A custom token's `uid` (the account API).
    case uid
    /// A custom token's developer `claims` (the account API).
    case claims
    /// An admin token id (administration).
    case adminTokenID
    /// An admin token's label (administration).
    case adminTokenLabel
    /// The id of a strong authentication method.
    case authMethodID
    /// A client's API key (`?key=` of the Firebase-shaped family).
    case apiKey
    /// The `requestUri` of an identity-provider sign-in (the account API).
    case requestURI
    /// An identity provider's id (`oidc.…`).
    case providerID
    /// An identity provider's issuer URL (administration).
    case issuer
    /// An identity provider's JWKS document or URL (administration).
    case jwks
    /// What an out-of-band code is requested for (the account API's `requestType`).
    case requestType
    /// The new address of an address change.
    case newEmail
    /// Where the app wants the user to land after an out-of-band action (`continueUrl`).
    case continueURL
    /// `code` (an authorization code).
    case code
    /// `code_verifier`.
    case codeVerifier
    /// `redirect_uri`.
    case redirectURI
    /// The device code of a device authorization grant poll (RFC 8628 § 3.4 `device_code`).
    case deviceCode
    /// The user code typed on the device verification page (RFC 8628 § 3.3 `user_code`).
    case userCode
}

/// Why a password was refused (NIST SP 800-63B § 3.1.1.2).
public enum PasswordViolation: Sendable, Equatable {
    /// Fewer than the minimum characters.
    case tooShort(minimum: Int)
    /// More than the maximum characters.
    case tooLong(maximum: Int)
    /// On the list of common passwords.
    case banned
    /// Too easy to guess; the text says why.
    case tooWeak(String)
    /// Contains characters that are not allowed (control characters).
    case invalidCharacters

    /// A sentence for developers and users saying what to change.
    public var explanation: String {
        switch self {
        case .tooShort(let minimum): "The password must be at least \(minimum) characters long."
        case .tooLong(let maximum): "The password must be at most \(maximum) characters long."
        case .banned: "The password is on the list of commonly used passwords; choose another."
        case .tooWeak(let why): "The password is too easy to guess: \(why)."
        case .invalidCharacters: "The password must not contain control characters."
        }
    }
}
