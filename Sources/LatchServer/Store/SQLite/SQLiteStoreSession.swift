import Foundation
import LatchSQLite

/// One transaction's view of the SQLite store. Exists only inside `read`/`write` closures.
struct SQLiteStoreSession {
    let connection: SQLiteConnection

    /// Runs a statement, mapping SQLite failures to ``StoreError`` (never echoing bound values).
    func run(_ sql: String, _ bindings: [SQLiteValue]) throws {
        do {
            try connection.run(sql, bindings)
        } catch {
            throw Self.storeError(error)
        }
    }

    /// Runs a query, mapping SQLite failures to ``StoreError``.
    func query(_ sql: String, _ bindings: [SQLiteValue]) throws -> [SQLiteRow] {
        do {
            return try connection.query(sql, bindings)
        } catch {
            throw Self.storeError(error)
        }
    }

    /// Runs a query expected to return at most one row.
    func queryOne(_ sql: String, _ bindings: [SQLiteValue]) throws -> SQLiteRow? {
        do {
            return try connection.queryOne(sql, bindings)
        } catch {
            throw Self.storeError(error)
        }
    }

    static func storeError(_ error: SQLiteError) -> StoreError {
        error.isUniqueViolation ? .conflict : .unavailable(error.description)
    }
}

// MARK: - Column encodings

extension SQLiteValue {
    /// Milliseconds since the Unix epoch.
    init(_ date: Date) { self = .integer(Int64((date.timeIntervalSince1970 * 1000).rounded())) }

    /// Milliseconds since the Unix epoch, or NULL.
    init(_ date: Date?) { self = date.map { SQLiteValue($0) } ?? .null }

    /// A space-separated list (values never contain spaces: scopes, amr, challenge types).
    init(words: [String]) { self = .text(words.joined(separator: " ")) }

    /// A JSON object of strings.
    init(json dictionary: [String: String]) {
        let data = (try? JSONSerialization.data(withJSONObject: dictionary, options: [.sortedKeys])) ?? Data("{}".utf8)
        self = .text(String(decoding: data, as: UTF8.self))
    }
}

extension SQLiteRow {
    func requiredString(_ column: String) throws -> String {
        guard let value = string(column) else { throw StoreError.corrupt(column) }
        return value
    }

    func requiredDate(_ column: String) throws -> Date {
        guard let value = int(column) else { throw StoreError.corrupt(column) }
        return Date(timeIntervalSince1970: Double(value) / 1000)
    }

    func date(_ column: String) -> Date? {
        int(column).map { Date(timeIntervalSince1970: Double($0) / 1000) }
    }

    func words(_ column: String) -> [String] {
        (string(column) ?? "").split(separator: " ").map(String.init)
    }

    func stringDictionary(_ column: String) -> [String: String] {
        guard let text = string(column), let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)),
            let dictionary = object as? [String: String]
        else { return [:] }
        return dictionary
    }

    func flag(_ column: String) -> Bool { (int(column) ?? 0) != 0 }
}
