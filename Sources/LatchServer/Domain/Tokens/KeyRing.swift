import Foundation
import LatchCrypto
internal import LatchLocking

/// The signing keys of every tenant: creates them, unseals them with the data directory's master
/// key, picks the active one, and renders the JWKS (RFC 7517 § 5). Retired keys stay published until
/// every token they signed has expired. The cache reloads from the store every `refreshInterval`
/// seconds, so a rotation made by the admin command reaches a running server without a restart.
public final class KeyRing: Sendable {
    /// The keys of one tenant, unsealed.
    struct TenantKeys: Sendable {
        let active: SigningKey
        let byID: [String: SigningKey]
        let jwks: [UInt8]
        let ids: [String]
        let loadedAt: Date
    }

    private let store: any Store
    private let clock: any ServerClock
    private let masterKey: [UInt8]
    private let refreshInterval: TimeInterval
    private let cache = ReadMostly<[String: TenantKeys]>([:])
    /// When each tenant's keys were last reloaded for an unknown `kid` (monotonic nanoseconds).
    private let forcedReloads = Locked<[String: UInt64]>([:])

    /// The least time between two reloads for unknown `kid`s of one tenant: a token naming a key
    /// this process has not seen costs at most this wait and one indexed read, however many arrive.
    static let unknownKeyReloadSpacing: UInt64 = 100_000_000

    /// Creates a key ring.
    /// - Parameters:
    ///   - masterKey: 32 bytes sealing private keys at rest (AES-256-GCM).
    public init(store: any Store, clock: any ServerClock, masterKey: [UInt8], refreshInterval: TimeInterval = 5) {
        self.store = store
        self.clock = clock
        self.masterKey = masterKey
        self.refreshInterval = refreshInterval
    }

    /// How long a new key is published before it signs: the JWKS `Cache-Control` lifetime, so a
    /// verifier with a cached JWKS never meets a token whose `kid` it has not seen.
    public static let propagationDelay: TimeInterval = 300

    /// Generates a key for `tenant` and stores it sealed, in `tx`. It signs from `activatesAt`
    /// (default: now); older keys stop signing at that instant but stay published until their tokens expire.
    @discardableResult
    public func addKey(_ tx: any StoreWriting, tenant: Tenant, algorithm: SigningAlgorithm, activatesAt: Date? = nil)
        throws -> StoredSigningKey
    {
        let kid = SecureRandom.hex(byteCount: 8)
        let key = try SigningKey.generate(algorithm, id: kid)
        let sealed = try SecretBox.seal(Array(try key.privateKeyPEM().utf8), key: masterKey)
        let now = clock.now()
        let record = StoredSigningKey(
            id: kid, tenantID: tenant.id, algorithm: algorithm.rawValue, sealedPrivateKey: sealed, createdAt: now,
            activatesAt: activatesAt ?? now)
        try tx.insert(record)
        try tx.retireSigningKeys(tenantID: tenant.id, except: kid, at: record.activatesAt)
        return record
    }

    /// Rotates `tenant`'s signing key. The new key is published at once and signs after
    /// ``propagationDelay`` (or at once with `immediately`, e.g. when the old key is compromised);
    /// the old key stays in the JWKS until every token it signed has expired.
    public func rotate(tenant: Tenant, algorithm: SigningAlgorithm, immediately: Bool = false) throws -> StoredSigningKey {
        let activatesAt = clock.now().addingTimeInterval(immediately ? 0 : Self.propagationDelay)
        let record = try store.write { tx in
            let record = try addKey(tx, tenant: tenant, algorithm: algorithm, activatesAt: activatesAt)
            try tx.insert(
                AuditEvent(tenantID: tenant.id, at: clock.now(), kind: .keyRotated, detail: "kid=\(record.id)"))
            return record
        }
        _ = cache.write { $0.removeValue(forKey: tenant.id) }
        return record
    }

    /// Revokes the key `kid` of `tenant` (it leaked): it leaves the JWKS and verification at once in
    /// this process, and within ``refreshInterval`` seconds in every other one reading the store.
    /// Revoking the key that signs makes a fresh key sign at once, so issuing never stops.
    /// - Returns: the key that signs from now on.
    /// - Throws: ``AuthFailure/invalidParameter(_:)`` when the tenant has no such live key.
    public func revoke(kid: String, tenant: Tenant) throws -> StoredSigningKey {
        let now = clock.now()
        let signer: StoredSigningKey = try store.write { tx in
            let keys = try tx.signingKeys(tenantID: tenant.id).filter { $0.revokedAt == nil }
            guard keys.contains(where: { $0.id == kid }) else { throw AuthFailure.invalidParameter(.keyID) }
            _ = try tx.revokeSigningKey(id: kid, tenantID: tenant.id, at: now)
            try tx.insert(AuditEvent(tenantID: tenant.id, at: now, kind: .keyRevoked, detail: "kid=\(kid)"))
            let remaining = keys.filter { $0.id != kid }
            if let active = remaining.first(where: { $0.activatesAt <= now && $0.retiredAt.map { $0 > now } ?? true }) {
                return active
            }
            let algorithm = SigningAlgorithm(rawValue: keys.first(where: { $0.id == kid })?.algorithm ?? "") ?? .es256
            return try addKey(tx, tenant: tenant, algorithm: algorithm, activatesAt: now)
        }
        _ = cache.write { $0.removeValue(forKey: tenant.id) }
        return signer
    }

