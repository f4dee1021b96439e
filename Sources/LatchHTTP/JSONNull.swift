/// The JSON `null` literal (RFC 8259 §3) as it appears in ``HTTPRequest/jsonObject()`` results.
public struct JSONNull: Sendable, Hashable, CustomStringConvertible {
    /// The null value.
    public init() {}
    /// `"null"`.
    public var description: String { "null" }
}
