import Foundation

/// An outbox message as stored: its body and the one-time code it carries are sealed together
/// (AES-256-GCM under a key derived from the data directory's master key, see ``MessageSealer``)
/// and never stored in the clear.
///
/// The tenant, channel, recipient and subject line stay in the clear: they hold no secret, and the
/// outbox is listed and filtered by them. The seal authenticates them, with ``messageID``, as
/// associated data, so a sealed body opens only in the row it was sealed for.
public struct StoredOutboxMessage: Sendable, Equatable {
    /// Row id, assigned by the store (0 before insert).
    public var id: Int64
    /// A random id chosen when the message is sealed and bound into its seal; unique in the outbox.
    public var messageID: String
    /// The tenant.
    public var tenantID: String
    /// `email` or `sms`.
    public var channel: String
    /// The address: an e-mail address, or an E.164 phone number for `sms`.
    public var recipient: String
    /// The subject line.
    public var subject: String
    /// The sealed body and code; `nil` once erased (delivered outside development, or abandoned).
    public var sealedBody: [UInt8]?
    /// When it was committed.
    public var createdAt: Date
    /// When the worker handed it to a transport.
    public var deliveredAt: Date?
    /// When the worker gave up on it without delivering it (a dead letter): its seal did not open
    /// (altered, moved from another row, sealed under another master key), it had no body, no
    /// transport serves its channel, or its deliveries kept failing up to the most attempts allowed.
    public var abandonedAt: Date?
    /// Failed delivery attempts so far.
    public var attempts: Int
    /// A short description of why the last attempt failed, or why the message was abandoned;
    /// never the body or the code.
    public var lastError: String?
    /// When the next attempt is due after a failed one; `nil` means at once.
    public var nextAttemptAt: Date?

    /// Creates a record.
    public init(
        id: Int64 = 0, messageID: String, tenantID: String, channel: String = "email", recipient: String,
        subject: String, sealedBody: [UInt8]?, createdAt: Date, deliveredAt: Date? = nil, abandonedAt: Date? = nil,
        attempts: Int = 0, lastError: String? = nil, nextAttemptAt: Date? = nil
    ) {
        self.id = id
        self.messageID = messageID
        self.tenantID = tenantID
        self.channel = channel
        self.recipient = recipient
        self.subject = subject
        self.sealedBody = sealedBody
        self.createdAt = createdAt
        self.deliveredAt = deliveredAt
        self.abandonedAt = abandonedAt
        self.attempts = attempts
        self.lastError = lastError
        self.nextAttemptAt = nextAttemptAt
    }
}
