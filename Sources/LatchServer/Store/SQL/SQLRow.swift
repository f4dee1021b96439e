import Foundation
import LatchPostgres
import LatchSQLite

/// One result row of the store's SQL, read the same way whichever engine produced it. It keeps
/// the engine's own row (no copy); the accessors are strict: nil for NULL, a missing column or a
/// value of another type (``double(_:)`` also reads integers).
struct SQLRow {
    private enum Storage {
        case sqlite(SQLiteRow)
        case postgres(PostgresRow)
    }

    private let storage: Storage

    init(_ row: SQLiteRow) { storage = .sqlite(row) }

    init(_ row: PostgresRow) { storage = .postgres(row) }

    func int(_ column: String) -> Int64? {
        switch storage {
        case .sqlite(let row): row.int(column)
        case .postgres(let row): row.int(column)
        }
    }

    func double(_ column: String) -> Double? {
        switch storage {
        case .sqlite(let row): row.double(column)
        case .postgres(let row): row.double(column)
        }
    }

    func string(_ column: String) -> String? {
        switch storage {
        case .sqlite(let row): row.string(column)
        case .postgres(let row): row.string(column)
        }
    }

    func blob(_ column: String) -> [UInt8]? {
        switch storage {
        case .sqlite(let row): row.blob(column)
        case .postgres(let row): row.blob(column)
        }
    }
}

// MARK: - Column decodings

extension SQLRow {
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
