/// How a ``PostgresDatabase`` uses its server.
public struct PostgresConfiguration: Sendable {
    /// Most connections open at once; callers beyond it wait. PostgreSQL's own default
    /// `max_connections` is 100, shared by every instance.
    public var maxConnections = 16
    /// Longest a caller waits for a free connection before the unit fails as unavailable.
    public var acquireTimeoutSeconds = 5.0
    /// Most runs of one write unit after serialization failures or deadlocks.
    public var maxAttempts = 12

    /// Turns the statement text a caller passes into the SQL that is prepared; called once per
    /// statement and connection, when the statement is first prepared (for example to turn another
    /// engine's placeholders into `$1`, `$2`, …). The default keeps the text.
    public var statementText: @Sendable (String) -> String = { $0 }

    /// The defaults.
    public init() {}
}
