import Foundation
import LatchSQLite

@testable import LatchServer

/// A database as a server at migration `003_flow_code_sends` left it: the flows table with one column
/// per step value, before `004_flow_state_and_successors` folded them into one versioned state.
/// Migrations are append-only and never edited, so the shipped 001–003 are exactly what such a
/// server ran.
enum FlowStateMigrationFixture {
    /// The migrations a server at 003 had applied.
    static let shipped = Array(SQLiteSchema.migrations.prefix { $0.name <= "003_flow_code_sends" })

    /// The whole script: the three migrations and their records, the way `SQLiteDatabase.migrate`
    /// writes them (`schema_migrations(name, applied_at)`).
    static var schemaScript: String {
        let records = shipped.map {
            "INSERT INTO schema_migrations (name, applied_at) VALUES ('\($0.name)', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));"
        }
        let table = "CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY NOT NULL, applied_at TEXT NOT NULL);"
        return ([table] + shipped.map(\.sql) + records).joined(separator: "\n")
    }
}
