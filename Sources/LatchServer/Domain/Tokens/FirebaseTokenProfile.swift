import Foundation

/// The claim set of the account API's ID tokens, in the Firebase shape: `iss` is
/// `https://securetoken.google.com/{project}`, `aud` the project, `sub` and `user_id` the account
/// id, with `auth_time` and `firebase.{identities, sign_in_provider}` (the claims the Apple SDK
/// parses). The project is the tenant's name. It is signed with the tenant's own keys, so the
/// tenant JWKS verifies it.
public struct FirebaseTokenProfile: Sendable {
    /// Creates the profile.
    public init() {}

    /// The `iss` of a project's ID tokens.
    public static func issuer(project: String) -> String { "https://securetoken.google.com/\(project)" }

    /// The ID token's claims for `user` of `tenant`, issued at `issuedAt` (seconds) for a session
    /// that began at `authTime`; `provider` overrides the account's own `sign_in_provider`, and
    /// `developerClaims` (a custom token's) go to the top level, where they may replace `name` and
    /// `picture` but no other claim. Each of `identities` adds its provider id and raw id to
    /// `firebase.identities` (`{"oidc.x": [sub]}`).
    public func claims(
        user: User, tenant: Tenant, authTime: Date, issuedAt: Int, provider given: String? = nil,
        developerClaims: [String: any Sendable] = [:], identities linked: [FederatedIdentity] = []
    ) -> [String: any Sendable] {
        let provider = given ?? AccountProfile.signInProvider(of: user)
        var claims: [String: any Sendable] = [
            "iss": Self.issuer(project: tenant.name), "aud": tenant.name, "sub": user.id, "user_id": user.id,
            "iat": issuedAt, "exp": issuedAt + tenant.settings.idTokenLifetime,
            "auth_time": Int(authTime.timeIntervalSince1970),
        ]
        var identities: [String: any Sendable] = [:]
        if let email = AccountProfile.email(of: user) {
            claims["email"] = email
            claims["email_verified"] = user.emailVerified
            identities["email"] = [email]
        }
        for identity in linked {
            identities[identity.providerID] = ((identities[identity.providerID] as? [String]) ?? []) + [identity.rawID]
        }
        if let name = user.displayName { claims["name"] = name }
        if let picture = user.attributes[AccountProfile.photoURLAttribute] { claims["picture"] = picture }
        if provider == AccountProfile.anonymousProvider { claims["provider_id"] = AccountProfile.anonymousProvider }
        claims["firebase"] = ["identities": identities, "sign_in_provider": provider] as [String: any Sendable]
        for (name, value) in developerClaims where claims[name] == nil || name == "name" || name == "picture" {
            claims[name] = value
        }
        return claims
    }
}
