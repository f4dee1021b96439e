import Foundation

/// A tenant's OpenID Connect identity provider, as the account API's `signInWithIdp` /
/// `verifyAssertion` trust it (`reference/firebase-auth-protocol.md` § 4, row `signIn(with:)`): ID
/// tokens it issues (`iss` = ``issuer``, `aud` containing ``clientID``) sign an account in, verified
/// against its keys, a JWKS document served at ``jwksURL`` or kept here as ``jwksJSON``.
public struct IdentityProvider: Sendable, Equatable {
    /// The tenant.
    public var tenantID: String
    /// The provider id apps send as `providerId`; always starts with `oidc.` (``prefix``).
    public var providerID: String
    /// The `iss` its ID tokens carry.
    public var issuer: String
    /// The OAuth client id the ID tokens are issued to: their `aud` must contain it.
    public var clientID: String
    /// Where its JWKS document is served, when fetched.
    public var jwksURL: String?
    /// Its JWKS document, when configured statically.
    public var jwksJSON: String?
    /// Whether sign-in with it is allowed.
    public var enabled: Bool
    /// When it was added.
    public var createdAt: Date

    /// The prefix every OIDC provider id carries.
    public static let prefix = "oidc."

    /// Creates a record; exactly one of `jwksURL` and `jwksJSON` should be set.
    public init(
        tenantID: String, providerID: String, issuer: String, clientID: String, jwksURL: String?, jwksJSON: String?,
        enabled: Bool = true, createdAt: Date
    ) {
        self.tenantID = tenantID
        self.providerID = providerID
        self.issuer = issuer
        self.clientID = clientID
        self.jwksURL = jwksURL
        self.jwksJSON = jwksJSON
        self.enabled = enabled
        self.createdAt = createdAt
    }
}
