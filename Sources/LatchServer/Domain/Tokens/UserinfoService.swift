import Foundation
import LatchWire

/// The claims the userinfo endpoint returns (OpenID Connect Core § 5.3.2).
public struct UserinfoClaims: Sendable, Equatable {
    /// The subject, equal to the tokens' `sub`.
    public var subject: String
    /// The e-mail address.
    public var email: String
    /// Whether the address was proven.
    public var emailVerified: Bool
    /// The display name, if any.
    public var name: String?
    /// The username shown to people (the e-mail address).
    public var preferredUsername: String
}

/// The rules of userinfo (OpenID Connect Core § 5.3): the bearer access token must verify as an
/// access token of this tenant with a live session (``TokenService/verifyAccessToken(_:tenant:)``),
/// and its user must exist and not be disabled.
public struct UserinfoService: Sendable {
    let store: any Store
    let tokens: TokenService

    /// The claims for the bearer `accessToken` of `tenant`.
    /// - Throws: ``AuthFailure/invalidAccessToken`` when the token is missing, invalid, or its
    ///   session or user has ended.
    public func claims(accessToken: String?, tenant: Tenant) throws -> UserinfoClaims {
        guard let accessToken, !accessToken.isEmpty else { throw AuthFailure.invalidAccessToken }
        let claims = try tokens.verifyAccessToken(accessToken, tenant: tenant)
        guard let user = try store.read({ try $0.user(id: claims.sub, tenantID: tenant.id) }), !user.disabled else {
            throw AuthFailure.invalidAccessToken
        }
        return UserinfoClaims(
            subject: user.id, email: user.email, emailVerified: user.emailVerified, name: user.displayName,
            preferredUsername: user.email)
    }

    /// The strong authentication methods of the bearer `accessToken`'s user, oldest first (for
    /// `GET /{tenant}/me/authentication-methods`): each with its id, channel and masked contact.
    /// - Throws: ``AuthFailure/invalidAccessToken`` as ``claims(accessToken:tenant:)`` does.
    public func authMethods(accessToken: String?, tenant: Tenant) throws -> [AuthMethod] {
        let subject = try claims(accessToken: accessToken, tenant: tenant).subject
        return try store.read { try $0.authMethods(userID: subject, tenantID: tenant.id) }
    }
}
