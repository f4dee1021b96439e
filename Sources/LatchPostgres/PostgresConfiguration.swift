/// How a ``PostgresDatabase`` uses its server.
public struct PostgresConfiguration: Sendable {
    /// Most connections open at once; callers beyond it wait. PostgreSQL's own default
    /// `max_connections` is 100, shared by every instance.
    public var maxConnections = 16
    /// Longest a caller waits for a free connection before the unit fails as unavailable.
    public var acquireTimeoutSeconds = 5.0
    /// Most runs of one write unit after serialization failures or deadlocks.
    public var maxAttempts = 12

    /// Connection parameters the database URL may override: a connection attempt gives up after
    /// 5 s, unacknowledged data fails the connection after 10 s (`tcp_user_timeout`) and idle ones
    /// are probed (TCP keepalives), so a vanished server fails units instead of hanging them; a
    /// statement may run at most 30 s (https://www.postgresql.org/docs/15/libpq-connect.html#LIBPQ-PARAMKEYWORDS).
    public var connectionDefaults: [(String, String)] = [
        ("connect_timeout", "5"), ("tcp_user_timeout", "10000"), ("keepalives", "1"), ("keepalives_idle", "30"),
        ("keepalives_interval", "5"), ("keepalives_count", "3"), ("application_name", "latchd"),
        ("options", "-c statement_timeout=30000"),
    ]

    /// Turns the statement text a caller passes into the SQL that is prepared; called once per
    /// statement and connection, when the statement is first prepared (for example to turn another
    /// engine's placeholders into `$1`, `$2`, …). The default keeps the text.
    public var statementText: @Sendable (String) -> String = { $0 }

    /// The defaults.
    public init() {}
}
