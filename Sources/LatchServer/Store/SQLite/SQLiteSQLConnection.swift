import LatchSQLite

/// A ``SQLConnection`` over SQLite: statements run as written (`?` and `?N` are SQLite's own
/// placeholders); a unique or primary-key violation is ``StoreError/conflict``, and leaves the
/// transaction usable (https://sqlite.org/lang_conflict.html: ABORT undoes the one statement).
struct SQLiteSQLConnection: SQLConnection {
    let connection: SQLiteConnection

    var dialect: SQLDialect { .sqlite }

    var changes: Int { connection.changes }

    func run(_ sql: String, _ bindings: [SQLValue]) throws {
        do {
            try connection.run(sql, bindings.map(Self.value))
        } catch {
            throw Self.storeError(error)
        }
    }

    func runAllowingConflict(_ sql: String, _ bindings: [SQLValue]) throws {
        try run(sql, bindings)
    }

    func query(_ sql: String, _ bindings: [SQLValue]) throws -> [SQLRow] {
        do {
            return try connection.query(sql, bindings.map(Self.value)).map(SQLRow.init)
        } catch {
            throw Self.storeError(error)
        }
    }

    func queryOne(_ sql: String, _ bindings: [SQLValue]) throws -> SQLRow? {
        do {
            return try connection.queryOne(sql, bindings.map(Self.value)).map(SQLRow.init)
        } catch {
            throw Self.storeError(error)
        }
    }

    /// The failure in store terms, never echoing bound values.
    static func storeError(_ error: SQLiteError) -> StoreError {
        error.isUniqueViolation ? .conflict : .unavailable(error.description)
    }

    private static func value(_ value: SQLValue) -> SQLiteValue {
        switch value {
        case .integer(let v): .integer(v)
        case .real(let v): .real(v)
        case .text(let v): .text(v)
        case .blob(let v): .blob(v)
        case .null: .null
        }
    }
}
