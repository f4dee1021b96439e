/// The SQL engine under a ``SQLStoreSession``: one connection inside one transaction.
///
/// The session's statements are written once for both engines, with `?` or `?N` placeholders; the
/// few expressions the engines spell differently come from ``dialect``. Failures arrive as
/// ``StoreError`` (a unique violation is ``StoreError/conflict``), except the ones an engine needs
/// to see itself (PostgreSQL's serialization failures, which re-run the unit).
protocol SQLConnection {
    /// Which engine this is.
    var dialect: SQLDialect { get }
    /// Rows the last statement inserted, updated or deleted.
    var changes: Int { get }
    /// Runs a statement that returns no rows.
    func run(_ sql: String, _ bindings: [SQLValue]) throws
    /// Runs a statement that may break a uniqueness rule the caller handles: on
    /// ``StoreError/conflict`` the transaction stays usable.
    func runAllowingConflict(_ sql: String, _ bindings: [SQLValue]) throws
    /// Runs a query.
    func query(_ sql: String, _ bindings: [SQLValue]) throws -> [SQLRow]
    /// Runs a query and returns its first row; later rows need not be computed.
    func queryOne(_ sql: String, _ bindings: [SQLValue]) throws -> SQLRow?
}

/// The SQL the two engines spell differently.
enum SQLDialect: Sendable {
    /// SQLite 3 (https://sqlite.org/lang.html).
    case sqlite
    /// PostgreSQL 15 (https://www.postgresql.org/docs/15/sql.html).
    case postgres

    /// The larger of two values: SQLite's two-argument `max`, PostgreSQL's `GREATEST`.
    func greatest(_ a: String, _ b: String) -> String {
        self == .sqlite ? "max(\(a), \(b))" : "GREATEST(\(a), \(b))"
    }

    /// The smaller of two values: SQLite's two-argument `min`, PostgreSQL's `LEAST`.
    func least(_ a: String, _ b: String) -> String {
        self == .sqlite ? "min(\(a), \(b))" : "LEAST(\(a), \(b))"
    }

    /// A real truncated toward zero to an integer: SQLite's `CAST … AS INTEGER` truncates, while
    /// PostgreSQL's rounds, so it truncates first.
    func truncatedInteger(_ expression: String) -> String {
        self == .sqlite ? "CAST(\(expression) AS INTEGER)" : "CAST(trunc(\(expression)) AS BIGINT)"
    }
}
