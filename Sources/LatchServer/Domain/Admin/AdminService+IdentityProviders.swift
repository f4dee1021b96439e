import Foundation

extension AdminService {
    /// Adds an OIDC identity provider to `tenant`, for `signInWithIdp` / `verifyAssertion`
    /// (`reference/firebase-auth-protocol.md` § 4): its ID tokens carry `iss` = `issuer` and an
    /// `aud` naming `clientID`, and are verified with the keys of `jwksJSON` or of the document at
    /// `jwksURL` (exactly one of the two).
    /// - Throws: ``AuthFailure/invalidParameter(_:)`` (`.providerID`, `.issuer`, `.clientID`,
    ///   `.jwks`), ``StoreError/conflict`` when the tenant has the provider id already.
    @discardableResult
    public func addIdentityProvider(
        tenant: Tenant, providerID: String, issuer: String, clientID: String, jwksURL: String?, jwksJSON: String?,
        enabled: Bool = true
    ) throws -> IdentityProvider {
        guard IdentityProviderRules.isValidProviderID(providerID) else { throw AuthFailure.invalidParameter(.providerID) }
        guard IdentityProviderRules.isAcceptableURL(issuer) else { throw AuthFailure.invalidParameter(.issuer) }
        guard !clientID.isEmpty, clientID.count <= 512 else { throw AuthFailure.invalidParameter(.clientID) }
        switch (jwksURL, jwksJSON) {
        case (let url?, nil):
            guard IdentityProviderRules.isAcceptableURL(url) else { throw AuthFailure.invalidParameter(.jwks) }
        case (nil, let json?):
            _ = try ProviderKeySet.keys(of: json)
        default:
            throw AuthFailure.invalidParameter(.jwks)
        }
        let provider = IdentityProvider(
            tenantID: tenant.id, providerID: providerID, issuer: issuer, clientID: clientID, jwksURL: jwksURL,
            jwksJSON: jwksJSON, enabled: enabled, createdAt: clock.now())
        try store.write { tx in try tx.insert(provider) }
        return provider
    }

    /// The identity providers of `tenant`, by provider id.
    public func identityProviders(tenant: Tenant) throws -> [IdentityProvider] {
        try store.read { try $0.identityProviders(tenantID: tenant.id) }
    }

    /// Removes the provider `providerID` of `tenant`: its sign-ins stop at once; the identities
    /// linked through it stay, and sign in again if it is added back.
    /// - Returns: whether there was such a provider.
    @discardableResult
    public func removeIdentityProvider(tenant: Tenant, providerID: String) throws -> Bool {
        try store.write { try $0.deleteIdentityProvider(tenantID: tenant.id, providerID: providerID) }
    }
}
