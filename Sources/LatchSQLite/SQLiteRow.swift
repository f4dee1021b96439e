/// One result row of a query, detached from the statement that produced it.
///
/// Values are copied out of SQLite with the `sqlite3_column_*` functions
/// (https://sqlite.org/c3ref/column_blob.html), so a row stays valid after the
/// statement is reset and can be sent across threads. Column names are those
/// reported by `sqlite3_column_name` (https://sqlite.org/c3ref/column_name.html):
/// the `AS` alias when there is one. The typed accessors are strict: they return
/// nil for NULL, for a missing column, and for a value of another storage class
/// (except `double`, which also accepts integers).
public struct SQLiteRow: Sendable {
    /// Column names in result order.
    public let columns: [String]
    /// Values in result order, parallel to ``columns``.
    public let values: [SQLiteValue]
    private let index: [String: Int]

    init(columns: [String], index: [String: Int], values: [SQLiteValue]) {
        self.columns = columns
        self.index = index
        self.values = values
    }

    /// The value of `column`, or `.null` when the row has no such column (see ``contains(_:)``).
    /// When several columns share a name, the first one wins.
    public subscript(_ column: String) -> SQLiteValue {
        guard let i = index[column] else { return .null }
        return values[i]
    }

    /// Whether the row has a column called `column`.
    public func contains(_ column: String) -> Bool { index[column] != nil }

    /// The integer in `column`, or nil when it is NULL, missing or not an integer.
    public func int(_ column: String) -> Int64? {
        if case .integer(let v) = self[column] { return v }
        return nil
    }

    /// The number in `column` as a Double (integers are converted), or nil.
    public func double(_ column: String) -> Double? {
        switch self[column] {
        case .real(let v): return v
        case .integer(let v): return Double(v)
        default: return nil
        }
    }

    /// The text in `column`, or nil when it is NULL, missing or not text.
    public func string(_ column: String) -> String? {
        if case .text(let v) = self[column] { return v }
        return nil
    }

    /// The bytes in `column`, or nil when it is NULL, missing or not a blob.
    public func blob(_ column: String) -> [UInt8]? {
        if case .blob(let v) = self[column] { return v }
        return nil
    }

    /// Whether the integer in `column` is non-zero, or nil when it is NULL, missing or not an integer
    /// (https://sqlite.org/datatype3.html#boolean_datatype).
    public func bool(_ column: String) -> Bool? {
        int(column).map { $0 != 0 }
    }
}
