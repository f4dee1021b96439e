/// Failures a ``Store`` reports in domain terms.
public enum StoreError: Error, Sendable, CustomStringConvertible {
    /// A uniqueness rule was violated (the record exists).
    case conflict
    /// A stored value could not be read back (corruption, a schema mismatch, or a value written by a
    /// newer server).
    case corrupt(String)
    /// The database failed; the text names the operation, never bound values.
    case unavailable(String)

    public var description: String {
        switch self {
        case .conflict: "record already exists"
        case .corrupt(let what): "stored data unreadable: \(what)"
        case .unavailable(let what): "storage unavailable: \(what)"
        }
    }
}
