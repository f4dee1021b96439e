internal import CSQLite

/// One SQLite connection (`sqlite3*`, https://sqlite.org/c3ref/sqlite3.html).
///
/// A connection is used by one thread at a time: ``SQLiteDatabase`` only lends it
/// inside `read`/`write` closures, and it must not escape them. It is opened in
/// multi-thread mode (`SQLITE_OPEN_NOMUTEX`, https://sqlite.org/threadsafe.html)
/// because the database serializes access to it.
///
/// `run`, `query` and `queryOne` take exactly one statement with `?` placeholders and
/// keep it prepared in a per-connection cache (`sqlite3_prepare_v3` with
/// `SQLITE_PREPARE_PERSISTENT`, https://sqlite.org/c3ref/prepare.html). Bound values
/// are copied in and cleared after each use (https://sqlite.org/c3ref/clear_bindings.html).
public final class SQLiteConnection {
    private let db: OpaquePointer
    private var cache: [String: Statement] = [:]
    private var isClosed = false
    private static let cacheCapacity = 128

    /// Set by the writer while a write unit runs: statements then refuse to run if the
    /// unit's transaction has been rolled back behind its back (https://sqlite.org/lang_transaction.html#response_to_errors_within_a_transaction).
    var requiresTransaction = false

    /// Opens `path` read-write (creating it) or read-only, with extended result codes and
    /// the busy timeout from `configuration`.
    init(path: String, readOnly: Bool, busyTimeoutMilliseconds: Int) throws(SQLiteError) {
        var handle: OpaquePointer?
        let access = readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        let rc = sqlite3_open_v2(path, &handle, access | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE, nil)
        guard rc == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
            sqlite3_close_v2(handle)
            throw SQLiteError(extendedCode: rc, message: message)
        }
        db = handle
        sqlite3_extended_result_codes(db, 1)
        sqlite3_busy_timeout(db, Int32(clamping: busyTimeoutMilliseconds))
    }

    deinit { close() }

    /// Runs `sql`, which may hold several statements separated by `;`, without bindings
    /// and discarding any rows (`sqlite3_exec`, https://sqlite.org/c3ref/exec.html).
    /// Statements are not cached; use it for schema and pragmas.
    public func execute(_ sql: String) throws(SQLiteError) {
        try checkTransaction(sql)
        let rc = sqlite3_exec(db, sql, nil, nil, nil)
        guard rc == SQLITE_OK else { throw error(rc, sql: sql) }
    }

    /// Runs one statement with `bindings` for its `?` parameters, stepping it to completion
    /// and discarding any rows (e.g. of `RETURNING`). See https://sqlite.org/c3ref/step.html.
    public func run(_ sql: String, _ bindings: [SQLiteValue] = []) throws(SQLiteError) {
        try checkTransaction(sql)
        _ = try perform(try prepare(sql), bindings, rowLimit: 0)
    }

    /// Runs one statement with `bindings` and returns all its rows.
    public func query(_ sql: String, _ bindings: [SQLiteValue] = []) throws(SQLiteError) -> [SQLiteRow] {
        try checkTransaction(sql)
        return try perform(try prepare(sql), bindings, rowLimit: .max)
    }

    /// Runs one statement with `bindings` and returns its first row, or nil when there is none.
    /// Later rows are not computed.
    public func queryOne(_ sql: String, _ bindings: [SQLiteValue] = []) throws(SQLiteError) -> SQLiteRow? {
        try checkTransaction(sql)
        return try perform(try prepare(sql), bindings, rowLimit: 1).first
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE on this connection
    /// (`sqlite3_changes64`, https://sqlite.org/c3ref/changes.html).
    public var changes: Int { Int(truncatingIfNeeded: sqlite3_changes64(db)) }

    /// The rowid of the last successful INSERT on this connection
    /// (`sqlite3_last_insert_rowid`, https://sqlite.org/c3ref/last_insert_rowid.html).
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(db) }

    // MARK: - Internal, for SQLiteDatabase

    /// Whether no transaction is open (https://sqlite.org/c3ref/get_autocommit.html).
    var isAutocommit: Bool { sqlite3_get_autocommit(db) != 0 }

    /// Runs a transaction-control statement (BEGIN, COMMIT, SAVEPOINT...) from the cache,
    /// bypassing the ``requiresTransaction`` check.
    func control(_ sql: String) throws(SQLiteError) {
        _ = try perform(try prepare(sql), [], rowLimit: 0)
    }

    /// Finalizes cached statements and closes the handle (`sqlite3_close_v2`,
    /// https://sqlite.org/c3ref/close.html). Idempotent.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        cache.removeAll()
        sqlite3_close_v2(db)
    }

    // MARK: - Private

    private func checkTransaction(_ sql: String) throws(SQLiteError) {
        guard !isClosed else { throw SQLiteError.misuse("connection is closed", sql: sql) }
        if requiresTransaction && isAutocommit {
            throw SQLiteError(
                extendedCode: SQLiteError.Code.abort,
                message: "the write transaction was rolled back by an earlier error or ended inside the write closure",
                sql: sql)
        }
    }

    private func error(_ rc: Int32, sql: String?) -> SQLiteError {
        // sqlite3_errmsg describes the most recent failure; fall back to the generic text if it is about another code.
        let current = sqlite3_extended_errcode(db)
        let message = (current & 0xff) == (rc & 0xff) ? String(cString: sqlite3_errmsg(db)) : String(cString: sqlite3_errstr(rc))
        return SQLiteError(extendedCode: rc, message: message, sql: sql)
    }

    private func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        if let cached = cache[sql] { return cached }
        var handle: OpaquePointer?
        var trailingStatement = false
        let rc = sql.withCString { text -> Int32 in
            var tail: UnsafePointer<CChar>?
            let rc = sqlite3_prepare_v3(db, text, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, &tail)
            // Anything after the first statement other than whitespace, `;` or comments is refused.
            while rc == SQLITE_OK, let rest = tail, rest.pointee != 0 {
                var extra: OpaquePointer?
                var next: UnsafePointer<CChar>?
                guard sqlite3_prepare_v2(db, rest, -1, &extra, &next) == SQLITE_OK else { trailingStatement = true; break }
                if extra != nil { sqlite3_finalize(extra); trailingStatement = true; break }
                if next == rest { break }
                tail = next
            }
            return rc
        }
        guard rc == SQLITE_OK else { throw error(rc, sql: sql) }
        guard let handle else { throw SQLiteError.misuse("no SQL statement to run", sql: sql) }
        let statement = Statement(handle: handle)
        guard !trailingStatement else {
            throw SQLiteError.misuse("run/query take exactly one SQL statement; use execute for several", sql: sql)
        }
        if cache.count >= Self.cacheCapacity, let victim = cache.keys.first {
            cache.removeValue(forKey: victim)
        }
        cache[sql] = statement
        return statement
    }

    /// Binds, steps to completion (or until `rowLimit` rows are read), then resets and clears bindings.
    private func perform(_ statement: Statement, _ bindings: [SQLiteValue], rowLimit: Int) throws(SQLiteError) -> [SQLiteRow] {
        let stmt = statement.handle
        defer {
            sqlite3_reset(stmt)
            sqlite3_clear_bindings(stmt)
        }
        try bind(bindings, to: stmt)
        var rows: [SQLiteRow] = []
        var columns: (names: [String], index: [String: Int])?
        while true {
            let rc = sqlite3_step(stmt)
            if rc == SQLITE_DONE { return rows }
            guard rc == SQLITE_ROW else { throw error(rc, sql: String(cString: sqlite3_sql(stmt))) }
            guard rowLimit > 0 else { continue }
            let (names, index) = columns ?? Self.columnNames(stmt)
            columns = (names, index)
            rows.append(SQLiteRow(columns: names, index: index, values: (0..<Int32(names.count)).map { Self.value(stmt, $0) }))
            if rows.count >= rowLimit { return rows }
        }
    }

    private func bind(_ values: [SQLiteValue], to stmt: OpaquePointer) throws(SQLiteError) {
        let expected = Int(sqlite3_bind_parameter_count(stmt))
        guard expected == values.count else {
            throw SQLiteError(
                extendedCode: SQLiteError.Code.range,
                message: "statement has \(expected) parameters but \(values.count) values were bound",
                sql: String(cString: sqlite3_sql(stmt)))
        }
        for (offset, value) in values.enumerated() {
            let i = Int32(offset + 1)
            let rc: Int32
            switch value {
            case .integer(let v):
                rc = sqlite3_bind_int64(stmt, i, v)
            case .real(let v):
                rc = sqlite3_bind_double(stmt, i, v)
            case .text(let v):
                var text = v
                rc = text.withUTF8 { bytes -> Int32 in
                    guard bytes.count <= Int32.max else { return SQLITE_TOOBIG }
                    // A NULL pointer would bind SQL NULL, so the empty string gets a real one.
                    guard let base = bytes.baseAddress, !bytes.isEmpty else {
                        return latch_sqlite3_bind_text_transient(stmt, i, "", 0)
                    }
                    return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                        latch_sqlite3_bind_text_transient(stmt, i, $0, Int32(bytes.count))
                    }
                }
            case .blob(let v):
                rc = v.withUnsafeBytes { bytes -> Int32 in
                    guard bytes.count <= Int32.max else { return SQLITE_TOOBIG }
                    guard let base = bytes.baseAddress, !bytes.isEmpty else { return sqlite3_bind_zeroblob(stmt, i, 0) }
                    return latch_sqlite3_bind_blob_transient(stmt, i, base, Int32(bytes.count))
                }
            case .null:
                rc = sqlite3_bind_null(stmt, i)
            }
            guard rc == SQLITE_OK else { throw error(rc, sql: String(cString: sqlite3_sql(stmt))) }
        }
    }

    private static func columnNames(_ stmt: OpaquePointer) -> (names: [String], index: [String: Int]) {
        let count = Int(sqlite3_column_count(stmt))
        var names: [String] = []
        var index: [String: Int] = [:]
        names.reserveCapacity(count)
        for i in 0..<count {
            let name = sqlite3_column_name(stmt, Int32(i)).map { String(cString: $0) } ?? ""
            names.append(name)
            if index[name] == nil { index[name] = i }
        }
        return (names, index)
    }

    /// Copies column `i` of the current row (https://sqlite.org/c3ref/column_blob.html).
    private static func value(_ stmt: OpaquePointer, _ i: Int32) -> SQLiteValue {
        // Fundamental datatype codes (https://sqlite.org/c3ref/c_blob.html); SQLITE_TEXT is not importable.
        switch sqlite3_column_type(stmt, i) {
        case 1: return .integer(sqlite3_column_int64(stmt, i))
        case 2: return .real(sqlite3_column_double(stmt, i))
        case 3:
            guard let text = sqlite3_column_text(stmt, i) else { return .text("") }
            let count = Int(sqlite3_column_bytes(stmt, i))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case 4:
            let count = Int(sqlite3_column_bytes(stmt, i))
            guard let bytes = sqlite3_column_blob(stmt, i), count > 0 else { return .blob([]) }
            return .blob([UInt8](UnsafeRawBufferPointer(start: bytes, count: count)))
        default:
            return .null
        }
    }
}

/// A prepared statement owned by one connection's cache; finalized when evicted
/// (https://sqlite.org/c3ref/finalize.html).
private final class Statement {
    let handle: OpaquePointer

    init(handle: OpaquePointer) { self.handle = handle }

    deinit { sqlite3_finalize(handle) }
}
