/// One result row, detached from the result that produced it, so it stays valid after the result is
/// cleared and can be sent across threads. Column names are the server's (`PQfname`): the `AS`
/// alias when there is one. The typed accessors are strict: they return nil for NULL, for a missing
/// column and for a value of another type (except ``double(_:)``, which also accepts integers).
public struct PostgresRow: Sendable {
    /// Column names in result order.
    public let columns: [String]
    /// Values in result order, parallel to ``columns``.
    public let values: [PostgresValue]
    private let index: [String: Int]

    init(columns: [String], index: [String: Int], values: [PostgresValue]) {
        self.columns = columns
        self.index = index
        self.values = values
    }

    /// The value of `column`, or `.null` when the row has no such column.
    public subscript(_ column: String) -> PostgresValue {
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
        case .real(let v): v
        case .integer(let v): Double(v)
        default: nil
        }
    }

    /// The text in `column`, or nil when it is NULL, missing or not text.
    public func string(_ column: String) -> String? {
        if case .text(let v) = self[column] { return v }
        return nil
    }

    /// The bytes in `column`, or nil when it is NULL, missing or not `bytea`.
    public func blob(_ column: String) -> [UInt8]? {
        if case .blob(let v) = self[column] { return v }
        return nil
    }
}
