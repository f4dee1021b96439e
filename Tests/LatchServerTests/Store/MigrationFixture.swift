import Foundation
import LatchSQLite

@testable import LatchServer

/// Databases as an older server left them: the schema after the shipped migrations up to one of
/// them, for the migration tests to plant old rows in and open with today's store. Migrations are
/// append-only and never edited, so the shipped ones are exactly what such a server ran.
enum MigrationFixture {
    /// The whole script of a server whose last migration was `last`: the migrations and their
    /// records, the way `SQLiteDatabase.migrate` writes them (`schema_migrations(name, applied_at)`).
    static func schemaScript(through last: String) -> String {
        let shipped = Array(SQLiteSchema.migrations.prefix { $0.name <= last })
        let records = shipped.map {
            "INSERT INTO schema_migrations (name, applied_at) VALUES ('\($0.name)', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));"
        }
        let table = "CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY NOT NULL, applied_at TEXT NOT NULL);"
        return ([table] + shipped.map(\.sql) + records).joined(separator: "\n")
    }
}
