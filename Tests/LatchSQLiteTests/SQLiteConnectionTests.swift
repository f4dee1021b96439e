import LatchSQLite
import Testing

@Suite struct SQLiteConnectionTests {
    static let schema = "CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT NOT NULL UNIQUE, secret TEXT)"

    @Test func uniqueViolationIsDetectedWithoutLeakingValues() throws {
        try withDatabase(schema: Self.schema) { db, _ in
            try db.write { try $0.run("INSERT INTO users (email, secret) VALUES (?, ?)", ["a@example.com", "s3cr3t-value"]) }
            let error = #expect(throws: SQLiteError.self) {
                try db.write { try $0.run("INSERT INTO users (email, secret) VALUES (?, ?)", ["a@example.com", "s3cr3t-value"]) }
            }
            #expect(error?.isUniqueViolation == true)
            #expect(error?.isConstraintViolation == true)
            #expect(error?.isBusy == false)
            #expect(error?.code == 19)
            #expect(error?.extendedCode == 2067)
            #expect(error?.description.contains("s3cr3t-value") == false)
            #expect(error?.description.contains("a@example.com") == false)

            let pk = #expect(throws: SQLiteError.self) {
                try db.write { try $0.run("INSERT INTO users (id, email) VALUES (1, 'b@example.com')") }
            }
            #expect(pk?.isUniqueViolation == true)
            let notNull = #expect(throws: SQLiteError.self) {
                try db.write { try $0.run("INSERT INTO users (email) VALUES (NULL)") }
            }
            #expect(notNull?.isConstraintViolation == true)
            #expect(notNull?.isUniqueViolation == false)
        }
    }

    @Test func changesAndLastInsertRowID() throws {
        try withDatabase(schema: Self.schema) { db, _ in
            let id = try db.write { c in
                try c.run("INSERT INTO users (email) VALUES (?)", ["x@example.com"])
                #expect(c.changes == 1)
                return c.lastInsertRowID
            }
            #expect(id == 1)
            let changed = try db.write { c in
                try c.run("INSERT INTO users (email) VALUES ('y@example.com'), ('z@example.com')")
                try c.run("UPDATE users SET secret = 'k'")
                return c.changes
            }
            #expect(changed == 3)
        }
    }

    @Test func misuseIsReported() throws {
        try withDatabase(schema: Self.schema) { db, _ in
            let several = #expect(throws: SQLiteError.self) {
                try db.write { try $0.run("INSERT INTO users (email) VALUES ('a'); INSERT INTO users (email) VALUES ('b')") }
            }
            #expect(several?.code == 21)
            // Trailing semicolons and comments are fine.
            try db.write { try $0.run("INSERT INTO users (email) VALUES ('c'); -- done") }
            let arity = #expect(throws: SQLiteError.self) {
                try db.write { try $0.run("INSERT INTO users (email) VALUES (?)", ["a", "b"]) }
            }
            #expect(arity?.code == 25)
            #expect(try db.read { try $0.queryOne("SELECT * FROM users WHERE email = ?", ["nobody"]) } == nil)
            let syntax = #expect(throws: SQLiteError.self) { try db.read { try $0.query("SELEC 1") } }
            #expect(syntax?.code == 1)
            let readOnly = #expect(throws: SQLiteError.self) {
                try db.read { try $0.run("INSERT INTO users (email) VALUES ('r')") }
            }
            #expect(readOnly?.code == 8)  // SQLITE_READONLY
            #expect(try db.read { try $0.query("SELECT email FROM users") }.map { $0.string("email") } == ["c"])
        }
    }

    @Test func pragmasAreSet() throws {
        for durability in SQLiteDurability.allCases {
            try withDatabase(configuration: .init(durability: durability)) { db, _ in
                let row = try db.write { c in
                    try c.queryOne(
                        "SELECT * FROM pragma_synchronous, pragma_foreign_keys, pragma_journal_mode, pragma_busy_timeout")
                }
                #expect(row?.int("synchronous") == durability.pragmaNumber)
                #expect(row?.int("foreign_keys") == 1)
                #expect(row?.string("journal_mode") == "wal")
                #expect(row?.int("timeout") == 5000)
                // Also through the plain pragma statement.
                #expect(try db.write { try $0.queryOne("PRAGMA synchronous") }?.int("synchronous") == durability.pragmaNumber)
            }
        }
    }
}
