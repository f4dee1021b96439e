/// One parameter or result value, in the few types the store uses.
///
/// Parameters are sent with an explicit type (`int8`, `float8`, `text`, `bytea`), integers, reals
/// and text in the text format and bytes in the binary format
/// (https://www.postgresql.org/docs/15/libpq-exec.html#LIBPQ-PQEXECPARAMS); `null` is sent untyped,
/// so the server infers its type from where it stands.
public enum PostgresValue: Sendable, Hashable {
    /// A signed 64-bit integer (`int8`; `int2`, `int4` and `bool` results read as this too).
    case integer(Int64)
    /// An IEEE 754 double (`float8`; `float4` results read as this too).
    case real(Double)
    /// UTF-8 text (`text`, `varchar`, `name`, `bpchar`).
    case text(String)
    /// Raw bytes (`bytea`); an empty array is zero bytes, not NULL.
    case blob([UInt8])
    /// SQL NULL.
    case null

    /// Whether this is SQL NULL.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

extension PostgresValue: CustomStringConvertible {
    /// The type only, never the value itself, so that logging a value cannot leak a secret.
    public var description: String {
        switch self {
        case .integer: "int8"
        case .real: "float8"
        case .text(let s): "text(\(s.utf8.count) bytes)"
        case .blob(let b): "bytea(\(b.count) bytes)"
        case .null: "NULL"
        }
    }
}