    /// The key that signs new tokens for `tenant`.
    public func signingKey(for tenant: Tenant) throws -> SigningKey {
        try keys(for: tenant).active
    }

    /// A published key of `tenant` by `kid`, for verifying tokens.
    ///
    /// A `kid` the cache does not know reloads the tenant's keys from the store first: another
    /// instance may have rotated a key a moment ago (`rotate(…, immediately: true)`) and signed with
    /// it. The new key is committed before any token it signs exists, so the reload finds it: a
    /// rotation reaches every instance before one of its tokens can be presented. Reloads for
    /// unknown `kid`s are spaced ``unknownKeyReloadSpacing`` apart per tenant (a request waits for
    /// its turn, and a `kid` that would wait over a second is refused), so made-up `kid`s cannot
    /// flood the store.
    public func verificationKey(id: String, tenant: Tenant) throws -> SigningKey? {
        let cached = try keys(for: tenant)
        if let key = cached.byID[id] { return key }
        let now = DispatchTime.now().uptimeNanoseconds
        let wait: UInt64? = forcedReloads.withLock { reloads in
            let next = max(now, (reloads[tenant.id] ?? 0) + Self.unknownKeyReloadSpacing)
            // A queue a second deep is a flood of made-up kids: refuse rather than wait.
            guard next - now <= 10 * Self.unknownKeyReloadSpacing else { return nil }
            reloads[tenant.id] = next
            return next - now
        }
        guard let wait else { return nil }
        if wait > 0 { usleep(useconds_t(wait / 1000)) }
        let reloaded = try load(tenant: tenant, now: clock.now(), previous: cache.read { $0[tenant.id] })
        cache.write { $0[tenant.id] = reloaded }
        return reloaded.byID[id]
    }

    /// The JWKS document of `tenant` (RFC 7517 § 5), pre-rendered.
    public func jwks(for tenant: Tenant) throws -> [UInt8] {
        try keys(for: tenant).jwks
    }

    private func keys(for tenant: Tenant) throws -> TenantKeys {
        let now = clock.now()
        let cached = cache.read { $0[tenant.id] }
        if let cached, now.timeIntervalSince(cached.loadedAt) < refreshInterval, now >= cached.loadedAt {
            return cached
        }
        let loaded = try load(tenant: tenant, now: now, previous: cached)
        cache.write { $0[tenant.id] = loaded }
        return loaded
    }

    private func load(tenant: Tenant, now: Date, previous: TenantKeys?) throws -> TenantKeys {
        let window = TimeInterval(tenant.settings.longestSignedTokenLifetime + 300)
        let records = try store.read { try $0.signingKeys(tenantID: tenant.id) }.filter { record in
            guard record.revokedAt == nil else { return false }
            guard let retiredAt = record.retiredAt else { return true }
            return retiredAt.addingTimeInterval(window) > now
        }
        // Newest first: the signer is the newest key already active (else the oldest published one).
        guard let signer = records.first(where: { $0.activatesAt <= now }) ?? records.last else {
            throw StoreError.corrupt("tenant \(tenant.name) has no signing key")
        }
        let ids = records.map(\.id)
        if let previous, previous.ids == ids, previous.active.id == signer.id {
            return TenantKeys(
                active: previous.active, byID: previous.byID, jwks: previous.jwks, ids: ids, loadedAt: now)
        }
        var byID: [String: SigningKey] = [:]
        for record in records {
            if let known = previous?.byID[record.id] {
                byID[record.id] = known
                continue
            }
            guard let algorithm = SigningAlgorithm(rawValue: record.algorithm) else { continue }
            let pem = try SecretBox.open(record.sealedPrivateKey, key: masterKey)
            byID[record.id] = try SigningKey(
                privateKeyPEM: String(decoding: pem, as: UTF8.self), id: record.id, algorithm: algorithm)
        }
        guard let active = byID[signer.id] else { throw StoreError.corrupt("signing key \(signer.id) is unreadable") }
        let set = JWKSet(keys: records.compactMap { byID[$0.id]?.publicJWK })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let jwks = Array(try encoder.encode(set))
        return TenantKeys(active: active, byID: byID, jwks: jwks, ids: ids, loadedAt: now)
    }
}
