/// Counters of a ``PostgresDatabase``'s pool, since it opened.
public struct PostgresPoolStatistics: Sendable, Equatable {
    /// Connections open now, lent or idle.
    public var open = 0
    /// Connections lent to a unit of work now.
    public var inUse = 0
    /// Most connections the pool may open.
    public var capacity = 0
    /// Checkouts that had to wait for a connection.
    public var waits = 0
    /// Checkouts that gave up waiting (the unit failed as unavailable).
    public var waitTimeouts = 0
    /// Write units run again after a serialization failure or deadlock.
    public var retries = 0
    /// Connections that failed and were closed, or could not be opened.
    public var connectionFailures = 0

    /// Empty counters.
    public init() {}
}
