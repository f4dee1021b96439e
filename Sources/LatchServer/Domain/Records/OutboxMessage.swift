import Foundation

/// A message committed in the same transaction as the flow step that caused it, and delivered
/// afterwards by the outbox worker (transactional outbox).
public struct OutboxMessage: Sendable, Equatable {
    /// Row id, assigned by the store (0 before insert).
    public var id: Int64
    /// The tenant.
    public var tenantID: String
    /// `email` (SMS comes later).
    public var channel: String
    /// The address.
    public var recipient: String
    /// The subject line.
    public var subject: String
    /// The text body.
    public var body: String
    /// The one-time code the message carries, kept so the development outbox reader can show it.
    public var code: String?
    /// When it was committed.
    public var createdAt: Date
    /// When the worker handed it to a transport.
    public var deliveredAt: Date?

    /// Creates a message.
    public init(
        id: Int64 = 0, tenantID: String, channel: String = "email", recipient: String, subject: String,
        body: String, code: String?, createdAt: Date, deliveredAt: Date? = nil
    ) {
        self.id = id
        self.tenantID = tenantID
        self.channel = channel
        self.recipient = recipient
        self.subject = subject
        self.body = body
        self.code = code
        self.createdAt = createdAt
        self.deliveredAt = deliveredAt
    }
}
