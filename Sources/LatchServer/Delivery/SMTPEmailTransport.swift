import Foundation
import LatchCurl

/// Delivers `email` outbox messages over SMTP (RFC 5321), through ``LatchCurl/CurlSMTPClient``.
///
/// Each message becomes a ``MailMessage`` from the tenant's sender (``TenantSettings/emailFrom``,
/// else ``defaultSender``; the display name, when the sender gives none, is the tenant's brand name
/// or name), to the recipient, with the message's subject, its creation time as `Date`, and
/// `Message-ID: <messageID@sender-domain>`, so every attempt of one message carries the same id
/// and a receiving system can drop duplicates. The bodies come from ``MailTemplate``.
///
/// Failures ``OutboxWorker`` acts on:
/// - a permanent refusal (a `5yz` reply to `MAIL`, `RCPT` or `DATA`, such as `550` mailbox
///   unavailable; RFC 5321 § 4.2.1) throws ``UndeliverableMessage``: the message is abandoned at
///   once, a dead letter, because the same message will be refused again;
/// - everything else (`4yz` replies, refused or lost connections, time-outs, TLS failures, a
///   refused login) throws ``LatchCurl/SMTPFailure``, and the message is tried again after a
///   backoff (``OutboxRetryPolicy``) until its attempts run out.
///
/// No description holds the password, the body or the code.
public struct SMTPEmailTransport: MessageTransport, CustomStringConvertible {
    /// The SMTP client.
    public let client: CurlSMTPClient
    /// The sender of tenants without a sender of their own (`--smtp-from`).
    public let defaultSender: MailAddress
    /// The tenant of an id, for its name and sender; `nil` when there is none.
    let tenant: @Sendable (String) throws -> Tenant?

    /// Creates the transport.
    /// - Parameters:
    ///   - client: the SMTP client (server, TLS, credentials, time limits).
    ///   - defaultSender: the `From` of tenants without ``TenantSettings/emailFrom``.
    ///   - tenant: looks a tenant up by id (from the store).
    public init(client: CurlSMTPClient, defaultSender: MailAddress, tenant: @escaping @Sendable (String) throws -> Tenant?) {
        self.client = client
        self.defaultSender = defaultSender
        self.tenant = tenant
    }

    public func deliver(_ message: OutboxMessage) throws {
        let mail = try mailMessage(for: message, tenant: try tenant(message.tenantID))
        let bytes: [UInt8]
        do {
            bytes = Array(try mail.rendered().utf8)
        } catch {
            throw UndeliverableMessage("the message cannot be written as e-mail: \(error)")
        }
        if let failure = Self.failure(of: { () throws(SMTPFailure) in
            try client.send(bytes, from: mail.from.address, to: [mail.to.address])
        }) {
            guard !failure.isPermanent else {
                throw UndeliverableMessage("\(failure) (a permanent refusal: not retried)")
            }
            throw failure
        }
    }

    /// The failure `send` ends with, or `nil` when it succeeds.
    private static func failure(of send: () throws(SMTPFailure) -> Void) -> SMTPFailure? {
        do {
            try send()
            return nil
        } catch {
            return error
        }
    }

    /// The e-mail of `message` for `tenant`.
    /// - Throws: ``UndeliverableMessage`` when the recipient is not a plain address.
    func mailMessage(for message: OutboxMessage, tenant: Tenant?) throws -> MailMessage {
        let tenantName = tenant.map { $0.settings.branding.displayName ?? $0.name } ?? message.tenantID
        let sender = (tenant?.settings.emailFrom.flatMap(MailAddress.init(parsing:)) ?? defaultSender).named(tenantName)
        guard let recipient = MailAddress(address: message.recipient) else {
            throw UndeliverableMessage("the recipient is not a plain e-mail address")
        }
        let (text, html) = MailTemplate.render(message, tenantName: tenantName)
        let localPart = message.messageID.isEmpty ? "outbox-\(message.id)" : message.messageID
        return MailMessage(
            from: sender, to: recipient, subject: message.subject, date: message.createdAt,
            messageID: "\(localPart)@\(sender.domain)", text: text, html: html)
    }

    public var description: String {
        let security =
            switch client.security {
            case .implicitTLS: "implicit TLS"
            case .startTLSRequired: "STARTTLS required"
            case .startTLSOpportunistic: "STARTTLS opportunistic"
            case .none: "STARTTLS off"
            }
        return "SMTP at \(client.server) (\(security))"
    }
}

/// Development delivery with a real server beside it: writes the development log line
/// (``DevelopmentLogTransport``, which scripts and the outbox reader rely on) and then hands the
/// message to `transport` (an SMTP sink), whose failures count as for `transport` alone.
public struct DevelopmentCopyTransport: MessageTransport {
    let log: DevelopmentLogTransport
    let transport: any MessageTransport

    /// Creates the transport.
    public init(log: DevelopmentLogTransport, transport: any MessageTransport) {
        self.log = log
        self.transport = transport
    }

    public func deliver(_ message: OutboxMessage) throws {
        try log.deliver(message)
        try transport.deliver(message)
    }
}
