import Foundation
import LatchCrypto

/// Administration of tenants, clients, users and keys, shared by the `latchd` admin commands,
/// the admin endpoints and first-start bootstrap.
public struct AdminService: Sendable {
    let store: any Store
    let clock: any ServerClock
    let keyRing: KeyRing
    let sealer: MessageSealer
    let hasher: any PasswordHasher
    let policy: PasswordPolicy
    let customTokens: CustomTokenService

    /// Creates a tenant with a fresh signing key.
    /// - Throws: ``AuthFailure/invalidParameter(_:)`` for a bad name, ``StoreError/conflict`` if it exists.
    @discardableResult
    public func createTenant(name: String, settings: TenantSettings = TenantSettings(), algorithm: SigningAlgorithm = .es256)
        throws -> Tenant
    {
        guard Tenant.isValidName(name) else {
            throw AuthFailure.invalidParameter(.tenantName)
        }
        let tenant = Tenant(id: UUID().uuidString.lowercased(), name: name, settings: settings, createdAt: clock.now())
        try store.write { tx in
            try tx.insert(tenant)
            try keyRing.addKey(tx, tenant: tenant, algorithm: algorithm)
        }
        return tenant
    }

    /// Changes the settings of the tenant named `name` with `change`, in one write. Servers pick the
    /// change up within their directory cache's lifetime (2 s).
    /// - Throws: ``AuthFailure/unknownTenant``.
    @discardableResult
    public func updateTenant(named name: String, _ change: (inout TenantSettings) -> Void) throws -> Tenant {
        try store.write { tx in
            guard var tenant = try tx.tenant(named: name) else { throw AuthFailure.unknownTenant }
            change(&tenant.settings)
            guard try tx.updateSettings(tenant.settings, tenantID: tenant.id) else { throw AuthFailure.unknownTenant }
            return tenant
        }
    }

    /// The tenant named `name`.
    public func tenant(named name: String) throws -> Tenant {
        guard let tenant = try store.read({ try $0.tenant(named: name) }) else { throw AuthFailure.unknownTenant }
        return tenant
    }

    /// Every tenant.
    public func tenants() throws -> [Tenant] { try store.read { try $0.tenants() } }

    /// Registers a client in `tenant`.
    @discardableResult
    public func createClient(
        tenant: Tenant, id: String, name: String, isPublic: Bool = true, allowedScopes: [String] = [],
        attestationKeyIDs: [String] = [], apiKey: String? = nil, secretHash: String? = nil,
        registration: ClientRegistration = ClientRegistration()
    ) throws -> Client {
        guard Client.isValidID(id) else {
            throw AuthFailure.invalidParameter(.clientID)
        }
        guard attestationKeyIDs.allSatisfy(ClientProtection.isValidKeyID) else {
            throw AuthFailure.invalidParameter(.keyID)
        }
        var client = Client(
            id: id, tenantID: tenant.id, name: name, isPublic: isPublic, allowedScopes: allowedScopes,
            createdAt: clock.now())
        try registration.validate(isPublic: isPublic)
        client.attestationKeyIDs = attestationKeyIDs
        client.secretHash = isPublic ? nil : secretHash
        registration.apply(to: &client)
        if let apiKey {
            guard Client.isValidAPIKey(apiKey) else { throw AuthFailure.invalidParameter(.apiKey) }
            client.apiKey = apiKey
        }
        try store.write { tx in try tx.insert(client) }
        return client
    }

    /// Creates a confidential client (RFC 6749 § 2.1) with a new ``ClientSecret``, stored only as
    /// its hash; the secret is returned once, for the operator to hand over.
    public func createConfidentialClient(
        tenant: Tenant, id: String, name: String, allowedScopes: [String] = [], apiKey: String? = nil,
        registration: ClientRegistration = ClientRegistration()
    ) throws -> (client: Client, secret: String) {
        let secret = ClientSecret.generate()
        let client = try createClient(
            tenant: tenant, id: id, name: name, isPublic: false, allowedScopes: allowedScopes, apiKey: apiKey,
            secretHash: ClientSecret.hash(secret), registration: registration)
        return (client, secret)
    }

    /// Gives confidential client `id` of `tenant` a new ``ClientSecret`` and returns it once; the old
    /// secret stops working (servers that cached the client see the change within the directory's
    /// cache lifetime).
    /// - Throws: ``AuthFailure/unknownClient`` when `tenant` has no confidential client `id`.
    public func rotateClientSecret(tenant: Tenant, id: String) throws -> String {
        let secret = ClientSecret.generate()
        let hash = ClientSecret.hash(secret)
        guard try store.write({ tx in try tx.updateSecretHash(hash, clientID: id, tenantID: tenant.id) }) else {
            throw AuthFailure.unknownClient
        }
        return secret
    }

