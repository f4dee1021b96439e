/// What an admin request's bearer token opens, as ``AdminAuthenticator`` decides it. Each wire
/// words a refusal its own way; the admin API follows RFC 6750 § 3.1 (401 `invalid_token`,
/// 403 `insufficient_scope`, and no error code when no token was presented).
public enum AdminAccess: Sendable, Equatable {
    /// The data directory's root token (`admin.token`): every tenant.
    case everyTenant
    /// A scoped token of the tenant the request names.
    case tenant(Tenant, tokenID: String)
    /// No bearer token was presented.
    case missingToken
    /// The presented token opens nothing.
    case invalidToken(InvalidToken)
    /// A scoped token of another tenant. Says nothing about the tenant the request names, not even
    /// whether it exists.
    case insufficientScope(tokenID: String)

    /// Why a presented token opens nothing. All of them answer alike on the wire; the reason is for
    /// tests and logs.
    public enum InvalidToken: Sendable, Equatable {
        /// Empty, longer than ``AdminAuthenticator/maximumTokenLength``, or not base64url
        /// (RFC 4648 § 5): no token looks like this, so the store is not asked.
        case malformed
        /// Neither the root token nor a stored scoped token.
        case unknown
        /// A scoped token that was revoked.
        case revoked
    }
}
