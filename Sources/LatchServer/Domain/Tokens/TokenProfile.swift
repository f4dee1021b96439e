import Foundation
import LatchWire

/// Everything a token profile may draw claims from: who, for which client, with which session.
public struct TokenSubject: Sendable {
    /// The `iss` of the tenant.
    public var issuer: String
    /// The tenant.
    public var tenant: Tenant
    /// The client the tokens are for.
    public var client: Client
    /// The user.
    public var user: User
    /// The session (its id is `sid`, its methods `amr`, its start `auth_time`).
    public var family: TokenFamily
    /// The scopes granted to this issue.
    public var scopes: [String]
    /// The issue instant, whole seconds since the Unix epoch.
    public var issuedAt: Int
    /// The authorization request's `nonce`, for the ID token (OpenID Connect Core § 3.1.2.1).
    public var nonce: String?
}

/// The claim sets of one issue: the access token's and, when `openid` was granted, the ID token's.
public struct TokenClaimSets: Sendable {
    /// The access token's claims (RFC 9068).
    public var access: JWTClaims
    /// The ID token's claims (OpenID Connect Core § 2), if one is issued.
    public var id: JWTClaims?
}

/// A claim vocabulary: which claims a tenant's tokens carry. OpenID Connect is the profile of the
/// native-auth and OAuth families; the account API adds one in the Firebase shape
/// (`iss=https://securetoken.google.com/{project}`, `user_id`, `firebase.sign_in_provider`).
public protocol TokenProfile: Sendable {
    /// The claim sets for `subject`.
    func claims(for subject: TokenSubject) -> TokenClaimSets
}

/// OpenID Connect Core claims (§ 2, § 5.1) plus RFC 9068 access-token claims, with `tid` and `sid`.
public struct OIDCTokenProfile: TokenProfile {
    /// Creates the profile.
    public init() {}

    public func claims(for subject: TokenSubject) -> TokenClaimSets {
        let settings = subject.tenant.settings
        let now = subject.issuedAt
        var claims = JWTClaims(
            iss: subject.issuer, sub: subject.user.id, aud: subject.client.id, exp: now + settings.accessTokenLifetime,
            iat: now, nbf: now)
        claims.authTime = Int(subject.family.authTime.timeIntervalSince1970)
        claims.amr = subject.family.amr
        // Only a sign-in with a second factor names its class; a claims challenge asks for `mfa`.
        claims.acr = subject.family.amr.contains("mfa") ? "mfa" : nil
        claims.sid = subject.family.id
        claims.tid = subject.tenant.id
        claims.email = subject.user.email
        claims.emailVerified = subject.user.emailVerified
        claims.name = subject.user.displayName
        claims.preferredUsername = subject.user.email

        var access = claims
        access.jti = SecureIdentifier.make()
        access.scp = subject.scopes.joined(separator: " ")
        access.clientID = subject.client.id

        var id: JWTClaims?
        if subject.scopes.contains("openid") {
            var idClaims = claims
            idClaims.exp = now + settings.idTokenLifetime
            idClaims.nonce = subject.nonce
            id = idClaims
        }
        return TokenClaimSets(access: access, id: id)
    }
}
