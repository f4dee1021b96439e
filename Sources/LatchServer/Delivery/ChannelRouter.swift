/// Delivers each outbox message through the transport of its channel: `sms` to the SMS webhook
/// (``WebhookSMSTransport``) when one is configured, `email` to the e-mail transport (SMTP,
/// ``SMTPEmailTransport``, or the development log), and so on.
///
/// A message whose channel has no transport is ``UndeliverableMessage``: the worker abandons it with
/// one log line that names what to configure, rather than retrying it forever.
///
/// ```swift
/// let router = ChannelRouter(routes: ["email": DevelopmentLogTransport(log: log), "sms": webhook])
/// router.delivers(channel: "sms")   // true
/// ```
public struct ChannelRouter: MessageTransport {
    /// The transport of each channel.
    public let routes: [String: any MessageTransport]

    /// Creates a router.
    /// - Parameter routes: the transport of each channel (`email`, `sms`).
    public init(routes: [String: any MessageTransport]) {
        self.routes = routes
    }

    public func deliver(_ message: OutboxMessage) throws {
        guard let transport = routes[message.channel] else {
            throw UndeliverableMessage(Self.remedy(forChannel: message.channel))
        }
        try transport.deliver(message)
    }

    public func delivers(channel: String) -> Bool {
        routes[channel]?.delivers(channel: channel) ?? false
    }

    /// What is missing for `channel`, naming the options that supply it.
    static func remedy(forChannel channel: String) -> String {
        switch channel {
        case "sms":
            "no SMS delivery configured: set --sms-webhook-url and --sms-webhook-secret-file "
                + "(LATCH_SMS_WEBHOOK_URL, LATCH_SMS_WEBHOOK_SECRET_FILE), or run with --dev to log SMS codes"
        case "email":
            "no e-mail delivery configured: set --smtp-url (LATCH_SMTP_URL), or run with --dev to log e-mail codes"
        default:
            "no transport delivers channel '\(channel)'"
        }
    }
}
