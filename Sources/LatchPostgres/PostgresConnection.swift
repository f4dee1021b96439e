internal import CPQ

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// One libpq connection (https://www.postgresql.org/docs/15/libpq.html), used by one thread at a
/// time, with its own cache of prepared statements.
///
/// Every parameterised statement is prepared once per connection (`PQprepare`) and then run with
/// `PQexecPrepared`, results in the binary format. SQL is never built from values: they travel as
/// parameters. A connection whose socket failed is ``isBroken`` and is not used again.
public final class PostgresConnection {
    private let handle: OpaquePointer
    private let statementText: @Sendable (String) -> String
    /// Statement names by SQL text, with the parameter count each was prepared for.
    private var prepared: [String: String] = [:]
    /// Rows the last ``run(_:_:)`` or ``query(_:_:)`` inserted, updated or deleted.
    public private(set) var changes = 0
    /// Whether the connection failed at the socket level (or the server ended it); such a
    /// connection is closed rather than reused.
    public private(set) var isBroken = false
    /// Whether a statement in the current transaction failed with a serialization failure or a
    /// deadlock, so the transaction must run again even if the caller swallowed the error.
    public internal(set) var mustRetry = false

    /// Opens a connection.
    /// - Parameters:
    ///   - connectionString: a libpq connection URI or key-value string
    ///     (https://www.postgresql.org/docs/15/libpq-connect.html#LIBPQ-CONNSTRING); a password may
    ///     also come from `PGPASSWORD` or `PGPASSFILE`, as libpq reads them itself.
    ///   - defaults: connection parameters the string may override (`connect_timeout`, …).
    ///   - statementText: turns a caller's statement text into the SQL prepared, once per statement.
    /// - Throws: ``PostgresError`` of kind `.connection` when the server cannot be reached or
    ///   refuses; its message is libpq's and holds no password.
    public init(
        connectionString: String, defaults: [(String, String)] = [],
        statementText: @escaping @Sendable (String) -> String = { $0 }
    ) throws(PostgresError) {
        self.statementText = statementText
        // Defaults first: later entries override earlier ones, so what the connection string says wins
        // (https://www.postgresql.org/docs/15/libpq-connect.html#LIBPQ-PQCONNECTDBPARAMS).
        let parameters = defaults + [("dbname", connectionString)]
        let keywords = parameters.map { strdup($0.0) }
        let values = parameters.map { strdup($0.1) }
        defer {
            keywords.forEach { free($0) }
            values.forEach { free($0) }
        }
        let handle = (keywords.map { UnsafePointer($0) } + [nil]).withUnsafeBufferPointer { keywordPointers in
            (values.map { UnsafePointer($0) } + [nil]).withUnsafeBufferPointer { valuePointers in
                PQconnectdbParams(keywordPointers.baseAddress, valuePointers.baseAddress, 1)
            }
        }
        guard let handle else {
            throw PostgresError(kind: .connection, message: "out of memory opening a connection")
        }
        guard PQstatus(handle) == CONNECTION_OK else {
            let message = Self.text(PQerrorMessage(handle))
            PQfinish(handle)
            throw PostgresError(kind: .connection, message: message)
        }
        self.handle = handle
        // Notices (`CREATE … IF NOT EXISTS` skipping) are not errors; libpq would print them to stderr.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
    }

    deinit { PQfinish(handle) }

    /// Runs `sql` with the simple query protocol: no parameters, possibly several statements
    /// separated by semicolons (https://www.postgresql.org/docs/15/protocol-flow.html#id-1.10.6.7.4).
    /// - Returns: the command tag of the last statement (`COMMIT`, `ROLLBACK`, …).
    @discardableResult
    public func execute(_ sql: String) throws(PostgresError) -> String {
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        try check(result)
        return Self.text(PQcmdStatus(result))
    }

