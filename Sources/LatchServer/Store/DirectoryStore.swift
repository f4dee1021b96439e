import Foundation

/// Tenants, their clients and their signing keys.
public protocol DirectoryReading {
    /// The tenant with this path name.
    func tenant(named name: String) throws -> Tenant?
    /// The tenant with this id.
    func tenant(id: String) throws -> Tenant?
    /// Every tenant, by name.
    func tenants() throws -> [Tenant]
    /// A client of a tenant.
    func client(id: String, tenantID: String) throws -> Client?
    /// The client whose API key is `apiKey`, in any tenant.
    func client(apiKey: String) throws -> Client?
    /// The clients of a tenant, by id.
    func clients(tenantID: String) throws -> [Client]
    /// Signing keys of a tenant, latest activation first.
    func signingKeys(tenantID: String) throws -> [StoredSigningKey]
    /// The service-account key of a tenant, if it has one yet.
    func serviceAccountKey(tenantID: String) throws -> StoredServiceAccountKey?
    /// The service-account key with this `kid`, in any tenant.
    func serviceAccountKey(id: String) throws -> StoredServiceAccountKey?
}

/// Changes to tenants, clients and signing keys.
public protocol DirectoryWriting: DirectoryReading {
    /// Adds a tenant; ``StoreError/conflict`` if the name is taken.
    func insert(_ tenant: Tenant) throws
    /// Replaces the settings of tenant `tenantID`; `false` when there is no such tenant.
    func updateSettings(_ settings: TenantSettings, tenantID: String) throws -> Bool
    /// Adds a client; ``StoreError/conflict`` if the id is taken in the tenant.
    func insert(_ client: Client) throws
    /// Lets client `clientID` redirect to any loopback address (the development client).
    func setAcceptsAnyLoopbackRedirect(clientID: String, tenantID: String) throws
    /// Replaces the secret hash of confidential client `clientID` of `tenantID` (RFC 6749 § 2.3.1);
    /// `false` when there is no such confidential client.
    func updateSecretHash(_ hash: String, clientID: String, tenantID: String) throws -> Bool
    /// Adds a signing key.
    func insert(_ key: StoredSigningKey) throws
    /// Adds a tenant's service-account key; ``StoreError/conflict`` if the tenant has one.
    func insert(_ key: StoredServiceAccountKey) throws
    /// Marks every key of the tenant except `keepID` as superseded from `date` (the new key's activation).
    func retireSigningKeys(tenantID: String, except keepID: String, at date: Date) throws
    /// Revokes the key `id` of the tenant at `date`, if it is not revoked already.
    /// - Returns: whether it applied.
    func revokeSigningKey(id: String, tenantID: String, at date: Date) throws -> Bool
}
