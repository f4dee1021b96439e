/// The `error` values of the native-auth error envelope (Entra External ID native auth v1).
///
/// A growing value set: a struct of static constants, so new server values decode without breaking
/// existing clients and `switch` stays exhaustive-free.
public struct NativeAuthErrorCode: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The wire value, e.g. `invalid_grant`.
    public let rawValue: String
    /// Wraps a wire value.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The wire value.
    public var description: String { rawValue }

    /// RFC 6749 § 5.2: malformed or missing parameter.
    public static let invalidRequest = NativeAuthErrorCode(rawValue: "invalid_request")
    /// RFC 6749 § 5.2: unknown client or client authentication failed.
    public static let invalidClient = NativeAuthErrorCode(rawValue: "invalid_client")
    /// RFC 6749 § 5.2: the client may not use this grant or flow.
    public static let unauthorizedClient = NativeAuthErrorCode(rawValue: "unauthorized_client")
    /// RFC 6749 § 5.2: the grant (password, code, refresh token) is invalid.
    public static let invalidGrant = NativeAuthErrorCode(rawValue: "invalid_grant")
    /// RFC 6749 § 5.2: the grant type is not supported.
    public static let unsupportedGrantType = NativeAuthErrorCode(rawValue: "unsupported_grant_type")
    /// The continuation token expired.
    public static let expiredToken = NativeAuthErrorCode(rawValue: "expired_token")
    /// The refresh token expired or was revoked.
    public static let expiredRefreshToken = NativeAuthErrorCode(rawValue: "expired_refresh_token")
    /// No account has this username.
    public static let userNotFound = NativeAuthErrorCode(rawValue: "user_not_found")
    /// An account with this username exists.
    public static let userAlreadyExists = NativeAuthErrorCode(rawValue: "user_already_exists")
    /// Sign-up needs attributes listed in `required_attributes`.
    public static let attributesRequired = NativeAuthErrorCode(rawValue: "attributes_required")
    /// Sign-up needs a credential (password) next.
    public static let credentialRequired = NativeAuthErrorCode(rawValue: "credential_required")
    /// The contact must be verified first.
    public static let verificationRequired = NativeAuthErrorCode(rawValue: "verification_required")
    /// `challenge_type` lacks `redirect` or names an unknown type.
    public static let unsupportedChallengeType = NativeAuthErrorCode(rawValue: "unsupported_challenge_type")
    /// The auth method is not supported.
    public static let unsupportedAuthMethod = NativeAuthErrorCode(rawValue: "unsupported_auth_method")
    /// RFC 6749 § 5.2: a requested scope is invalid.
    public static let invalidScope = NativeAuthErrorCode(rawValue: "invalid_scope")
    /// RFC 6749 § 4.1.2.1: the request was denied.
    public static let accessDenied = NativeAuthErrorCode(rawValue: "access_denied")
    /// OpenID Connect Core § 3.1.2.6: the user must interact with the server; on a refresh, the
    /// `claims` member names the claims a new token needs (a step-up, RFC 9470).
    public static let interactionRequired = NativeAuthErrorCode(rawValue: "interaction_required")
    /// RFC 8628 § 3.5: authorization pending.
    public static let authorizationPending = NativeAuthErrorCode(rawValue: "authorization_pending")
    /// RFC 8628 § 3.5: poll more slowly.
    public static let slowDown = NativeAuthErrorCode(rawValue: "slow_down")
    /// RFC 6585 § 4: too many requests; see `Retry-After`.
    public static let tooManyRequests = NativeAuthErrorCode(rawValue: "too_many_requests")
    /// An unexpected server failure.
    public static let serverError = NativeAuthErrorCode(rawValue: "server_error")
    /// The tenant in the path does not exist.
    public static let invalidTenant = NativeAuthErrorCode(rawValue: "invalid_tenant")
}
