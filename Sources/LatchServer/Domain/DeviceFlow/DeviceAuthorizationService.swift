import Foundation
import LatchCrypto

/// The device authorization grant (RFC 8628): a device without a browser gets a device code and a
/// user code (§ 3.1–3.2), the user approves on the verification page (§ 3.3), and the device
/// polls the token endpoint until it gets tokens (§ 3.4–3.5).
///
/// Both codes are stored as SHA-256 only. Wrong user codes on the page are counted per source
/// (``RateLimitKind/userCodeGuesses``, § 5.1); once over the limit every lookup from that source
/// is refused until the bucket refills, right code or not.
public struct DeviceAuthorizationService: Sendable {
    let store: any Store
    let clock: any ServerClock
    let limiter: RateLimiter
    let tokens: TokenService

    /// The grant type of the token request (RFC 8628 § 3.4).
    public static let grantType = GrantType.deviceCode
    /// Seconds both codes live (RFC 8628 § 3.2 `expires_in`).
    public static let lifetime = 600
    /// The initial minimum seconds between polls (RFC 8628 § 3.2 `interval`, its default).
    public static let interval = 5
    /// Seconds added to the interval on each `slow_down` (RFC 8628 § 3.5).
    public static let slowDownStep = 5

    /// Creates the service.
    public init(store: any Store, clock: any ServerClock, limiter: RateLimiter, tokens: TokenService) {
        self.store = store
        self.clock = clock
        self.limiter = limiter
        self.tokens = tokens
    }

    /// Whether `client` may use the device authorization grant: its registered grant types (or
    /// the defaults of its kind) include it.
    public func mayUse(client: Client) -> Bool { client.allows(grant: GrantType.deviceCode) }

    // MARK: - Device authorization request (RFC 8628 § 3.1–3.2)

    /// Starts a device authorization for the authenticated client: a 256-bit device code and an
    /// 8-letter user code, both stored hashed, live for ``lifetime`` seconds.
    /// - Parameter scope: the requested scopes (RFC 6749 § 3.3); absent means `openid offline_access`.
    /// - Throws: ``AuthFailure/unauthorizedClient(_:)`` when ``mayUse(client:)`` says no,
    ///   ``AuthFailure/invalidScope(_:)``, ``AuthFailure/tooManyAttempts(retryAfter:)``.
    public func start(context: ClientContext, scope: String?) throws -> StartedDeviceAuthorization {
        guard mayUse(client: context.client) else {
            throw AuthFailure.unauthorizedClient("the client may not use the device authorization grant")
        }
        let scopes = try ScopeSet(scope, client: context.client)
        try limiter.admit(.flowStarts, context)
        let deviceCode = SecureRandom.token(byteCount: 32)
        let now = clock.now()
        // A user code already taken in the tenant (rare: 20^8 codes) is drawn again.
        for _ in 0..<8 {
            let userCode = UserCode.random()
            let record = DeviceAuthorization(
                deviceCodeHash: Digest.sha256Hex(deviceCode), userCodeHash: userCode.hash, tenantID: context.tenant.id,
                clientID: context.client.id, scopes: scopes.values, interval: Self.interval, createdAt: now,
                expiresAt: now.addingTimeInterval(TimeInterval(Self.lifetime)))
            do {
                try store.writeRelaxed { tx in try tx.insert(record) }
            } catch StoreError.conflict {
                continue
            }
            return StartedDeviceAuthorization(
                deviceCode: deviceCode, userCode: userCode.display, expiresIn: Self.lifetime, interval: Self.interval)
        }
        throw StoreError.conflict
    }

    // MARK: - The verification page (RFC 8628 § 3.3)

