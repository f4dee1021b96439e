import Foundation
import LatchCrypto

/// Password verification as one service any wire calls: the sign-in delay check, the decoy hash
/// for unknown accounts, the failure count and delay, the audit trail and the rehash of hashes made
/// with older parameters (NIST SP 800-63B § 5.2.2, OWASP Authentication Cheat Sheet).
public struct PasswordVerifier: Sendable {
    let store: any Store
    let hasher: any PasswordHasher
    let clock: any ServerClock
    let observe: @Sendable (SignInOutcome) -> Void
    private let decoys = DecoyHashes()

    init(
        store: any Store, hasher: any PasswordHasher, clock: any ServerClock, observe: @escaping @Sendable (SignInOutcome) -> Void
    ) {
        self.store = store
        self.hasher = hasher
        self.clock = clock
        self.observe = observe
    }

    /// A password that checked out.
    public struct Verified: Sendable {
        /// A fresh hash to store when the old one was made with other parameters.
        public var rehashed: String?
    }

    /// Verifies `password` for `user` (`nil`: no such account, which costs a decoy hash so timing
    /// does not tell). A delayed account is refused before Argon2 runs, so guessing costs nothing.
    ///
    /// On a wrong password, one write counts the failure against the account (atomically), starts or
    /// extends its delay from the tenant's threshold on, audits both, and runs `onFailure` (for the
    /// caller's own counters, e.g. the flow's) before ``AuthFailure/invalidCredentials`` is thrown.
    /// - Throws: ``AuthFailure/tooManyAttempts(retryAfter:)`` while delayed,
    ///   ``AuthFailure/invalidCredentials``, ``AuthFailure/userDisabled``.
    public func verify(
        _ password: String, for user: User?, context: ClientContext,
        onFailure: (any StoreWriting) throws -> Void = { _ in }
    ) throws -> Verified {
        if let user {
            do {
                try checkDelay(user)
            } catch let failure as AuthFailure {
                try record(failure, context: context, userID: user.id)
                throw failure
            }
        }
        guard let user, let stored = user.passwordHash, hasher.verify(password, against: stored) else {
            if user?.passwordHash == nil { _ = hasher.verify(password, against: decoys.value(for: hasher)) }
            try store.write { tx in
                try onFailure(tx)
                if let user { try countFailure(tx, context: context, userID: user.id) }
                try tx.insert(failureEvent(context, userID: user?.id, failure: .invalidCredentials))
            }
            observe(.invalidCredentials)
            throw AuthFailure.invalidCredentials
        }
        guard !user.disabled else {
            try record(.userDisabled, context: context, userID: user.id)
            throw AuthFailure.userDisabled
        }
        return Verified(rehashed: hasher.needsRehash(stored) ? try hasher.hash(password) : nil)
    }

    /// Throws ``AuthFailure/tooManyAttempts(retryAfter:)`` while `user`'s sign-in is delayed.
    func checkDelay(_ user: User) throws {
        let now = clock.now()
        guard let until = user.signInBlockedUntil, until > now else { return }
        throw AuthFailure.tooManyAttempts(retryAfter: FlowEngine.seconds(from: now, until: until))
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

    /// Audits and observes a failed sign-in in a write of its own.
    func record(_ failure: AuthFailure, context: ClientContext, userID: String?) throws {
        observe(SignInOutcome(failure))
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

    func value(for hasher: any PasswordHasher) -> String {
        let key = hasher.configurationKey
        if let cached = cache.read({ $0[key] }) { return cached }
        let made = (try? hasher.hash(SecureRandom.token())) ?? ""
        cache.write { $0[key] = made }
        return made
    }
}
