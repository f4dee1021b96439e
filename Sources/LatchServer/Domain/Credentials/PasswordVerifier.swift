import Foundation
import LatchCrypto

/// Password verification as one service any wire calls: the sign-in delay check, the decoy hash
/// for unknown accounts, the failure count and delay, the audit trail and the rehash of hashes made
/// with older parameters or imported from another system (``ImportedPasswordHash``), which are
/// replaced by the hasher's own on their first successful sign-in (NIST SP 800-63B § 5.2.2, OWASP
/// Authentication Cheat Sheet).
public struct PasswordVerifier: Sendable {
    let store: any Store
    let hasher: any PasswordHasher
    let clock: any ServerClock
    let limiter: RateLimiter
    let observe: @Sendable (SignInOutcome) -> Void
    let aggregator: AuditAggregator
    private let decoys = DecoyHashes()

    init(
        store: any Store, hasher: any PasswordHasher, clock: any ServerClock, limiter: RateLimiter,
        aggregator: AuditAggregator, observe: @escaping @Sendable (SignInOutcome) -> Void
    ) {
        self.limiter = limiter
        self.store = store
        self.hasher = hasher
        self.clock = clock
        self.aggregator = aggregator
        self.observe = observe
    }

    /// A password that checked out.
    public struct Verified: Sendable {
        /// A fresh hash to store when the old one was made with other parameters.
        public var rehashed: String?
    }

    /// Verifies `password` for `user` (`nil`: no such account, which costs a decoy hash so timing
    /// does not tell).
    ///
    /// For a real account the attempt is reserved first, atomically: the failure count goes up
    /// before Argon2 runs, only while the account is not delayed, and the attempt that reaches the
    /// tenant's threshold starts the delay. So N concurrent guesses get at most the allowance
    /// checked, and a delayed account is refused without hashing. A verified password leaves its
    /// reservation for the caller's commit to clear (``SessionIssuer`` clears it with the sign-in).
    ///
    /// On a wrong password, one write audits the failure (and the delay it started) and runs
    /// `onFailure` (for the caller's own counters, e.g. the flow's) before
    /// ``AuthFailure/invalidCredentials`` is thrown.
    /// - Throws: ``AuthFailure/tooManyAttempts(retryAfter:)`` while delayed, or when the hasher
    ///   refuses the check because the request's source holds more than its share of the places
    ///   waiting for a core (the attempt stays reserved, as a wrong password's would),
    ///   ``AuthFailure/invalidCredentials``, ``AuthFailure/userDisabled``.
    ///
    /// Under enumeration protection an address without an account is reserved and delayed the same
    /// way, keyed by a hash of `address`, so its answers and 429s match a real account's.
    ///
    /// With a trusted `device` (a device token of this user that ``DeviceTrust`` accepted), the
    /// attempt is reserved on that device's own counter instead of the account's, on the same
    /// schedule (OWASP "Slow Down Online Guessing Attacks with Device Cookies"): the account-wide
    /// delay, which strangers' wrong passwords start, does not apply to it, and its wrong passwords
    /// do not count against the account. So someone holding the device (a stolen laptop) is
    /// stopped by the device's limit alone, as OWASP prescribes, while every other source stays
    /// under the account's. ``SessionIssuer`` clears the device's counter with its sign-in.
    public func verify(
        _ password: String, for user: User?, address: String, device: DeviceToken? = nil, context: ClientContext,
        onFailure: (any StoreWriting) throws -> Void = { _ in }
    ) throws -> Verified {
        try limiter.admit(.passwordAttempts, context)
        let reservation = try user.map { user in
            guard let device, device.userID == user.id else { return try reserve(user, context: context) }
            return try reserve(key: device.counterKey, context: context, userID: user.id, scope: "device ")
        }
        if user == nil, context.tenant.settings.enumerationProtection {
            _ = try reserve(key: Digest.sha256Hex(context.tenant.id + ":" + address), context: context, userID: nil)
        }
        // Without a stored hash the decoy costs the same time, and never matches.
        let source = context.hashingSource
        let stored = user?.passwordHash
        let matches: Bool
        if let stored, let imported = ImportedPasswordHash.decode(stored) {
            // An imported hash (Firebase scrypt, bcrypt, PBKDF2, HMAC): checked on the hasher's
            // cores, and rehashed to the hasher's own below once it matches.
            matches = try hasher.verifyImported(password, against: imported, for: source)
        } else {
            matches = try hasher.verify(password, against: stored ?? decoys.value(for: hasher, source: source), for: source)
        }
        guard let user, let stored, matches else {
            guard let user else {
                // No account: counted for the summary row, and nothing written per request.
                try store.write { tx in try onFailure(tx) }
                aggregator.count(tenantID: context.tenant.id, reason: SignInOutcome.invalidCredentials.rawValue)
                observe(.invalidCredentials)
                throw AuthFailure.invalidCredentials
            }
            try store.write { tx in
                try onFailure(tx)
                if let reservation, let delay = reservation.delayStarted {
                    try tx.insert(
                        AuditEvent(
                            tenantID: context.tenant.id, at: clock.now(), kind: .signInBlocked, userID: user.id,
                            clientID: context.client.id, remoteAddress: context.remoteAddress,
                            detail: "\(reservation.scope)failures=\(reservation.failures) delay=\(delay)s"))
                }
                try tx.insert(failureEvent(context, userID: user.id, failure: .invalidCredentials))
            }
            observe(.invalidCredentials)
            throw AuthFailure.invalidCredentials
        }
        guard !user.disabled else {
            try record(.userDisabled, context: context, userID: user.id)
            throw AuthFailure.userDisabled
        }
        var rehashed: String?
        if hasher.needsRehash(stored) {
            do {
                rehashed = try hasher.hash(password, for: source)
            } catch AuthFailure.tooManyAttempts {
                rehashed = nil  // refused while busy: the next sign-in rehashes
            }
        }
        return Verified(rehashed: rehashed)
    }