    /// The pending authorization whose user code the user typed, for the page to show before the
    /// user approves.
    /// - Parameter remoteAddress: the browser's address, whose wrong guesses are counted.
    /// - Throws: ``AuthFailure/missingParameter(_:)`` without a code,
    ///   ``DeviceFlowFailure/invalidUserCode`` (as ``AuthFailure/deviceAuthorization(_:)``) for a
    ///   malformed, unknown, expired or already decided code, and
    ///   ``AuthFailure/tooManyAttempts(retryAfter:)`` once the address guessed wrong too often.
    public func pending(userCode: String?, tenant: Tenant, remoteAddress: String) throws -> PendingDeviceAuthorization {
        guard let typed = userCode, !typed.isEmpty else { throw AuthFailure.missingParameter(.userCode) }
        enum Lookup {
            case found(DeviceAuthorization, clientName: String, UserCode)
            case refused(AuthFailure)
        }
        let now = clock.now()
        let lookup: Lookup = try store.writeRelaxed { tx in
            if let refusal = try limiter.refuseIfExhausted(
                .userCodeGuesses, tenant: tenant, clientID: nil, source: remoteAddress, in: tx)
            {
                return .refused(refusal)
            }
            guard let code = UserCode(typed: typed),
                let found = try tx.deviceAuthorization(userCodeHash: code.hash, tenantID: tenant.id),
                found.expiresAt > now
            else {
                let refusal = try limiter.take(
                    .userCodeGuesses, tenant: tenant, clientID: nil, source: remoteAddress, in: tx)
                return .refused(refusal ?? AuthFailure.deviceAuthorization(.invalidUserCode))
            }
            guard found.status == .pending else { return .refused(AuthFailure.deviceAuthorization(.invalidUserCode)) }
            let name = try tx.client(id: found.clientID, tenantID: tenant.id)?.name ?? found.clientID
            return .found(found, clientName: name, code)
        }
        switch lookup {
        case .refused(let failure):
            throw failure
        case .found(let found, let name, let code):
            return PendingDeviceAuthorization(
                clientID: found.clientID, clientName: name, scopes: found.scopes, expiresAt: found.expiresAt,
                userCode: code.display)
        }
    }

    /// The signed-in user `userID` approves the pending authorization of `userCode`; the device's
    /// next poll gets tokens with this `authTime` and `amr`.
    /// - Throws: ``DeviceFlowFailure/invalidUserCode`` when the code is malformed, unknown,
    ///   expired or already decided (of two concurrent decisions exactly one applies);
    ///   ``AuthFailure/userNotFound`` / ``AuthFailure/userDisabled`` for the user;
    ///   ``AuthFailure/claimsChallenge(_:)`` when the tenant's MFA policy wants a second factor for
    ///   this client and scopes that `amr` lacks (the page runs the MFA step, then approves again).
    public func approve(userCode: String, tenant: Tenant, userID: String, authTime: Date, amr: [String]) throws {
        guard let code = UserCode(typed: userCode) else { throw AuthFailure.deviceAuthorization(.invalidUserCode) }
        let now = clock.now()
        try store.write { tx in
            guard let found = try tx.deviceAuthorization(userCodeHash: code.hash, tenantID: tenant.id),
                found.status == .pending, found.expiresAt > now
            else { throw AuthFailure.deviceAuthorization(.invalidUserCode) }
            guard let user = try tx.user(id: userID, tenantID: tenant.id) else { throw AuthFailure.userNotFound }
            guard !user.disabled else { throw AuthFailure.userDisabled }
            if !amr.contains("mfa"),
                tenant.settings.mfa.requiresSecondFactor(clientID: found.clientID, scopes: found.scopes)
            {
                throw AuthFailure.claimsChallenge(TokenService.secondFactorClaims)
            }
            guard
                try tx.decideDeviceAuthorization(
                    userCodeHash: code.hash, tenantID: tenant.id,
                    decision: .approved(userID: userID, authTime: authTime, amr: amr), at: now)
            else { throw AuthFailure.deviceAuthorization(.invalidUserCode) }
            try tx.insert(
                AuditEvent(
                    tenantID: tenant.id, at: now, kind: .deviceAuthorizationApproved, userID: userID,
                    clientID: found.clientID, detail: "amr=\(amr.joined(separator: ","))"))
        }
    }

    /// The user denies the pending authorization of `userCode`; the device's polls then answer
    /// `access_denied`.
    /// - Throws: ``DeviceFlowFailure/invalidUserCode`` when the code is malformed, unknown,
    ///   expired or already decided.
    public func deny(userCode: String, tenant: Tenant) throws {
        guard let code = UserCode(typed: userCode) else { throw AuthFailure.deviceAuthorization(.invalidUserCode) }
        let now = clock.now()
        let applied = try store.write { tx in
            guard let found = try tx.deviceAuthorization(userCodeHash: code.hash, tenantID: tenant.id),
                try tx.decideDeviceAuthorization(userCodeHash: code.hash, tenantID: tenant.id, decision: .denied, at: now)
            else { return false }
            try tx.insert(
                AuditEvent(tenantID: tenant.id, at: now, kind: .deviceAuthorizationDenied, clientID: found.clientID))
            return true
        }
        guard applied else { throw AuthFailure.deviceAuthorization(.invalidUserCode) }
    }
}
