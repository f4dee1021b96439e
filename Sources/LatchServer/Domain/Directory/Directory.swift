import Foundation

/// Resolves tenants and clients by name, with a short-lived cache so hot endpoints (discovery,
/// JWKS, token) do not read the store on every request. Entries expire after `ttl` seconds, so
/// tenants and clients created by the admin command appear without a restart.
public final class Directory: Sendable {
    private struct Entry<Value> {
        var value: Value
        var loadedAt: Date
    }

    private let store: any Store
    private let clock: any ServerClock
    private let ttl: TimeInterval
    private let tenants = ReadMostly<[String: Entry<Tenant>]>([:])
    private let clients = ReadMostly<[String: Entry<Client>]>([:])

    /// Creates a directory over `store`.
    public init(store: any Store, clock: any ServerClock, ttl: TimeInterval = 2) {
        self.store = store
        self.clock = clock
        self.ttl = ttl
    }

    /// The tenant named `name`.
    /// - Throws: ``AuthFailure/unknownTenant``.
    public func tenant(named name: String) throws -> Tenant {
        let now = clock.now()
        if let cached = tenants.read({ $0[name] }), now.timeIntervalSince(cached.loadedAt) < ttl {
            return cached.value
        }
        guard Tenant.isValidName(name), let tenant = try store.read({ try $0.tenant(named: name) }) else {
            throw AuthFailure.unknownTenant
        }
        tenants.write { $0[name] = Entry(value: tenant, loadedAt: now) }
        return tenant
    }

    /// The client `clientID` of `tenant`.
    /// - Throws: ``AuthFailure/missingParameter(_:)`` when absent, ``AuthFailure/unknownClient`` when unknown.
    public func client(id clientID: String?, in tenant: Tenant) throws -> Client {
        guard let clientID, !clientID.isEmpty else { throw AuthFailure.missingParameter(.clientID) }
        guard Client.isValidID(clientID) else { throw AuthFailure.unknownClient }
        let key = tenant.id + "\u{0}" + clientID
        let now = clock.now()
        if let cached = clients.read({ $0[key] }), now.timeIntervalSince(cached.loadedAt) < ttl {
            return cached.value
        }
        guard let client = try store.read({ try $0.client(id: clientID, tenantID: tenant.id) }) else {
            throw AuthFailure.unknownClient
        }
        clients.write { $0[key] = Entry(value: client, loadedAt: now) }
        return client
    }

    /// The client whose API key is `apiKey`, and its tenant (a Firebase project id names the tenant).
    /// - Throws: ``AuthFailure/missingParameter(_:)`` (`.apiKey`) when absent,
    ///   ``AuthFailure/unknownClient`` when no client has it.
    public func client(apiKey: String?) throws -> (tenant: Tenant, client: Client) {
        guard let apiKey, !apiKey.isEmpty else { throw AuthFailure.missingParameter(.apiKey) }
        guard Client.isValidAPIKey(apiKey) else { throw AuthFailure.unknownClient }
        let now = clock.now()
        let key = "key\u{0}" + apiKey
        let client: Client
        if let cached = clients.read({ $0[key] }), now.timeIntervalSince(cached.loadedAt) < ttl {
            client = cached.value
        } else {
            guard let found = try store.read({ try $0.client(apiKey: apiKey) }) else { throw AuthFailure.unknownClient }
            clients.write { $0[key] = Entry(value: found, loadedAt: now) }
            client = found
        }
        guard let tenant = try store.read({ try $0.tenant(id: client.tenantID) }) else { throw AuthFailure.unknownClient }
        return (try self.tenant(named: tenant.name), client)
    }

    /// Forgets cached entries (after an admin change made in this process).
    public func invalidate() {
        tenants.write { $0.removeAll() }
        clients.write { $0.removeAll() }
    }
}