    /// Runs a statement that returns no rows; returns how many rows it changed.
    @discardableResult
    public func run(_ sql: String, _ parameters: [PostgresValue] = []) throws(PostgresError) -> Int {
        _ = try perform(sql, parameters, readRows: false)
        return changes
    }

    /// Runs a statement and returns its rows.
    public func query(_ sql: String, _ parameters: [PostgresValue] = []) throws(PostgresError) -> [PostgresRow] {
        try perform(sql, parameters, readRows: true)
    }

    /// Runs a statement expected to return at most one row.
    public func queryOne(_ sql: String, _ parameters: [PostgresValue] = []) throws(PostgresError) -> PostgresRow? {
        try perform(sql, parameters, readRows: true).first
    }

    /// Whether the server-side session is in a transaction block (idle, in a transaction, or in a
    /// failed one), as libpq last saw it.
    public var inTransaction: Bool {
        let status = PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR
    }

    private func perform(_ sql: String, _ parameters: [PostgresValue], readRows: Bool) throws(PostgresError)
        -> [PostgresRow]
    {
        let name = try statement(for: sql, parameters)
        var buffer: [UInt8] = []
        var offsets: [Int] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []
        for value in parameters {
            offsets.append(buffer.count)
            switch value {
            case .null:
                lengths.append(-1)
                formats.append(0)
                continue
            case .integer(let v):
                buffer += Array(String(v).utf8)
                formats.append(0)
            case .real(let v):
                buffer += Array(Self.floatText(v).utf8)
                formats.append(0)
            case .text(let s):
                let bytes = Array(s.utf8)
                // Text parameters end at their first NUL; PostgreSQL text cannot hold one anyway.
                guard !bytes.contains(0) else {
                    throw PostgresError(kind: .server, sqlState: "22021", message: "text parameter holds a NUL byte")
                }
                buffer += bytes
                formats.append(0)
            case .blob(let bytes):
                buffer += bytes
                formats.append(1)
            }
            lengths.append(Int32(buffer.count - offsets.last!))
            buffer.append(0)
        }
        let result: OpaquePointer? = buffer.withUnsafeBufferPointer { bytes in
            let base = bytes.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }
            var pointers: [UnsafePointer<CChar>?] = []
            pointers.reserveCapacity(parameters.count)
            for (i, length) in lengths.enumerated() {
                pointers.append(length < 0 ? nil : base.map { $0 + offsets[i] })
            }
            return PQexecPrepared(handle, name, Int32(parameters.count), pointers, lengths, formats, 1)
        }
        defer { PQclear(result) }
        try check(result)
        changes = Int(Self.text(PQcmdTuples(result))) ?? 0
        guard readRows else { return [] }
        return try Self.rows(of: result!)
    }

    /// The name of `sql`'s prepared statement on this connection, preparing it on first use with
    /// the types of `parameters` (NULLs left for the server to infer).
    private func statement(for sql: String, _ parameters: [PostgresValue]) throws(PostgresError) -> String {
        if let name = prepared[sql] { return name }
        let name = "latch_\(prepared.count + 1)"
        let types: [UInt32] = parameters.map {
            switch $0 {
            case .integer: 20  // int8
            case .real: 701  // float8
            case .text: 25  // text
            case .blob: 17  // bytea
            case .null: 0  // inferred
            }
        }
        let result = PQprepare(handle, name, statementText(sql), Int32(types.count), types)
        defer { PQclear(result) }
        try check(result)
        prepared[sql] = name
        return name
    }

    /// Throws when `result` is missing or reports an error; marks the connection broken when its
    /// socket failed.
    private func check(_ result: OpaquePointer?) throws(PostgresError) {
        let status = result.map { PQresultStatus($0) } ?? PGRES_FATAL_ERROR
        guard status != PGRES_COMMAND_OK, status != PGRES_TUPLES_OK else { return }
        if PQstatus(handle) != CONNECTION_OK {
            isBroken = true
            throw PostgresError(kind: .connection, message: Self.firstLine(Self.text(PQerrorMessage(handle))))
        }
        guard let result else {
            throw PostgresError(kind: .connection, message: Self.firstLine(Self.text(PQerrorMessage(handle))))
        }
        let state = Self.text(PQresultErrorField(result, Int32(UInt8(ascii: "C"))))
        let message = Self.text(PQresultErrorField(result, Int32(UInt8(ascii: "M"))))
        let error = PostgresError(sqlState: state, message: message.isEmpty ? "statement failed" : message)
        if error.kind == .retryable { mustRetry = true }
        if error.kind == .connection { isBroken = true }
        throw error
    }

    /// Copies every row out of `result`, decoding each binary column by its type.
    private static func rows(of result: OpaquePointer) throws(PostgresError) -> [PostgresRow] {
        let count = Int(PQntuples(result))
        let fields = Int(PQnfields(result))
        var columns: [String] = []
        var index: [String: Int] = [:]
        var types: [UInt32] = []
        for field in 0..<fields {
            let name = text(PQfname(result, Int32(field)))
            columns.append(name)
            if index[name] == nil { index[name] = field }
            types.append(PQftype(result, Int32(field)))
        }
        var rows: [PostgresRow] = []
        rows.reserveCapacity(count)
        for row in 0..<count {
            var values: [PostgresValue] = []
            values.reserveCapacity(fields)
            for field in 0..<fields {
                if PQgetisnull(result, Int32(row), Int32(field)) != 0 {
                    values.append(.null)
                    continue
                }
                let length = Int(PQgetlength(result, Int32(row), Int32(field)))
                let bytes = UnsafeRawBufferPointer(start: PQgetvalue(result, Int32(row), Int32(field)), count: length)
                values.append(try decode(bytes, type: types[field], column: columns[field]))
            }
            rows.append(PostgresRow(columns: columns, index: index, values: values))
        }
        return rows
    }

    /// One binary-format value (https://www.postgresql.org/docs/15/protocol-overview.html#PROTOCOL-FORMAT-CODES).
    private static func decode(_ bytes: UnsafeRawBufferPointer, type: UInt32, column: String) throws(PostgresError)
        -> PostgresValue
    {
        func integer() -> Int64 {
            var value: Int64 = bytes.first.map { Int64(Int8(bitPattern: $0)) } ?? 0
            for byte in bytes.dropFirst() { value = value << 8 | Int64(byte) }
            return value
        }
        func unsigned() -> UInt64 {
            var value: UInt64 = 0
            for byte in bytes { value = value << 8 | UInt64(byte) }
            return value
        }
        switch type {
        case 20, 23, 21, 26:  // int8, int4, int2, oid
            return .integer(type == 26 ? Int64(unsigned()) : integer())
        case 16:  // bool
            return .integer(bytes.first == 0 ? 0 : 1)
        case 701:  // float8
            return .real(Double(bitPattern: unsigned()))
        case 700:  // float4
            return .real(Double(Float(bitPattern: UInt32(truncatingIfNeeded: unsigned()))))
        case 25, 1043, 19, 1042, 114, 705:  // text, varchar, name, bpchar, json, unknown
            return .text(String(decoding: bytes, as: UTF8.self))
        case 3802:  // jsonb: a version byte, then the text
            return .text(String(decoding: bytes.dropFirst(), as: UTF8.self))
        case 17:  // bytea
            return .blob(Array(bytes))
        default:
            throw PostgresError(kind: .server, message: "column \(column) has unsupported type oid \(type)")
        }
    }

    /// A double in a text form float8 input reads back exactly.
    private static func floatText(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        return "\(value)"
    }

    private static func text(_ pointer: UnsafePointer<CChar>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
    }

    private static func firstLine(_ message: String) -> String {
        let line = message.split(whereSeparator: \.isNewline).first.map(String.init) ?? message
        return line.isEmpty ? "connection lost" : line
    }
}
