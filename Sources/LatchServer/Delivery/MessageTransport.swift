/// Hands an outbox message to the outside world (SMTP, an SMS gateway, or the development log).
public protocol MessageTransport: Sendable {
    /// Delivers `message`. Throwing ``UndeliverableMessage`` abandons it at once; any other error
    /// leaves it pending for a later attempt, after a backoff (``OutboxRetryPolicy``). An error's
    /// description is stored and logged, so it must never hold the body or the code.
    func deliver(_ message: OutboxMessage) throws

    /// Whether messages of `channel` (`email`, `sms`) have somewhere to go; `true` unless the
    /// transport says otherwise (``ChannelRouter`` does).
    func delivers(channel: String) -> Bool
}

extension MessageTransport {
    /// Every channel, for a transport that takes whatever it is handed.
    public func delivers(channel: String) -> Bool { true }
}

/// Development delivery: one standard-error line per message with `to=<recipient>` and
/// `code=<code>` (and `link=<url>` for an out-of-band link), so a developer (or a script) reads
/// codes without a mail server or an SMS gateway:
/// `outbox channel=sms to=+14155550123 code=12345678 subject=""`.
public struct DevelopmentLogTransport: MessageTransport {
    let log: ServerLog

    /// Creates the transport.
    public init(log: ServerLog) { self.log = log }

    public func deliver(_ message: OutboxMessage) throws {
        var line = "outbox channel=\(message.channel) to=\(message.recipient)"
        if let code = message.code {
            line += " code=\(code)"
            // An out-of-band message carries its code in a link on a line of its own.
            let link = message.body.split(separator: "\n").first { $0.hasPrefix("http") && $0.contains("oobCode=\(code)") }
            if let link, !link.contains(" ") { line += " link=\(link)" }
        }
        line += " subject=\"\(message.subject)\""
        log.info(line)
    }
}
