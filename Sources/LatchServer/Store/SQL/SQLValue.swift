import Foundation

/// One bound value of the store's SQL, whichever engine runs it: the five storage classes both
/// engines share (SQLite's, https://sqlite.org/datatype3.html; PostgreSQL's `int8`, `float8`,
/// `text`, `bytea`). Booleans are the integers 0 and 1 in both.
enum SQLValue: Sendable {
    /// A signed 64-bit integer.
    case integer(Int64)
    /// An IEEE 754 double.
    case real(Double)
    /// UTF-8 text.
    case text(String)
    /// Raw bytes.
    case blob([UInt8])
    /// SQL NULL.
    case null
}

// MARK: - Column encodings

extension SQLValue {
    /// An integer.
    init(_ value: Int) { self = .integer(Int64(value)) }

    /// 1 for `true`, 0 for `false`.
    init(_ value: Bool) { self = .integer(value ? 1 : 0) }

    /// Text, or NULL.
    init(_ value: String?) { self = value.map(SQLValue.text) ?? .null }

    /// Bytes, or NULL.
    init(_ value: [UInt8]?) { self = value.map(SQLValue.blob) ?? .null }

    /// Milliseconds since the Unix epoch.
    init(_ date: Date) { self = .integer(Int64((date.timeIntervalSince1970 * 1000).rounded())) }

    /// Milliseconds since the Unix epoch, or NULL.
    init(_ date: Date?) { self = date.map { SQLValue($0) } ?? .null }

    /// A space-separated list (values never contain spaces: scopes, amr, challenge types).
    init(words: [String]) { self = .text(words.joined(separator: " ")) }

    /// A JSON object of strings.
    init(json dictionary: [String: String]) {
        let data = (try? JSONSerialization.data(withJSONObject: dictionary, options: [.sortedKeys])) ?? Data("{}".utf8)
        self = .text(String(decoding: data, as: UTF8.self))
    }
}
