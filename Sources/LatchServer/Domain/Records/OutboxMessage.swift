import Foundation

/// A message committed in the same transaction as the flow step that caused it, and delivered
/// afterwards by the outbox worker (transactional outbox), as the domain and the transports see it:
/// body and code in the clear, in memory only. The store keeps it as a ``StoredOutboxMessage``,
/// with body and code sealed by a ``MessageSealer``.
public struct OutboxMessage: Sendable, Equatable {
    /// Row id, assigned by the store (0 before insert).
    public var id: Int64
    /// The random id bound into the message's seal (``StoredOutboxMessage/messageID``); empty
    /// before it is sealed. Stable across delivery attempts, so a receiver can drop duplicates.
    public var messageID: String
    /// The tenant.
    public var tenantID: String
    /// `email`, or `sms` (``recipient`` then is an E.164 phone number such as `+14155550123`).
    public var channel: String
    /// The address: an e-mail address, or an E.164 phone number for `sms`.
    public var recipient: String
    /// The subject line.
    public var subject: String
    /// The text body; empty once erased, or when it was not opened.
    public var body: String
    /// The one-time code the message carries, so the development outbox reader can show it; `nil`
    /// once erased, or when it was not opened.
    public var code: String?
    /// What the message is for, choosing its e-mail template; `nil` for messages sealed before
    /// kinds were recorded (they are sent as their text body).
    public var kind: MessageKind?
    /// The out-of-band link the message carries, or `nil`; erased and unopened like the body.
    public var link: String?
    /// Minutes the code or link stays valid, as the body says, or `nil`.
    public var validMinutes: Int?
    /// When it was committed.
    public var createdAt: Date
    /// When the worker handed it to a transport.
    public var deliveredAt: Date?
    /// When the worker gave up on it without delivering it (see ``StoredOutboxMessage/abandonedAt``).
    public var abandonedAt: Date?
    /// Failed delivery attempts so far.
    public var attempts: Int
    /// Why the last attempt failed (never the body or the code), or `nil`.
    public var lastError: String?
    /// When the next attempt is due after a failed one; `nil` means at once.
    public var nextAttemptAt: Date?

    /// Creates a message.
    public init(
        id: Int64 = 0, messageID: String = "", tenantID: String, channel: String = "email", recipient: String,
        subject: String, body: String, code: String?, createdAt: Date, deliveredAt: Date? = nil, abandonedAt: Date? = nil,
        attempts: Int = 0, lastError: String? = nil, nextAttemptAt: Date? = nil, kind: MessageKind? = nil,
        link: String? = nil, validMinutes: Int? = nil
    ) {
        self.kind = kind
        self.link = link
        self.validMinutes = validMinutes
        self.id = id
        self.messageID = messageID
        self.tenantID = tenantID
        self.channel = channel
        self.recipient = recipient
        self.subject = subject
        self.body = body
        self.code = code
        self.createdAt = createdAt
        self.deliveredAt = deliveredAt
        self.abandonedAt = abandonedAt
        self.attempts = attempts
        self.lastError = lastError
        self.nextAttemptAt = nextAttemptAt
    }
}
