/// An error reported by PostgreSQL or libpq, or by this module when it is misused.
///
/// ``sqlState`` is the server's five-character SQLSTATE
/// (https://www.postgresql.org/docs/15/errcodes-appendix.html), empty when the failure happened
/// before a server answered (a refused or lost connection). The description holds the SQLSTATE and
/// the server's primary message only: never the SQL text, the detail line (which can quote a
/// conflicting key) or bound values, and never the connection's password.
public struct PostgresError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is, for deciding what to do about it.
    public enum Kind: Sendable, Equatable {
        /// The connection is gone or could not be made; the outcome of a statement in flight is
        /// unknown, and the connection is not used again.
        case connection
        /// `40001` serialization failure or `40P01` deadlock: the transaction can be run again.
        case retryable
        /// `23505` unique violation.
        case uniqueViolation
        /// Any other error the server reported.
        case server
        /// A pool with no free connection within its wait, or a closed database.
        case unavailable
    }

    /// What kind of failure this is.
    public let kind: Kind
    /// The SQLSTATE, or empty.
    public let sqlState: String
    /// The server's primary message, or libpq's.
    public let message: String

    /// Creates an error.
    public init(kind: Kind, sqlState: String = "", message: String) {
        self.kind = kind
        self.sqlState = sqlState
        self.message = message
    }

    /// An error for a server's SQLSTATE and primary message.
    init(sqlState: String, message: String) {
        let kind: Kind =
            switch sqlState {
            case "40001", "40P01": .retryable
            case "23505": .uniqueViolation
            // Class 08 (connection exception), 57P01-57P03 (the server shutting down or starting).
            case let state where state.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(state): .connection
            default: .server
            }
        // Class 22 (data exception) messages can quote the value that failed to convert.
        let safe = sqlState.hasPrefix("22") ? "invalid value for its type" : message
        self.init(kind: kind, sqlState: sqlState, message: safe)
    }

    public var description: String {
        sqlState.isEmpty ? "postgresql: \(message)" : "postgresql \(sqlState): \(message)"
    }
}
