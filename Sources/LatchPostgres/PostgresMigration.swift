/// One named, append-only schema change, applied once per database.
public struct PostgresMigration: Sendable {
    /// The unique name recorded in `schema_migrations` (e.g. `001_initial`).
    public let name: String
    /// The statements, separated by semicolons.
    public let sql: String

    /// Creates a migration.
    public init(_ name: String, _ sql: String) {
        self.name = name
        self.sql = sql
    }
}
