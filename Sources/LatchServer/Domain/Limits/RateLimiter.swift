import Foundation

/// Per-source token buckets for the unauthenticated work every wire offers: flow starts, code
/// sends, password checks and token requests (``RateLimitKind``), sized per tenant by
/// ``TenantSettings/rateLimits``.
///
/// The buckets live in the Store, not in process memory: every server instance on one database
/// shares them, so N instances do not multiply the allowance, and a restart does not reset it. A
/// take is one conditional upsert in a relaxed write (``Store/writeRelaxed(_:)``): a power loss may
/// forget the last takes, which only hands back a few requests.
public struct RateLimiter: Sendable {
    let store: any Store
    let clock: any ServerClock

    /// Creates a limiter over `store`.
    public init(store: any Store, clock: any ServerClock) {
        self.store = store
        self.clock = clock
    }

    /// Takes one request of `kind` from the bucket of the caller's source address in its tenant.
    ///
    /// The first refusal after the bucket last admitted a request writes one
    /// ``AuditEvent/Kind/rateLimited`` event; further refusals in the same trip write nothing.
    /// - Throws: ``AuthFailure/tooManyAttempts(retryAfter:)`` with the whole seconds until the
    ///   bucket holds a token again (RFC 6585 § 4, RFC 9110 § 10.2.3).
    public func admit(_ kind: RateLimitKind, _ context: ClientContext) throws {
        guard context.tenant.settings.rateLimits[kind].isEnabled else { return }
        if let refusal = try store.writeRelaxed({ tx in try take(kind, context, in: tx) }) { throw refusal }
    }

    /// ``admit(_:_:)`` inside a write the caller makes anyway, which saves a transaction on hot
    /// paths (the refresh grant). On refusal it records the trip in `tx` and returns the failure
    /// instead of throwing it: the caller must let `tx` commit, then throw it.
    func take(_ kind: RateLimitKind, _ context: ClientContext, in tx: any StoreWriting) throws -> AuthFailure? {
        try take(kind, tenant: context.tenant, clientID: context.client.id, source: context.remoteAddress, in: tx)
    }

    /// ``take(_:_:in:)`` for a request that names no client (the device verification page).
    func take(_ kind: RateLimitKind, tenant: Tenant, clientID: String?, source: String, in tx: any StoreWriting) throws
        -> AuthFailure?
    {
        let limit = tenant.settings.rateLimits[kind]
        guard limit.isEnabled else { return nil }
        let bucket = Self.bucket(kind, tenantID: tenant.id, source: source)
        if try tx.takeRateToken(
            bucket: bucket, capacity: Double(limit.count), refillPerSecond: limit.refillPerSecond, at: clock.now())
        {
            return nil
        }
        return try refusal(kind, tenant: tenant, clientID: clientID, source: source, in: tx)
    }

    /// For limits that count failures only (wrong user codes): refuses, without taking a token,
    /// when the source's bucket is empty, so that once over the limit even a right guess is
    /// refused. The failure is returned, not thrown, and the caller lets `tx` commit, as with
    /// ``take(_:_:in:)``; a failure then takes with ``take(_:tenant:clientID:source:in:)``.
    func refuseIfExhausted(
        _ kind: RateLimitKind, tenant: Tenant, clientID: String?, source: String, in tx: any StoreWriting
    ) throws -> AuthFailure? {
        let limit = tenant.settings.rateLimits[kind]
        guard limit.isEnabled else { return nil }
        let bucket = Self.bucket(kind, tenantID: tenant.id, source: source)
        guard
            let available = try tx.availableRateTokens(
                bucket: bucket, capacity: Double(limit.count), refillPerSecond: limit.refillPerSecond, at: clock.now()),
            available < 1
        else { return nil }
        return try refusal(kind, tenant: tenant, clientID: clientID, source: source, in: tx)
    }

    /// Counts a refusal against the bucket, audits the first of a trip, and returns the failure.
    private func refusal(_ kind: RateLimitKind, tenant: Tenant, clientID: String?, source: String, in tx: any StoreWriting)
        throws -> AuthFailure
    {
        let limit = tenant.settings.rateLimits[kind]
        let rate = limit.refillPerSecond
        let bucket = Self.bucket(kind, tenantID: tenant.id, source: source)
        let now = clock.now()
        let denial =
            try tx.recordRateDenial(bucket: bucket, capacity: Double(limit.count), refillPerSecond: rate, at: now)
            ?? RateDenial(available: 0, refusalsInTrip: 1)
        if denial.refusalsInTrip == 1 {
            try tx.insert(
                AuditEvent(
                    tenantID: tenant.id, at: now, kind: .rateLimited, clientID: clientID, remoteAddress: source,
                    detail: "limit=\(kind.rawValue) \(limit.description)"))
        }
        return AuthFailure.tooManyAttempts(retryAfter: Self.retryAfter(available: denial.available, refillPerSecond: rate))
    }

    /// The bucket's name: kind, tenant and ``SourceAddress/key(_:)``.
    static func bucket(_ kind: RateLimitKind, tenantID: String, source: String) -> String {
        "\(kind.rawValue)|\(tenantID)|\(SourceAddress.key(source))"
    }

    /// Whole seconds until a bucket at `available` tokens holds one again, at least 1.
    static func retryAfter(available: Double, refillPerSecond: Double) -> Int {
        guard refillPerSecond > 0 else { return 1 }
        let seconds = (1 - min(1, max(0, available))) / refillPerSecond
        return max(1, Int(seconds.rounded(.up)))
    }
}