    /// An admitted attempt: the failure count it took, and the delay it started, if it reached the
    /// threshold.
    struct Reservation {
        let failures: Int
        let delayStarted: Int?
        /// What the count is kept on, as the audit detail's prefix: empty for the account.
        var scope = ""
    }

    /// A reservation on a keyed counter (an unknown address's under enumeration protection, a
    /// trusted device's): the same schedule as ``reserve(_:context:)``. A refusal is audited under
    /// `userID` (none for an unknown address, which is only counted).
    private func reserve(key: String, context: ClientContext, userID: String?, scope: String = "") throws -> Reservation {
        let now = clock.now()
        let tenantID = context.tenant.id
        let admitted: Reservation? = try store.write { tx in
            guard let failures = try tx.reserveAddressAttempt(tenantID: tenantID, addressKey: key, at: now) else {
                return nil
            }
            guard let delay = context.tenant.settings.signInDelay(afterFailures: failures) else {
                return Reservation(failures: failures, delayStarted: nil, scope: scope)
            }
            try tx.delayAddress(tenantID: tenantID, addressKey: key, until: now.addingTimeInterval(TimeInterval(delay)))
            return Reservation(failures: failures, delayStarted: delay, scope: scope)
        }
        if let admitted { return admitted }
        let until = try store.read { try $0.addressDelay(tenantID: tenantID, addressKey: key) } ?? now
        let failure = AuthFailure.tooManyAttempts(retryAfter: FlowEngine.seconds(from: now, until: until))
        try record(failure, context: context, userID: userID)
        throw failure
    }

    /// Reserves one attempt for `user`, or throws ``AuthFailure/tooManyAttempts(retryAfter:)``
    /// (audited) while the account is delayed.
    private func reserve(_ user: User, context: ClientContext) throws -> Reservation {
        let now = clock.now()
        let admitted: Reservation? = try store.write { tx in
            guard let failures = try tx.reserveSignInAttempt(userID: user.id, at: now) else { return nil }
            guard let delay = context.tenant.settings.signInDelay(afterFailures: failures) else {
                return Reservation(failures: failures, delayStarted: nil)
            }
            try tx.delaySignIn(userID: user.id, until: now.addingTimeInterval(TimeInterval(delay)))
            return Reservation(failures: failures, delayStarted: delay)
        }
        if let admitted { return admitted }
        let until = try store.read { try $0.user(id: user.id, tenantID: user.tenantID) }?.signInBlockedUntil ?? now
        let failure = AuthFailure.tooManyAttempts(retryAfter: FlowEngine.seconds(from: now, until: until))
        try record(failure, context: context, userID: user.id)
        throw failure
    }

