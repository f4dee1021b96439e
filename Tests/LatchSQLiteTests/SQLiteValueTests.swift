import LatchSQLite
import Testing

@Suite struct SQLiteValueTests {
    @Test func valuesRoundTrip() throws {
        let values: [SQLiteValue] = [
            .integer(.max), .integer(.min), 0, -1, 3.25, .real(-0.5),
            "", "héllo wörld 🔑", .text("nul\u{0}inside"), .blob([]), .blob([0, 1, 2, 255]), nil,
        ]
        try withDatabase(schema: "CREATE TABLE t (i INTEGER PRIMARY KEY, v)") { db, _ in
            try db.write { c in
                for (i, value) in values.enumerated() {
                    try c.run("INSERT INTO t (i, v) VALUES (?, ?)", [SQLiteValue(i), value])
                }
            }
            let rows = try db.read { try $0.query("SELECT v FROM t ORDER BY i") }
            #expect(rows.map { $0["v"] } == values)
            // Echoing through a SELECT exercises binding and reading without any column affinity.
            for value in values {
                let echoed = try db.read { try $0.queryOne("SELECT ? AS v", [value]) }
                #expect(echoed?["v"] == value)
            }
        }
    }

    @Test func typedAccessors() throws {
        try withDatabase { db, _ in
            let row = try #require(
                try db.read { try $0.queryOne("SELECT 7 AS i, 2.5 AS d, 'x' AS s, x'0102' AS b, 1 AS t, NULL AS n") })
            #expect(row.int("i") == 7)
            #expect(row.double("d") == 2.5)
            #expect(row.double("i") == 7)
            #expect(row.string("s") == "x")
            #expect(row.blob("b") == [1, 2])
            #expect(row.bool("t") == true)
            #expect(row.int("n") == nil)
            #expect(row.string("i") == nil)
            #expect(row["missing"] == .null)
            #expect(!row.contains("missing"))
            #expect(row.columns == ["i", "d", "s", "b", "t", "n"])
        }
    }

    @Test func conveniences() {
        #expect(SQLiteValue(true) == .integer(1))
        #expect(SQLiteValue(false) == 0)
        #expect(SQLiteValue(42) == .integer(42))
        #expect(SQLiteValue(Int64(-3)) == -3)
        #expect(SQLiteValue(nil as String?) == .null)
        #expect(SQLiteValue("a" as String?) == .text("a"))
        #expect(SQLiteValue(nil as [UInt8]?) == .null)
        #expect(SQLiteValue([9] as [UInt8]?) == .blob([9]))
        // Descriptions never show the value itself.
        #expect(!"\(SQLiteValue.text("hunter2"))".contains("hunter2"))
    }
}
