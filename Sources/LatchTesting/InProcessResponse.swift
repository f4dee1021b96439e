/// An answer of a ``LatchTestServer`` in ``LatchTestServer/Mode/inProcess`` mode: the response the
/// server would have sent, with `x-request-id` and `client-request-id` as the socket path adds them.
public struct InProcessResponse: Sendable {
    /// The status code.
    public var status: Int
    /// Header fields by lower-cased name (repeated fields joined with `", "`).
    public var headers: [String: String]
    /// The body.
    public var body: [UInt8]
}
