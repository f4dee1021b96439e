import Foundation

/// Persistent storage for the domain. Work happens inside closures so no caller can forget to
/// commit or hold a connection across requests; `write` returns only once its changes are durable.
///
/// The protocol speaks in domain records only, so any engine can implement it without touching the
/// domain. Its contract holds without a single writer: the writes whose correctness depends on
/// "nobody else got there first" (consuming or advancing a flow, rotating a refresh token, counting
/// a failed sign-in) are conditional statements that report whether they applied, and the domain
/// acts on that answer. A `write` body may be run more than once (an engine may retry it after a
/// serialization failure), so bodies act only through the transaction they are given.
/// `StoreConformance` in the test suite runs the same checks against every implementation.
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
    /// Waits for queued writes and releases the engine's resources. Later calls fail with
    /// ``StoreError/unavailable(_:)``; calling it twice is harmless.
    func close()
}

/// Queries available inside ``Store/read(_:)`` and ``Store/write(_:)``: one protocol per aggregate.
public protocol StoreReading:
    DirectoryReading, AccountReading, AuthMethodReading, FlowReading, SessionReading, OutboxReading, AdminTokenReading,
    IdentityProviderReading, OobCodeReading, BrowserSessionReading, DeviceAuthorizationReading, ClientKeyReading
{}

/// Changes available inside ``Store/write(_:)``: one protocol per aggregate.
public protocol StoreWriting:
    StoreReading, DirectoryWriting, AccountWriting, AuthMethodWriting, FlowWriting, SessionWriting, OutboxWriting,
    LimitWriting, AdminTokenWriting, IdentityProviderWriting, OobCodeWriting, BrowserSessionWriting,
    DeviceAuthorizationWriting, ClientKeyWriting
{
    /// Deletes what has outlived its use: outbox messages created before `outboxBefore`, token
    /// families (with their refresh tokens) that expired or were revoked before `sessionsBefore`,
    /// and out-of-band codes, authorization codes, browser sessions and device authorizations that
    /// expired before `sessionsBefore`.
    func purge(outboxBefore: Date, sessionsBefore: Date) throws
}
