import LatchSQLite
import Testing

@Suite struct SQLiteMigrationTests {
    static let v1 = [
        SQLiteMigration("001_users", "CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT NOT NULL UNIQUE);"),
        SQLiteMigration(
            "002_sessions",
            """
            CREATE TABLE sessions (id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users(id));
            CREATE INDEX sessions_user ON sessions(user_id);
            """),
    ]

    @Test func appliesOnceAndRecords() throws {
        try withDatabase { db, _ in
            try db.migrate(Self.v1)
            let recorded = try db.read { try $0.query("SELECT name, applied_at FROM schema_migrations ORDER BY rowid") }
            #expect(recorded.map { $0.string("name") } == ["001_users", "002_sessions"])
            #expect(recorded.allSatisfy { ($0.string("applied_at") ?? "").hasSuffix("Z") })

            // Rerunning is a no-op (it would fail with "table users already exists" otherwise).
            try db.migrate(Self.v1)
            #expect(try db.read { try $0.query("SELECT name FROM schema_migrations") }.count == 2)

            // Appending applies only the new one.
            try db.migrate(Self.v1 + [SQLiteMigration("003_email_index", "ALTER TABLE users ADD COLUMN name TEXT")])
            #expect(try db.read { try $0.query("SELECT name FROM schema_migrations") }.count == 3)
            try db.write { try $0.run("INSERT INTO users (email, name) VALUES ('a', 'b')") }
        }
    }

    @Test func refusesUnknownDuplicateAndOutOfOrder() throws {
        try withDatabase { db, _ in
            try db.migrate(Self.v1)
            #expect(throws: SQLiteMigrationError.unknownApplied("002_sessions")) { try db.migrate([Self.v1[0]]) }
            #expect(throws: SQLiteMigrationError.duplicateName("001_users")) { try db.migrate(Self.v1 + [Self.v1[0]]) }
            let inserted = [Self.v1[0], SQLiteMigration("001b", "SELECT 1"), Self.v1[1]]
            #expect(throws: SQLiteMigrationError.outOfOrder(missing: "001b", applied: "002_sessions")) {
                try db.migrate(inserted)
            }
        }
    }

    @Test func failingMigrationIsRolledBackAndNotRecorded() throws {
        try withDatabase { db, _ in
            let broken = SQLiteMigration("002_broken", "CREATE TABLE half (x); INSERT INTO nowhere VALUES (1);")
            #expect(throws: SQLiteError.self) { try db.migrate([Self.v1[0], broken]) }
            let names = try db.read { try $0.query("SELECT name FROM schema_migrations") }.map { $0.string("name") }
            #expect(names == ["001_users"])
            #expect(try db.read { try $0.queryOne("SELECT 1 FROM sqlite_schema WHERE name = 'half'") } == nil)
            // A foreign key violation left by a migration is caught too.
            let orphan = SQLiteMigration(
                "002_orphan",
                "CREATE TABLE s (u INTEGER REFERENCES users(id)); PRAGMA defer_foreign_keys = ON; INSERT INTO s VALUES (99);")
            let error = #expect(throws: SQLiteError.self) { try db.migrate([Self.v1[0], orphan]) }
            #expect(error?.isConstraintViolation == true)
            #expect(try db.read { try $0.query("SELECT name FROM schema_migrations") }.count == 1)
        }
    }
}
