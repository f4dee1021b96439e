/// One named schema change for ``SQLiteDatabase/migrate(_:)``.
///
/// Migrations are append-only: once a name is recorded in `schema_migrations` it
/// must stay in the list, in the same place. `sql` may hold several statements
/// and runs inside a transaction (https://sqlite.org/lang_transaction.html), so it
/// must not contain BEGIN/COMMIT, nor pragmas that are no-ops inside a transaction
/// such as `PRAGMA foreign_keys` (https://sqlite.org/pragma.html#pragma_foreign_keys).
/// For table rebuilds follow https://sqlite.org/lang_altertable.html#otheralter.
public struct SQLiteMigration: Sendable {
    /// The unique, permanent name recorded in `schema_migrations`.
    public let name: String
    /// The SQL to run, possibly several statements.
    public let sql: String

    /// A migration called `name` that runs `sql`.
    public init(_ name: String, _ sql: String) {
        self.name = name
        self.sql = sql
    }
}