    /// The clients of `tenant`.
    public func clients(tenant: Tenant) throws -> [Client] { try store.read { try $0.clients(tenantID: tenant.id) } }

    /// Creates a verified user, with a password when given (checked against the policy).
    @discardableResult
    public func createUser(tenant: Tenant, email: String, password: String?, displayName: String? = nil) throws -> User {
        let normalized = User.normalizeEmail(email)
        guard User.isPlausibleEmail(normalized) else { throw AuthFailure.invalidParameter(.email) }
        var hash: String?
        if let password {
            if let violation = policy.violation(of: password, username: normalized) {
                throw AuthFailure.passwordPolicy(violation)
            }
            hash = try hasher.hash(password, for: .administration)
        }
        let now = clock.now()
        let user = User(
            id: UUID().uuidString.lowercased(), tenantID: tenant.id, email: normalized, emailVerified: true,
            passwordHash: hash, displayName: displayName, attributes: [:], createdAt: now, validSince: now)
        do {
            try store.write { tx in try tx.insert(user) }
        } catch StoreError.conflict {
            throw AuthFailure.userAlreadyExists
        }
        return user
    }

    /// Users of `tenant`, oldest first.
    public func users(tenant: Tenant, limit: Int = 1000) throws -> [User] {
        try store.read { try $0.users(tenantID: tenant.id, limit: limit) }
    }

    /// Outbox messages, newest first.
    /// - Parameters:
    ///   - abandonedOnly: only the dead letters: messages the worker gave up on (after the most
    ///     attempts, for want of a transport, or with a seal that did not open).
    ///   - revealCodes: open the sealed bodies to show the one-time codes and bodies
    ///     (development only); otherwise both are blank, so an operator's view never shows a usable
    ///     code. A body that was erased, or whose seal does not open, is blank either way.
    public func outbox(
        tenant: Tenant?, recipient: String?, abandonedOnly: Bool = false, limit: Int = 20, revealCodes: Bool = true
    ) throws -> [OutboxMessage] {
        let messages = try store.read {
            try $0.outboxMessages(
                tenantID: tenant?.id, recipient: recipient.map(User.normalizeEmail), abandonedOnly: abandonedOnly,
                limit: limit)
        }
        return messages.map { stored in
            guard revealCodes, let opened = try? sealer.open(stored) else { return MessageSealer.redacted(stored) }
            return opened
        }
    }

    /// Audit events of `tenant`, newest first.
    public func auditEvents(tenant: Tenant, limit: Int = 50) throws -> [AuditEvent] {
        try store.read { try $0.auditEvents(tenantID: tenant.id, limit: limit) }
    }

    /// Signing keys of `tenant`, newest first (sealed private keys are not exposed).
    public func signingKeys(tenant: Tenant) throws -> [StoredSigningKey] {
        try store.read { try $0.signingKeys(tenantID: tenant.id) }
    }

    /// A custom token for `uid` of `tenant`, signed with the tenant's service-account key (made on
    /// first use); see ``CustomTokenService/mint(tenant:uid:claims:lifetime:)``.
    public func mintCustomToken(tenant: Tenant, uid: String, claims: [String: any Sendable] = [:]) throws -> String {
        try customTokens.mint(tenant: tenant, uid: uid, claims: claims)
    }

    /// Rotates `tenant`'s signing key; see ``KeyRing/rotate(tenant:algorithm:immediately:)``.
    public func rotateKey(tenant: Tenant, algorithm: SigningAlgorithm, immediately: Bool = false) throws
        -> StoredSigningKey
    {
        try keyRing.rotate(tenant: tenant, algorithm: algorithm, immediately: immediately)
    }

    /// Revokes `tenant`'s signing key `kid`; see ``KeyRing/revoke(kid:tenant:)``.
    /// - Returns: the key that signs from now on.
    public func revokeKey(tenant: Tenant, kid: String) throws -> StoredSigningKey {
        try keyRing.revoke(kid: kid, tenant: tenant)
    }

    /// Makes sure the development tenant `default` and the public client `latch-dev` exist.
    /// - Returns: whether anything was created.
    @discardableResult
    public func ensureDevelopmentDefaults() throws -> Bool {
        var created = false
        let tenant: Tenant
        if let existing = try store.read({ try $0.tenant(named: "default") }) {
            tenant = existing
        } else {
            tenant = try createTenant(name: "default")
            created = true
        }
        if try store.read({ try $0.client(id: "latch-dev", tenantID: tenant.id) }) == nil {
            try createClient(tenant: tenant, id: "latch-dev", name: "Latch development client")
            created = true
        }
        // RFC 8252 § 7.3: tools and tests redirect to a loopback listener on any port and path.
        try store.write { tx in try tx.setAcceptsAnyLoopbackRedirect(clientID: "latch-dev", tenantID: tenant.id) }
        return created
    }
}
