import LatchSQLite
import Testing

@Suite struct GroupCommitTests {
    static let schema = """
        CREATE TABLE events (id INTEGER PRIMARY KEY, thread INTEGER NOT NULL, seq INTEGER NOT NULL, UNIQUE (thread, seq));
        CREATE TABLE counter (id INTEGER PRIMARY KEY CHECK (id = 1), n INTEGER NOT NULL);
        INSERT INTO counter VALUES (1, 0);
        """

    /// Each write inserts a row and bumps a counter, returning the counter value it saw:
    /// with serial semantics those values are exactly 1...total, each once.
    @Test(arguments: [true, false])
    func concurrentWritesAllLand(groupCommit: Bool) throws {
        let threads = groupCommit ? 64 : 16
        let perThread = groupCommit ? 50 : 20
        try withDatabase(configuration: .init(groupCommit: groupCommit), schema: Self.schema) { db, _ in
            let seen = Locked<[Int64]>([])
            let failures = Locked<[String]>([])
            onThreads(threads) { t in
                for s in 0..<perThread {
                    do {
                        let n = try db.write { c -> Int64 in
                            try c.run("INSERT INTO events (thread, seq) VALUES (?, ?)", [SQLiteValue(t), SQLiteValue(s)])
                            try c.run("UPDATE counter SET n = n + 1")
                            return try c.queryOne("SELECT n FROM counter")?.int("n") ?? -1
                        }
                        seen.withLock { $0.append(n) }
                    } catch {
                        failures.withLock { $0.append("\(error)") }
                    }
                }
            }
            let total = threads * perThread
            #expect(failures.withLock { $0 } == [])
            #expect(seen.withLock { $0.sorted() } == (1...Int64(total)).map { $0 })
            let counts = try db.read { c in
                (try c.queryOne("SELECT count(*) AS n FROM events")?.int("n"), try c.queryOne("SELECT n FROM counter")?.int("n"))
            }
            #expect(counts.0 == Int64(total) && counts.1 == Int64(total))
            let stats = db.writeStatistics
            #expect(stats.committedUnits == total + 1)  // + the schema write
            if groupCommit {
                #expect(stats.commits < stats.committedUnits, "no batching happened: \(stats)")
            } else {
                #expect(stats.commits == stats.committedUnits)
            }
        }
    }

    /// Units that throw (their own error, or a SQL error they let escape) inside batches
    /// get exactly their error back, and nothing they wrote persists; their batch-mates commit.
    @Test func failingUnitsDoNotAffectTheirBatch() throws {
        try withDatabase(schema: Self.schema) { db, _ in
            let outcomes = Locked<[String: Int]>([:])
            onThreads(32) { t in
                for s in 0..<20 {
                    let kind = (t * 20 + s) % 5
                    let outcome: String
                    do {
                        try db.write { c in
                            try c.run("INSERT INTO events (thread, seq) VALUES (?, ?)", [SQLiteValue(t), SQLiteValue(s)])
                            try c.run("UPDATE counter SET n = n + 1")
                            switch kind {
                            case 0: throw Boom(id: t * 20 + s)
                            case 1: try c.run("INSERT INTO events (thread, seq) VALUES (?, ?)", [SQLiteValue(t), SQLiteValue(s)])
                            case 2:
                                // A caught statement error only undoes that statement.
                                #expect(throws: SQLiteError.self) {
                                    try c.run("INSERT INTO events (thread, seq) VALUES (?, ?)", [SQLiteValue(t), SQLiteValue(s)])
                                }
                            default: break
                            }
                        }
                        outcome = "ok"
                    } catch let boom as Boom {
                        outcome = boom.id == t * 20 + s ? "boom" : "wrong boom"
                    } catch let error as SQLiteError {
                        outcome = error.isUniqueViolation ? "unique" : "other: \(error)"
                    } catch {
                        outcome = "unexpected: \(error)"
                    }
                    outcomes.withLock { $0[outcome, default: 0] += 1 }
                }
            }
            #expect(outcomes.withLock { $0 } == ["ok": 384, "boom": 128, "unique": 128])
            let rows = try db.read { try $0.query("SELECT thread, seq FROM events") }
            #expect(rows.count == 384)
            #expect(rows.allSatisfy { (Int($0.int("thread")!) * 20 + Int($0.int("seq")!)) % 5 >= 2 })
            #expect(try db.read { try $0.queryOne("SELECT n FROM counter") }?.int("n") == 384)
            let stats = db.writeStatistics
            #expect(stats.failedUnits == 256)
            #expect(stats.commits < stats.committedUnits, "no batching happened: \(stats)")
        }
    }

    /// `INSERT OR ROLLBACK` rolls back the whole batch transaction
    /// (https://sqlite.org/lang_conflict.html): the failing unit gets its error, batch-mates
    /// already run get SQLITE_ABORT and nothing of theirs persists, later units commit
    /// in a fresh transaction. Whatever the batching, outcome and data must agree.
    @Test func wholeTransactionRollbackKeepsOutcomesTruthful() throws {
        try withDatabase(schema: Self.schema) { db, _ in
            try db.write { try $0.run("INSERT INTO events (thread, seq) VALUES (-1, -1)") }
            let committed = Locked<Set<Int>>([])
            let failed = Locked<[Int: Int32]>([:])
            onThreads(16) { t in
                for s in 0..<20 {
                    let key = t * 20 + s
                    do {
                        try db.write { c in
                            try c.run("INSERT INTO events (thread, seq) VALUES (?, ?)", [SQLiteValue(t), SQLiteValue(s)])
                            try c.run("UPDATE counter SET n = n + 1")
                            if key % 7 == 0 {
                                // Swallowing the error must not let later statements run outside the transaction.
                                _ = try? c.run("INSERT OR ROLLBACK INTO events (thread, seq) VALUES (-1, -1)")
                                try c.run("UPDATE counter SET n = n + 1000")
                            }
                        }
                        committed.withLock { _ = $0.insert(key) }
                    } catch {
                        failed.withLock { $0[key] = (error as? SQLiteError)?.code ?? -1 }
                    }
                }
            }
            let ok = committed.withLock { $0 }
            let bad = failed.withLock { $0 }
            #expect(ok.count + bad.count == 320)
            #expect(Set(bad.values).isSubset(of: [4]))  // SQLITE_ABORT only
            #expect(ok.allSatisfy { $0 % 7 != 0 })
            let rows = try db.read { try $0.query("SELECT thread * 20 + seq AS k FROM events WHERE thread >= 0") }
            #expect(Set(rows.compactMap { $0.int("k").map(Int.init) }) == ok)
            #expect(try db.read { try $0.queryOne("SELECT n FROM counter") }?.int("n") == Int64(ok.count))
        }
    }

    @Test func unitSeesEarlierUnitsAndCloseWaitsForQueuedWrites() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let db = try SQLiteDatabase(path: dir.path("q.db"), configuration: .init(maxBatchSize: 4))
        try db.write { try $0.execute(Self.schema) }
        let done = Locked(0)
        onThreads(8) { t in
            for s in 0..<10 {
                _ = try? db.write {
                    try $0.run("INSERT INTO events (thread, seq) VALUES (?, ?)", [SQLiteValue(t), SQLiteValue(s)])
                }
                done.withLock { $0 += 1 }
            }
        }
        db.close()
        #expect(done.withLock { $0 } == 80)
        #expect(db.writeStatistics.largestBatch <= 4)
        let reopened = try SQLiteDatabase(path: dir.path("q.db"))
        #expect(try reopened.read { try $0.queryOne("SELECT count(*) AS n FROM events") }?.int("n") == 80)
        reopened.close()
    }
}
