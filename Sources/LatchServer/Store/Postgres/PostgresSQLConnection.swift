import Foundation
import LatchPostgres

/// A ``SQLConnection`` over PostgreSQL.
///
/// The store's statements are written with SQLite's `?` and `?N` placeholders; ``statementText(_:)``
/// turns them into `$N` once per statement and connection, when it is prepared. A unique violation
/// would abort the whole PostgreSQL transaction, where SQLite undoes only the statement, so the
/// engines answer alike in two ways:
/// - a plain `INSERT` is prepared with `ON CONFLICT DO NOTHING`, and inserting no row is
///   ``StoreError/conflict``, with the transaction still usable;
/// - ``runAllowingConflict(_:_:)`` runs its statement inside a savepoint and rolls back to it on a
///   conflict (https://www.postgresql.org/docs/15/sql-savepoint.html).
struct PostgresSQLConnection: SQLConnection {
    let connection: PostgresConnection

    var dialect: SQLDialect { .postgres }

    var changes: Int { connection.changes }

    func run(_ sql: String, _ bindings: [SQLValue]) throws {
        do {
            try connection.run(sql, bindings.map(Self.value))
        } catch {
            throw Self.storeError(error)
        }
        if Self.isPlainInsert(sql), connection.changes == 0 { throw StoreError.conflict }
    }

    func runAllowingConflict(_ sql: String, _ bindings: [SQLValue]) throws {
        do {
            try connection.execute("SAVEPOINT latch_conflict")
        } catch {
            throw Self.storeError(error)
        }
        do {
            try connection.run(sql, bindings.map(Self.value))
        } catch {
            guard error.kind == .uniqueViolation else { throw Self.storeError(error) }
            do {
                try connection.execute("ROLLBACK TO SAVEPOINT latch_conflict")
            } catch {
                throw Self.storeError(error)
            }
            throw StoreError.conflict
        }
        do {
            try connection.execute("RELEASE SAVEPOINT latch_conflict")
        } catch {
            throw Self.storeError(error)
        }
    }

    func query(_ sql: String, _ bindings: [SQLValue]) throws -> [SQLRow] {
        let rows: [PostgresRow]
        do {
            rows = try connection.query(sql, bindings.map(Self.value))
        } catch {
            throw Self.storeError(error)
        }
        if rows.isEmpty, Self.isPlainInsert(sql) { throw StoreError.conflict }
        return rows.map(SQLRow.init)
    }

    func queryOne(_ sql: String, _ bindings: [SQLValue]) throws -> SQLRow? {
        try query(sql, bindings).first
    }

    /// The failure in store terms. A serialization failure is ``StoreError/unavailable(_:)`` here;
    /// the connection remembers it, so the unit runs again however the body handled the error.
    static func storeError(_ error: PostgresError) -> StoreError {
        error.kind == .uniqueViolation ? .conflict : .unavailable(error.description)
    }

    /// Whether `sql` is an `INSERT` without its own `ON CONFLICT` clause.
    static func isPlainInsert(_ sql: String) -> Bool {
        sql.utf8.starts(with: "INSERT".utf8) && !sql.contains("ON CONFLICT")
    }

    /// The PostgreSQL text of one of the store's statements: `?N` becomes `$N`, each bare `?` the
    /// next number, outside quoted literals; a plain `INSERT` gains `ON CONFLICT DO NOTHING`
    /// (before its `RETURNING`, when it has one).
    static func statementText(_ sql: String) -> String {
        var text = ""
        var next = 0
        var quoted = false
        var characters = Array(sql)[...]
        while let character = characters.popFirst() {
            if character == "'" { quoted.toggle() }
            guard character == "?", !quoted else {
                text.append(character)
                continue
            }
            var digits = ""
            while let digit = characters.first, digit.isASCII, digit.isNumber {
                digits.append(digit)
                characters.removeFirst()
            }
            if digits.isEmpty {
                next += 1
                digits = String(next)
            }
            text += "$" + digits
        }
        guard isPlainInsert(sql) else { return text }
        if let returning = text.range(of: "RETURNING", options: .backwards) {
            text.insert(contentsOf: "ON CONFLICT DO NOTHING\n", at: returning.lowerBound)
            return text
        }
        return text + "\nON CONFLICT DO NOTHING"
    }

    private static func value(_ value: SQLValue) -> PostgresValue {
        switch value {
        case .integer(let v): .integer(v)
        case .real(let v): .real(v)
        case .text(let v): .text(v)
        case .blob(let v): .blob(v)
        case .null: .null
        }
    }
}
