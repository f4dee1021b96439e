/// Why ``SQLiteDatabase/migrate(_:)`` refused to run; SQL errors raised by a
/// migration itself are thrown as ``SQLiteError`` instead.
public enum SQLiteMigrationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The list names the same migration twice.
    case duplicateName(String)
    /// `schema_migrations` records a migration the list does not contain
    /// (the code is older than the database, or a migration was deleted or renamed).
    case unknownApplied(String)
    /// The recorded migrations are not a prefix of the list: `missing` was inserted
    /// before the already-applied `applied`, which breaks append-only order.
    case outOfOrder(missing: String, applied: String)

    /// A one-line explanation naming the migrations involved.
    public var description: String {
        switch self {
        case .duplicateName(let name):
            return "migration '\(name)' is listed twice"
        case .unknownApplied(let name):
            return "migration '\(name)' is recorded in schema_migrations but missing from the list"
        case .outOfOrder(let missing, let applied):
            return
                "migration '\(missing)' is listed before the applied '\(applied)' but was never applied; migrations are append-only"
        }
    }
}
