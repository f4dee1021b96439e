/// A delivery that no later attempt can make: the outbox worker abandons the message at once (a
/// dead letter) and logs ``reason`` once, instead of retrying it.
///
/// ```swift
/// throw UndeliverableMessage("no transport for channel 'fax'")
/// ```
public struct UndeliverableMessage: Error, Sendable, CustomStringConvertible {
    /// Why, and what an operator can do about it; never the body or the code.
    public let reason: String

    /// Creates the error.
    public init(_ reason: String) { self.reason = reason }

    public var description: String { reason }
}
