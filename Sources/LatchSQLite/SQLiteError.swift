/// An error reported by SQLite, or by this module when it is misused.
///
/// `code` is the primary result code and `extendedCode` the extended one
/// (https://sqlite.org/rescode.html); extended codes are always enabled with
/// `sqlite3_extended_result_codes` (https://sqlite.org/c3ref/extended_result_codes.html).
/// The description holds the codes and SQLite's message (`sqlite3_errmsg`,
/// https://sqlite.org/c3ref/errcode.html) only: never the SQL text or bound
/// parameter values, which may be secrets. The SQL, when known, is kept in ``sql``
/// for deliberate debugging.
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// The primary result code (the low 8 bits of ``extendedCode``), e.g. 19 for `SQLITE_CONSTRAINT`.
    public let code: Int32
    /// The extended result code, e.g. 2067 for `SQLITE_CONSTRAINT_UNIQUE` (https://sqlite.org/rescode.html#extrc).
    public let extendedCode: Int32
    /// SQLite's English-language message, e.g. `UNIQUE constraint failed: users.email`.
    public let message: String
    /// The SQL text that failed, with `?` placeholders; not part of ``description``.
    public let sql: String?

    /// Creates an error from an extended result code; the primary code is derived from it.
    public init(extendedCode: Int32, message: String, sql: String? = nil) {
        self.code = extendedCode & 0xff
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
    }

    /// `SQLITE_CONSTRAINT`: a UNIQUE, PRIMARY KEY, NOT NULL, CHECK or FOREIGN KEY constraint failed
    /// (https://sqlite.org/rescode.html#constraint).
    public var isConstraintViolation: Bool { code == Code.constraint }

    /// `SQLITE_CONSTRAINT_UNIQUE` or `SQLITE_CONSTRAINT_PRIMARYKEY`
    /// (https://sqlite.org/rescode.html#constraint_unique, https://sqlite.org/rescode.html#constraint_primarykey).
    public var isUniqueViolation: Bool {
        extendedCode == Code.constraintUnique || extendedCode == Code.constraintPrimaryKey
    }

    /// `SQLITE_BUSY`: another connection (normally another process) held a lock for
    /// longer than the busy timeout (https://sqlite.org/rescode.html#busy).
    public var isBusy: Bool { code == Code.busy }

    /// The codes and SQLite's message; never SQL text or bound values.
    public var description: String {
        "SQLiteError(\(code)/\(extendedCode)): \(message)"
    }

    /// Result codes used by this module (https://sqlite.org/rescode.html). The
    /// extended ones are macro expressions that Swift does not import.
    enum Code {
        static let error: Int32 = 1
        static let abort: Int32 = 4
        static let busy: Int32 = 5
        static let constraint: Int32 = 19
        static let misuse: Int32 = 21
        static let range: Int32 = 25
        static let constraintPrimaryKey: Int32 = 19 | (6 << 8)
        static let constraintUnique: Int32 = 19 | (8 << 8)
    }

    /// A misuse of this module (SQLITE_MISUSE), e.g. a closed database or a nested write.
    static func misuse(_ message: String, sql: String? = nil) -> SQLiteError {
        SQLiteError(extendedCode: Code.misuse, message: message, sql: sql)
    }
}
