import Foundation

/// User accounts.
public protocol AccountReading {
    /// The user with this normalized e-mail in a tenant.
    func user(email: String, tenantID: String) throws -> User?
    /// The user with this id in a tenant.
    func user(id: String, tenantID: String) throws -> User?
    /// Users of a tenant, oldest first.
    func users(tenantID: String, limit: Int) throws -> [User]
    /// Up to `limit` users of a tenant whose ids sort after `id` (all when `nil`), by id: one page
    /// of a listing that stays stable while accounts come and go.
    func users(tenantID: String, after id: String?, limit: Int) throws -> [User]
    /// The user count of a tenant.
    func userCount(tenantID: String) throws -> Int
    /// How many accounts of the tenant have no password (they sign in with e-mail codes only).
    func passwordlessUserCount(tenantID: String) throws -> Int
    /// Until when sign-in is delayed for the counter `addressKey` (an unknown address or a trusted
    /// device), if it is.
    func addressDelay(tenantID: String, addressKey: String) throws -> Date?
}

/// Changes to user accounts. The failed-sign-in counter and delay change only through their own
/// atomic statements, never through ``update(_:)``, so a concurrent profile change cannot undo a
/// counted failure.
public protocol AccountWriting: AccountReading {
    /// Adds a user; ``StoreError/conflict`` if the e-mail is taken in the tenant.
    func insert(_ user: User) throws
    /// Replaces a user's profile and credential fields (everything but the sign-in failure state).
    func update(_ user: User) throws
    /// Deletes the user `id` of the tenant, its strong authentication methods and its federated identities.
    /// - Returns: whether there was such a user.
    func deleteUser(id: String, tenantID: String) throws -> Bool
    /// Deletes every user of the tenant, their strong authentication methods, linked identities and
    /// out-of-band codes (the emulator's reset).
    /// - Returns: how many users there were.
    func deleteUsers(tenantID: String) throws -> Int
    /// Stamps that an ID token was issued for the user at `date`: its last refresh, and with
    /// `signIn` also its last sign-in. Its own statement, so it never undoes a concurrent change.
    func recordTokenIssue(userID: String, at date: Date, signIn: Bool) throws
    /// Adds one to the user's consecutive failed sign-ins, atomically.
    /// - Returns: the new count, or `nil` when there is no such user.
    func recordSignInFailure(userID: String) throws -> Int?
    /// Reserves one sign-in attempt before the credential is checked: adds one to the failure count
    /// in a single conditional statement, only while the user's sign-in is not delayed at `date`.
    /// The caller clears the count when the attempt succeeds. Concurrent attempts therefore get at
    /// most the allowance between them, on any engine.
    /// - Returns: the new count, or `nil` when the sign-in is delayed (or there is no such user).
    func reserveSignInAttempt(userID: String, at date: Date) throws -> Int?
    /// ``reserveSignInAttempt(userID:at:)`` on a counter of its own, keyed by a hash: for an
    /// address that has no account (a decoy flow under enumeration protection), so an unknown
    /// address is delayed exactly as a real one is, and for a trusted device (``DeviceToken``),
    /// whose failures count apart from its account's. The two kinds hash different inputs, so
    /// their keys never meet.
    func reserveAddressAttempt(tenantID: String, addressKey: String, at date: Date) throws -> Int?
    /// Delays sign-in for the counter `addressKey` until `date` (or later if already longer).
    func delayAddress(tenantID: String, addressKey: String, until date: Date) throws
    /// Removes the counter `addressKey` and its delay (a trusted device's, after a successful sign-in).
    func clearAddressAttempts(tenantID: String, addressKey: String) throws
    /// Delays the user's next sign-in until `date`, or later if a longer delay is already set.
    func delaySignIn(userID: String, until date: Date) throws
    /// Clears the failure count and any delay after a successful sign-in.
    func clearSignInFailures(userID: String) throws
}
