import Foundation
import LatchCrypto

/// Seals outbox messages for the store and opens them again, so a one-time code never rests in the
/// database in the clear.
///
/// Body, code, kind and link are sealed together with AES-256-GCM (``SecretBox``) under a key of their own,
/// derived from the data directory's master key with HKDF-SHA256 (RFC 5869, `info`
/// `latch outbox message body v1`), so the outbox never uses the key that seals signing keys. The
/// associated data (RFC 5116 § 2.1) is a version label followed by the tenant, channel, recipient,
/// subject and ``StoredOutboxMessage/messageID``, each length-prefixed: a sealed body that was
/// altered, or moved into another row, does not open.
///
/// ```swift
/// let sealer = try MessageSealer(masterKey: try directory.masterKey())
/// try tx.insert(try sealer.seal(message))          // in the flow's transaction
/// let opened = try sealer.open(stored)             // to deliver, or for the --dev outbox
/// ```
public struct MessageSealer: Sendable {
    /// Why a sealed body did not open. Names the row, never its content.
    public struct Unreadable: Error, Sendable, CustomStringConvertible {
        /// The row id of the message.
        public let id: Int64

        public var description: String {
            "outbox message \(id): its sealed body does not open (altered, moved from another row, "
                + "or sealed under another master key)"
        }
    }

    /// What the seal holds. The fields after `code` are optional, so seals made before they
    /// existed still open (without them).
    private struct Content: Codable {
        var body: String
        var code: String?
        var kind: String?
        var link: String?
        var validMinutes: Int?
    }

    /// The HKDF `info` of the outbox key.
    static let keyInfo = Array("latch outbox message body v1".utf8)
    /// The first field of the associated data, naming its layout.
    static let label = "latch-outbox-v1"

    private let key: [UInt8]

    /// Derives the outbox key from `masterKey`.
    /// - Parameter masterKey: the data directory's master key (32 bytes).
    /// - Throws: ``CryptoError`` when the derivation fails.
    public init(masterKey: [UInt8]) throws {
        key = try HKDF.sha256(inputKey: masterKey, info: Self.keyInfo, outputLength: SecretBox.keyLength)
    }

    /// `message` as the store keeps it: body and code sealed under a fresh random message id, the
    /// rest in the clear.
    /// - Throws: ``CryptoError`` when sealing fails.
    public func seal(_ message: OutboxMessage) throws -> StoredOutboxMessage {
        var stored = StoredOutboxMessage(
            id: message.id, messageID: SecureRandom.hex(byteCount: 16), tenantID: message.tenantID,
            channel: message.channel, recipient: message.recipient, subject: message.subject, sealedBody: nil,
            createdAt: message.createdAt, deliveredAt: message.deliveredAt, abandonedAt: message.abandonedAt,
            attempts: message.attempts, lastError: message.lastError, nextAttemptAt: message.nextAttemptAt)
        let plaintext = Array(
            try JSONEncoder().encode(
                Content(
                    body: message.body, code: message.code, kind: message.kind?.rawValue, link: message.link,
                    validMinutes: message.validMinutes)))
        stored.sealedBody = try SecretBox.seal(plaintext, key: key, associatedData: Self.associatedData(of: stored))
        return stored
    }

    /// Opens `stored`: the message with its body and code, or with both blank when they were erased.
    /// - Throws: ``Unreadable`` when the seal does not open with this key and this row's
    ///   associated data, or holds no message.
    public func open(_ stored: StoredOutboxMessage) throws -> OutboxMessage {
        var message = Self.redacted(stored)
        guard let sealed = stored.sealedBody else { return message }
        guard let plaintext = try? SecretBox.open(sealed, key: key, associatedData: Self.associatedData(of: stored)) else {
            throw Unreadable(id: stored.id)
        }
        guard let content = try? JSONDecoder().decode(Content.self, from: Data(plaintext)) else {
            throw Unreadable(id: stored.id)
        }
        message.body = content.body
        message.code = content.code
        message.kind = content.kind.map(MessageKind.init(rawValue:))
        message.link = content.link
        message.validMinutes = content.validMinutes
        return message
    }

    /// `stored` without opening its seal: body and code blank, everything else as stored.
    public static func redacted(_ stored: StoredOutboxMessage) -> OutboxMessage {
        OutboxMessage(
            id: stored.id, messageID: stored.messageID, tenantID: stored.tenantID, channel: stored.channel,
            recipient: stored.recipient, subject: stored.subject, body: "", code: nil, createdAt: stored.createdAt,
            deliveredAt: stored.deliveredAt, abandonedAt: stored.abandonedAt, attempts: stored.attempts,
            lastError: stored.lastError, nextAttemptAt: stored.nextAttemptAt)
    }

    /// The associated data of `stored`'s seal: each field as a 4-byte big-endian length and its
    /// UTF-8 bytes, so no two different rows share one.
    static func associatedData(of stored: StoredOutboxMessage) -> [UInt8] {
        var data: [UInt8] = []
        for field in [Self.label, stored.tenantID, stored.channel, stored.recipient, stored.subject, stored.messageID] {
            let bytes = Array(field.utf8)
            let length = UInt32(truncatingIfNeeded: bytes.count)
            data += [UInt8(length >> 24), UInt8(truncatingIfNeeded: length >> 16), UInt8(truncatingIfNeeded: length >> 8)]
            data.append(UInt8(truncatingIfNeeded: length))
            data += bytes
        }
        return data
    }
}
