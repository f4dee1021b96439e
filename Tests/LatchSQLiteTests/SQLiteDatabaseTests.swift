import Foundation
import LatchSQLite
import Testing

@Suite struct SQLiteDatabaseTests {
    static let schema = "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)"

    @Test func throwingWriteLeavesNothingAndRethrowsUnchanged() throws {
        try withDatabase(schema: Self.schema) { db, _ throws in
            let error = #expect(throws: Boom.self) {
                try db.write { c in
                    try c.run("INSERT INTO items (name) VALUES ('a')")
                    try c.run("INSERT INTO items (name) VALUES ('b')")
                    throw Boom(id: 7)
                }
            }
            #expect(error == Boom(id: 7))
            #expect(try db.read { try $0.query("SELECT * FROM items") }.isEmpty)
            // A SQL error thrown out of the closure also undoes its earlier statements.
            #expect(throws: SQLiteError.self) {
                try db.write { c in
                    try c.run("INSERT INTO items (name) VALUES ('c')")
                    try c.run("INSERT INTO items (name) VALUES ('c')")
                }
            }
            #expect(try db.read { try $0.query("SELECT * FROM items") }.isEmpty)
        }
    }

    @Test func readsSeeCommittedWrites() throws {
        try withDatabase(schema: Self.schema) { db, _ throws in
            for i in 0..<5 {
                let id = try db.write { c in
                    try c.run("INSERT INTO items (name) VALUES (?)", [.text("n\(i)")])
                    return c.lastInsertRowID
                }
                let name = try db.read { try $0.queryOne("SELECT name FROM items WHERE id = ?", [.integer(id)]) }
                #expect(name?.string("name") == "n\(i)")
            }
            // Inside one read, the snapshot does not move even if a write commits meanwhile.
            let (before, after) = try db.read { c in
                let before = try c.queryOne("SELECT count(*) AS n FROM items")?.int("n")
                try db.write { try $0.run("INSERT INTO items (name) VALUES ('late')") }
                let after = try c.queryOne("SELECT count(*) AS n FROM items")?.int("n")
                return (before, after)
            }
            #expect(before == 5 && after == 5)
            #expect(try db.read { try $0.queryOne("SELECT count(*) AS n FROM items") }?.int("n") == 6)
        }
    }

    @Test func checkpointCopiesTheLogIntoTheFile() throws {
        try withDatabase(schema: Self.schema) { db, dir in
            try db.write { try $0.run("INSERT INTO items (name) VALUES ('checkpointed-value')") }
            let file = { FileManager.default.contents(atPath: dir.path("test.db")) ?? Data() }
            #expect(file().range(of: Data("checkpointed-value".utf8)) == nil, "committed into the log only")
            #expect(try db.checkpoint())
            #expect(file().range(of: Data("checkpointed-value".utf8)) != nil)
            // A reader's snapshot keeps newer frames in the log; the checkpoint does not wait for it.
            try db.read { c in
                _ = try c.query("SELECT * FROM items")
                try db.write { try $0.run("INSERT INTO items (name) VALUES ('later')") }
                #expect(try db.checkpoint() == false)
            }
            #expect(try db.checkpoint())
        }
    }

    @Test func filesAreOwnerOnly() throws {
        try withDatabase(schema: Self.schema) { db, dir in
            try db.write { try $0.run("INSERT INTO items (name) VALUES ('x')") }
            for suffix in ["", "-wal", "-shm"] {
                let attributes = try FileManager.default.attributesOfItem(atPath: dir.path("test.db") + suffix)
                let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue
                #expect(mode == 0o600, "test.db\(suffix) has mode \(String(mode ?? -1, radix: 8))")
            }
        }
    }

    @Test func closeIsIdempotentAndRejectsLaterWork() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let db = try SQLiteDatabase(path: dir.path("c.db"))
        try db.write { try $0.execute(Self.schema) }
        db.close()
        db.close()
        #expect(throws: SQLiteError.self) { try db.write { try $0.run("INSERT INTO items (name) VALUES ('x')") } }
        #expect(throws: SQLiteError.self) { try db.read { try $0.query("SELECT 1") } }
        // Reopening sees the committed schema.
        let again = try SQLiteDatabase(path: dir.path("c.db"))
        #expect(try again.read { try $0.query("SELECT * FROM items") }.isEmpty)
        again.close()
    }

    @Test(arguments: [true, false])
    func nestedWriteIsRejectedNotDeadlocked(groupCommit: Bool) throws {
        try withDatabase(configuration: .init(groupCommit: groupCommit), schema: Self.schema) { db, _ in
            let error = #expect(throws: SQLiteError.self) {
                try db.write { _ in try db.write { try $0.run("INSERT INTO items (name) VALUES ('x')") } }
            }
            #expect(error?.code == 21)
            #expect(throws: SQLiteError.self) { try db.write { _ in try db.migrate([]) } }
        }
    }
}
