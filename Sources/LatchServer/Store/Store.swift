import Foundation

/// Persistent storage for the domain. Work happens inside closures so no caller can forget to
/// commit or hold a connection across requests; `write` returns only once its changes are durable.
///
/// The protocol speaks in domain records only, so a PostgreSQL implementation can follow without
/// touching the domain.
public protocol Store: Sendable {
    /// Runs `body` against a consistent snapshot.
    func read<T>(_ body: (any StoreReading) throws -> T) throws -> T
    /// Runs `body` as one atomic unit of work; if it throws, none of its writes persist.
    func write<T>(_ body: (any StoreWriting) throws -> T) throws -> T
    /// Like ``write(_:)``, but the answer need not wait for the disk: the unit is crash-safe and
    /// becomes durable with the next durable write. For steps a power loss may drop without harm
    /// (starting a flow, asking for a password); never for accounts, sessions or tokens.
    /// (SQLite: `synchronous=NORMAL` for the commit; PostgreSQL: `synchronous_commit = off`.)
    func writeRelaxed<T>(_ body: (any StoreWriting) throws -> T) throws -> T
}

/// Queries available inside ``Store/read(_:)`` and ``Store/write(_:)``.
public protocol StoreReading {
    /// The tenant with this path name.
    func tenant(named name: String) throws -> Tenant?
    /// The tenant with this id.
    func tenant(id: String) throws -> Tenant?
    /// Every tenant, by name.
    func tenants() throws -> [Tenant]
    /// A client of a tenant.
    func client(id: String, tenantID: String) throws -> Client?
    /// The clients of a tenant, by id.
    func clients(tenantID: String) throws -> [Client]
    /// The user with this normalized e-mail in a tenant.
    func user(email: String, tenantID: String) throws -> User?
    /// The user with this id in a tenant.
    func user(id: String, tenantID: String) throws -> User?
    /// Users of a tenant, oldest first.
    func users(tenantID: String, limit: Int) throws -> [User]
    /// The user count of a tenant.
    func userCount(tenantID: String) throws -> Int
    /// The flow whose current continuation token hashes to `tokenHash`.
    func flow(tokenHash: String) throws -> Flow?
    /// The refresh token with this hash.
    func refreshToken(hash: String) throws -> RefreshTokenRecord?
    /// A token family.
    func tokenFamily(id: String) throws -> TokenFamily?
    /// Signing keys of a tenant, latest activation first.
    func signingKeys(tenantID: String) throws -> [StoredSigningKey]
    /// Outbox messages, newest first, optionally filtered.
    func outboxMessages(tenantID: String?, recipient: String?, limit: Int) throws -> [OutboxMessage]
    /// How many outbox messages of a tenant went to `recipient` later than `since`.
    func outboxCount(tenantID: String, recipient: String, since: Date) throws -> Int
    /// Undelivered outbox messages, oldest first.
    func pendingOutboxMessages(limit: Int) throws -> [OutboxMessage]
    /// Audit events of a tenant, newest first.
    func auditEvents(tenantID: String, limit: Int) throws -> [AuditEvent]
}

/// Changes available inside ``Store/write(_:)``.
public protocol StoreWriting: StoreReading {
    /// Adds a tenant; ``StoreError/conflict`` if the name is taken.
    func insert(_ tenant: Tenant) throws
    /// Adds a client; ``StoreError/conflict`` if the id is taken in the tenant.
    func insert(_ client: Client) throws
    /// Adds a user; ``StoreError/conflict`` if the e-mail is taken in the tenant.
    func insert(_ user: User) throws
    /// Replaces a user's mutable fields.
    func update(_ user: User) throws
    /// Adds a flow.
    func insert(_ flow: Flow) throws
    /// Replaces a flow's mutable fields.
    func update(_ flow: Flow) throws
    /// Removes a flow.
    func deleteFlow(id: String) throws
    /// Removes flows that expired before `date`.
    func deleteFlows(expiredBefore date: Date) throws
    /// Adds a token family.
    func insert(_ family: TokenFamily) throws
    /// Revokes one family.
    func revokeFamily(id: String, at date: Date) throws
    /// Revokes every family of a user.
    func revokeFamilies(userID: String, at date: Date) throws
    /// Adds a refresh token.
    func insert(_ token: RefreshTokenRecord) throws
    /// Records that a rotated refresh token used its one re-exchange inside the grace window.
    func markGraceReissued(hash: String) throws
    /// Marks a refresh token as exchanged.
    func markRotated(hash: String, at date: Date) throws
    /// Adds a signing key.
    func insert(_ key: StoredSigningKey) throws
    /// Marks every key of the tenant except `keepID` as superseded from `date` (the new key's activation).
    func retireSigningKeys(tenantID: String, except keepID: String, at date: Date) throws
    /// Adds an outbox message.
    func insert(_ message: OutboxMessage) throws
    /// Marks outbox messages delivered; with `redact`, their body and code are erased.
    func markDelivered(ids: [Int64], at date: Date, redact: Bool) throws
    /// Deletes what has outlived its use: outbox messages created before `outboxBefore`, and token
    /// families (with their refresh tokens) that expired or were revoked before `sessionsBefore`.
    func purge(outboxBefore: Date, sessionsBefore: Date) throws
    /// Adds an audit event.
    func insert(_ event: AuditEvent) throws
}