    /// In the failure's transaction: counts a wrong password or code against the account and, from
    /// the tenant's threshold on, delays its next sign-in (doubling per failure up to the maximum)
    /// and audits the delay. The count is one atomic increment, so concurrent failures all count.
    func countFailure(_ tx: any StoreWriting, context: ClientContext, userID: String) throws {
        guard let failures = try tx.recordSignInFailure(userID: userID) else { return }
        guard let delay = context.tenant.settings.signInDelay(afterFailures: failures) else { return }
        let now = clock.now()
        try tx.delaySignIn(userID: userID, until: now.addingTimeInterval(TimeInterval(delay)))
        try tx.insert(
            AuditEvent(
                tenantID: context.tenant.id, at: now, kind: .signInBlocked, userID: userID,
                clientID: context.client.id, remoteAddress: context.remoteAddress,
                detail: "failures=\(failures) delay=\(delay)s"))
    }
    /// The account a sign-in names by `email`, on any wire (never an anonymous account): `nil` for
    /// an unknown address under enumeration protection (the sign-in goes on against a decoy and fails like a wrong
    /// password). Each refusal is recorded.
    /// - Throws: ``AuthFailure/userNotFound`` for an unknown address without enumeration
    ///   protection; ``AuthFailure/userDisabled`` for a disabled account.
    func signInAccount(email: String, context: ClientContext) throws -> User? {
        let tenant = context.tenant
        // An anonymous or custom-token account's address is a placeholder nobody signs in with.
        let user = try store.read { try $0.user(email: email, tenantID: tenant.id) }.flatMap {
            AccountProfile.isAnonymous($0) || AccountProfile.isCustom($0) ? nil : $0
        }
        if user == nil, !tenant.settings.enumerationProtection {
            try record(.userNotFound, context: context, userID: nil)
            throw AuthFailure.userNotFound
        }
        if let user, user.disabled {
            try record(.userDisabled, context: context, userID: user.id)
            throw AuthFailure.userDisabled
        }
        return user
    }

    /// Audits and observes a failed sign-in in a write of its own; a failure that names no account
    /// is only counted for the aggregated summary row (``AuditAggregator``).
    func record(_ failure: AuthFailure, context: ClientContext, userID: String?) throws {
        observe(SignInOutcome(failure))
        guard let userID else {
            aggregator.count(tenantID: context.tenant.id, reason: SignInOutcome(failure).rawValue)
            return
        }
        try store.write { tx in try tx.insert(failureEvent(context, userID: userID, failure: failure)) }
    }

    func failureEvent(_ context: ClientContext, userID: String?, failure: AuthFailure) -> AuditEvent {
        let reason = if case .tooManyAttempts = failure { "too_many_attempts" } else { SignInOutcome(failure).rawValue }
        return AuditEvent(
            tenantID: context.tenant.id, at: clock.now(), kind: .signInFailed, userID: userID,
            clientID: context.client.id, remoteAddress: context.remoteAddress, detail: "reason=\(reason)")
    }
}

/// Hashes verified when the account does not exist (or has no password), made with the hasher's
/// own parameters so an unknown user costs the same time as a wrong password.
final class DecoyHashes: Sendable {
    private let cache = ReadMostly<[String: String]>([:])

    /// The decoy for `hasher`'s parameters, made (for `source`) on first use; a failure to make it
    /// is thrown, not cached.
    func value(for hasher: any PasswordHasher, source: HashingSource) throws -> String {
        let key = hasher.configurationKey
        if let cached = cache.read({ $0[key] }) { return cached }
        let made = try hasher.hash(SecureRandom.token(), for: source)
        cache.write { $0[key] = made }
        return made
    }
}
