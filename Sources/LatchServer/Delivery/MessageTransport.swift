/// Hands an outbox message to the outside world (SMTP, an SMS gateway, or the development log).
public protocol MessageTransport: Sendable {
    /// Delivers `message`; throwing leaves it pending for the next attempt.
    func deliver(_ message: OutboxMessage) throws
}

/// Development delivery: one standard-error line per message with `to=<recipient>` and
/// `code=<code>`, so a developer (or a script) reads codes without a mail server.
public struct DevelopmentLogTransport: MessageTransport {
    let log: ServerLog

    /// Creates the transport.
    public init(log: ServerLog) { self.log = log }

    public func deliver(_ message: OutboxMessage) throws {
        var line = "outbox channel=\(message.channel) to=\(message.recipient)"
        if let code = message.code { line += " code=\(code)" }
        line += " subject=\"\(message.subject)\""
        log.info(line)
    }
}
