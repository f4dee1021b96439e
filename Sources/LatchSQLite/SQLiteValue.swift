/// One SQLite value, following SQLite's five storage classes.
///
/// See https://sqlite.org/datatype3.html#storage_classes_and_datatypes.
/// Booleans are stored as the integers 0 and 1, as SQLite itself does
/// (https://sqlite.org/datatype3.html#boolean_datatype).
public enum SQLiteValue: Sendable, Hashable {
    /// A signed 64-bit integer (`SQLITE_INTEGER`).
    case integer(Int64)
    /// An IEEE 754 double (`SQLITE_FLOAT`).
    case real(Double)
    /// UTF-8 text (`SQLITE_TEXT`).
    case text(String)
    /// Raw bytes (`SQLITE_BLOB`); an empty array is a zero-length blob, not NULL.
    case blob([UInt8])
    /// SQL NULL (`SQLITE_NULL`).
    case null
}

extension SQLiteValue {
    /// An integer value from a Swift `Int`.
    public init(_ value: Int) { self = .integer(Int64(value)) }

    /// An integer value.
    public init(_ value: Int64) { self = .integer(value) }

    /// A real value.
    public init(_ value: Double) { self = .real(value) }

    /// A text value, or NULL when `value` is nil.
    public init(_ value: String?) { self = value.map(SQLiteValue.text) ?? .null }

    /// A blob value, or NULL when `value` is nil.
    public init(_ value: [UInt8]?) { self = value.map(SQLiteValue.blob) ?? .null }

    /// The integer 1 for `true`, 0 for `false` (https://sqlite.org/datatype3.html#boolean_datatype).
    public init(_ value: Bool) { self = .integer(value ? 1 : 0) }

    /// Whether this is SQL NULL.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

extension SQLiteValue: ExpressibleByIntegerLiteral {
    /// An `.integer` from an integer literal.
    public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension SQLiteValue: ExpressibleByFloatLiteral {
    /// A `.real` from a floating-point literal.
    public init(floatLiteral value: Double) { self = .real(value) }
}

extension SQLiteValue: ExpressibleByStringLiteral {
    /// A `.text` from a string literal.
    public init(stringLiteral value: String) { self = .text(value) }
}

extension SQLiteValue: ExpressibleByBooleanLiteral {
    /// `.integer(1)` or `.integer(0)` from a boolean literal (https://sqlite.org/datatype3.html#boolean_datatype).
    public init(booleanLiteral value: Bool) { self = .integer(value ? 1 : 0) }
}

extension SQLiteValue: ExpressibleByNilLiteral {
    /// `.null` from `nil`.
    public init(nilLiteral: ()) { self = .null }
}

extension SQLiteValue: CustomStringConvertible {
    /// The storage class only, never the value itself, so that logging a value cannot leak a secret.
    public var description: String {
        switch self {
        case .integer: return "INTEGER"
        case .real: return "REAL"
        case .text(let s): return "TEXT(\(s.utf8.count) bytes)"
        case .blob(let b): return "BLOB(\(b.count) bytes)"
        case .null: return "NULL"
        }
    }
}
