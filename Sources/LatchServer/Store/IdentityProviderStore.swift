import Foundation

/// A tenant's OIDC identity providers and the federated identities linked to its accounts.
public protocol IdentityProviderReading {
    /// The provider `providerID` of the tenant.
    func identityProvider(tenantID: String, providerID: String) throws -> IdentityProvider?
    /// The tenant's providers, by provider id.
    func identityProviders(tenantID: String) throws -> [IdentityProvider]
    /// The identity with this raw id at the provider, in the tenant.
    func federatedIdentity(tenantID: String, providerID: String, rawID: String) throws -> FederatedIdentity?
    /// The identities linked to the account, oldest first.
    func federatedIdentities(userID: String, tenantID: String) throws -> [FederatedIdentity]
}

/// Changes to identity providers and federated identities.
public protocol IdentityProviderWriting: IdentityProviderReading {
    /// Adds a provider; ``StoreError/conflict`` if the tenant has one with its id.
    func insert(_ provider: IdentityProvider) throws
    /// Deletes the provider (its linked identities stay, and work again if it is added back).
    /// - Returns: whether there was such a provider.
    func deleteIdentityProvider(tenantID: String, providerID: String) throws -> Bool
    /// Links an identity; ``StoreError/conflict`` if the (tenant, provider, raw id) is linked already.
    func insert(_ identity: FederatedIdentity) throws
    /// Unlinks the account's identities at the provider.
    /// - Returns: whether one was linked.
    func deleteFederatedIdentity(tenantID: String, providerID: String, userID: String) throws -> Bool
}
