import Foundation
import LatchSQLite
import Testing

/// `writeRelaxed` commits with `synchronous=NORMAL` only for all-relaxed batches, and restores the
/// configured durability afterwards.
@Suite struct RelaxedWriteTests {
    @Test(arguments: [true, false])
    func relaxedCommitsAndRestoresDurability(groupCommit: Bool) throws {
        try withDatabase(
            configuration: .init(durability: .full, groupCommit: groupCommit), schema: "CREATE TABLE t (v INTEGER)"
        ) { db, _ in
            let during = try db.writeRelaxed { connection -> Int64? in
                try connection.run("INSERT INTO t (v) VALUES (1)")
                return try connection.queryOne("PRAGMA synchronous")?.int("synchronous")
            }
            #expect(during == SQLiteDurability.normal.pragmaNumber)
            let after = try db.write { try $0.queryOne("PRAGMA synchronous") }?.int("synchronous")
            #expect(after == SQLiteDurability.full.pragmaNumber)
            #expect(try db.read { try $0.queryOne("SELECT count(*) AS n FROM t") }?.int("n") == 1)
        }
    }

    @Test func aThrowingRelaxedWriteLeavesNothingAndRestoresDurability() throws {
        struct Failure: Error {}
        try withDatabase(configuration: .init(durability: .full), schema: "CREATE TABLE t (v INTEGER)") { db, _ in
            #expect(throws: Failure.self) {
                try db.writeRelaxed { connection in
                    try connection.run("INSERT INTO t (v) VALUES (1)")
                    throw Failure()
                }
            }
            let synchronous = try db.write { try $0.queryOne("PRAGMA synchronous") }?.int("synchronous")
            let count = try db.read { try $0.queryOne("SELECT count(*) AS n FROM t") }?.int("n")
            #expect(synchronous == 2)
            #expect(count == 0)
        }
    }

    @Test func concurrentMixedWritesAllLand() throws {
        try withDatabase(configuration: .init(durability: .full), schema: "CREATE TABLE t (v INTEGER)") { db, _ in
            onThreads(32) { index in
                for _ in 0..<20 {
                    if index.isMultiple(of: 2) {
                        try? db.writeRelaxed { try $0.run("INSERT INTO t (v) VALUES (?)", [.integer(Int64(index))]) }
                    } else {
                        try? db.write { try $0.run("INSERT INTO t (v) VALUES (?)", [.integer(Int64(index))]) }
                    }
                }
            }
            let count = try db.read { try $0.queryOne("SELECT count(*) AS n FROM t") }?.int("n")
            let synchronous = try db.write { try $0.queryOne("PRAGMA synchronous") }?.int("synchronous")
            #expect(count == 640)
            #expect(synchronous == 2)
        }
    }
}
