import Foundation

/// A security-relevant event. Never carries secrets: no passwords, codes or tokens.
public struct AuditEvent: Sendable, Equatable {
    /// What happened.
    public struct Kind: RawRepresentable, Hashable, Sendable {
        /// The stored value.
        public let rawValue: String
        /// Wraps a stored value.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// An account was created.
        public static let signUp = Kind(rawValue: "sign_up")
        /// A sign-in succeeded.
        public static let signInSucceeded = Kind(rawValue: "sign_in_succeeded")
        /// A sign-in failed.
        public static let signInFailed = Kind(rawValue: "sign_in_failed")
        /// Repeated failures delayed an account's sign-in; the detail holds the count and the delay.
        public static let signInBlocked = Kind(rawValue: "sign_in_blocked")
        /// A password was reset.
        public static let passwordReset = Kind(rawValue: "password_reset")
        /// A rotated refresh token was presented again; its family was revoked.
        public static let refreshTokenReuse = Kind(rawValue: "refresh_token_reuse")
        /// A session was ended by its client (RFC 7009 revocation); the detail names the session.
        public static let sessionRevoked = Kind(rawValue: "session_revoked")
        /// A signing key was rotated.
        public static let keyRotated = Kind(rawValue: "key_rotated")
        /// A signing key was revoked: it is no longer published or accepted.
        public static let keyRevoked = Kind(rawValue: "key_revoked")
        /// A source address ran out of a per-source rate limit; the detail names the limit. One
        /// event per trip: further refusals until the bucket admits again are not recorded.
        public static let rateLimited = Kind(rawValue: "rate_limited")
        /// An admin token scoped to the tenant was made; the detail holds its id.
        public static let adminTokenCreated = Kind(rawValue: "admin_token_created")
        /// An admin token scoped to the tenant was revoked; the detail holds its id.
        public static let adminTokenRevoked = Kind(rawValue: "admin_token_revoked")
        /// A sign-in passed its first factor and must prove a second; the detail says whether the
        /// user has a method or must register one.
        public static let secondFactorRequired = Kind(rawValue: "second_factor_required")
        /// A user registered a strong authentication method; the detail names its channel.
        public static let authMethodRegistered = Kind(rawValue: "auth_method_registered")
        /// The authorization endpoint issued a code (RFC 6749 § 4.1.2).
        public static let authorizationCodeIssued = Kind(rawValue: "authorization_code_issued")
        /// A used authorization code was presented again; the session it started was revoked.
        public static let authorizationCodeReplayed = Kind(rawValue: "authorization_code_replayed")
        /// The user consented to a third-party client's scopes.
        public static let consentGranted = Kind(rawValue: "consent_granted")
        /// A browser signed out (RP-initiated logout).
        public static let browserSignedOut = Kind(rawValue: "browser_signed_out")
        /// A user approved a device authorization (RFC 8628 § 3.3) of the client on the
        /// verification page; the detail holds the sign-in's `amr`.
        public static let deviceAuthorizationApproved = Kind(rawValue: "device_authorization_approved")
        /// A user denied a device authorization of the client on the verification page.
        public static let deviceAuthorizationDenied = Kind(rawValue: "device_authorization_denied")
    }

    /// Row id (0 before insert).
    public var id: Int64
    /// The tenant.
    public var tenantID: String
    /// When.
    public var at: Date
    /// What.
    public var kind: Kind
    /// The account, if known.
    public var userID: String?
    /// The client, if any.
    public var clientID: String?
    /// The peer address.
    public var remoteAddress: String?
    /// A short non-secret detail, e.g. the failure reason.
    public var detail: String?

    /// Creates an event.
    public init(
        id: Int64 = 0, tenantID: String, at: Date, kind: Kind, userID: String? = nil, clientID: String? = nil,
        remoteAddress: String? = nil, detail: String? = nil
    ) {
        self.id = id
        self.tenantID = tenantID
        self.at = at
        self.kind = kind
        self.userID = userID
        self.clientID = clientID
        self.remoteAddress = remoteAddress
        self.detail = detail
    }
}
