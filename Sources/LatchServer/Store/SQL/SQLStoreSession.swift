/// One transaction's view of a SQL store, SQLite or PostgreSQL: the store's statements, written
/// once for both engines (see ``SQLConnection``). Exists only inside `read`/`write` closures.
struct SQLStoreSession {
    let connection: any SQLConnection

    /// The engine's spelling of what the engines spell differently.
    var dialect: SQLDialect { connection.dialect }

    /// Runs a statement.
    func run(_ sql: String, _ bindings: [SQLValue]) throws {
        try connection.run(sql, bindings)
    }

    /// Runs a statement whose ``StoreError/conflict`` the caller handles and goes on after.
    func runAllowingConflict(_ sql: String, _ bindings: [SQLValue]) throws {
        try connection.runAllowingConflict(sql, bindings)
    }

    /// Runs a query.
    func query(_ sql: String, _ bindings: [SQLValue]) throws -> [SQLRow] {
        try connection.query(sql, bindings)
    }

    /// Runs a query expected to return at most one row.
    func queryOne(_ sql: String, _ bindings: [SQLValue]) throws -> SQLRow? {
        try connection.queryOne(sql, bindings)
    }
}
