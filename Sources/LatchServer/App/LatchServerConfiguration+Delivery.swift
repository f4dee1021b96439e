/// How outbox messages leave the server, per channel.
extension LatchServerConfiguration {
    /// The SMS webhook transport, when ``smsWebhookURL`` is set, with its secret read from
    /// ``smsWebhookSecretFile``.
    /// - Throws: ``ConfigurationError`` when only one of the two is set, the URL is not `http` or
    ///   `https`, or the secret file is missing, unreadable or empty.
    public func smsWebhookTransport() throws -> WebhookSMSTransport? {
        switch (smsWebhookURL, smsWebhookSecretFile) {
        case (nil, nil):
            return nil
        case (_?, nil):
            throw ConfigurationError(
                "--sms-webhook-url needs --sms-webhook-secret-file PATH (LATCH_SMS_WEBHOOK_SECRET_FILE), "
                    + "the shared secret that signs each request")
        case (nil, _?):
            throw ConfigurationError("--sms-webhook-secret-file needs --sms-webhook-url URL (LATCH_SMS_WEBHOOK_URL)")
        case (let url?, let secretFile?):
            return WebhookSMSTransport(
                url: try WebhookSMSTransport.endpoint(url), secret: try WebhookSecret(contentsOfFile: secretFile),
                clock: clock)
        }
    }

    /// The transport the outbox worker delivers through: SMS to `webhook` (from
    /// ``smsWebhookTransport()``) when there is one; e-mail to `email` (SMTP, from
    /// ``smtpTransportSettings()``) when there is one, under ``development`` after the
    /// development log line; everything else to ``transport`` when set, else to the development
    /// log under ``development`` (SMS too, without a webhook). A message of a channel left without
    /// a transport is abandoned, with a log line naming what to set.
    public func messageTransport(
        log: ServerLog, webhook: WebhookSMSTransport?, email: (any MessageTransport)? = nil
    ) -> any MessageTransport {
        if let transport, webhook == nil, email == nil { return transport }
        var routes: [String: any MessageTransport] = [:]
        if let fallback = transport ?? (development ? DevelopmentLogTransport(log: log) : nil) {
            routes["email"] = fallback
            routes["sms"] = fallback
        }
        if let webhook { routes["sms"] = webhook }
        if let email {
            routes["email"] =
                development ? DevelopmentCopyTransport(log: DevelopmentLogTransport(log: log), transport: email) : email
        }
        return ChannelRouter(routes: routes)
    }
}
