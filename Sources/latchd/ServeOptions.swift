import LatchServer

/// The command line of `latchd serve`, parsed and checked before anything starts. ``ServeCommand``
/// applies it over the config file and the environment.
struct ServeOptions: Sendable {
    /// The values of `--durability`.
    enum Durability: String, Sendable {
        /// Answer a write only once it is on disk.
        case full
        /// Crash-safe, but the last commits may be lost on power loss.
        case normal
    }

    /// The values of `--log-format`.
    enum LogFormat: String, Sendable {
        /// One line of text per event.
        case text
        /// One JSON object per line.
        case json
    }

    /// `--listen HOST:PORT`, checked to be of that form.
    var listen: String?
    /// `--admin-listen HOST:PORT`: the separate listener for the admin endpoints and `/metrics`.
    var adminListen: ListenAddress?
    /// `--data-dir DIR`.
    var dataDirectory: String?
    /// `--config FILE`.
    var configFile: String?
    /// `--database-url URL`.
    var databaseURL: String?
    /// `--database-connections N`.
    var databaseConnections: Int?
    /// `--public-url URL`.
    var publicURL: String?
    /// `--durability full|normal`.
    var durability: Durability?
    /// `--http-threads N`, a positive number.
    var httpThreads: Int?
    /// `--max-connections N`, a positive number.
    var maxConnections: Int?
    /// `--max-connections-per-ip N`, a positive number no larger than ``maxConnections`` when both are given.
    var maxConnectionsPerAddress: Int?
    /// `--header-timeout SECONDS`, a positive number.
    var headerTimeoutSeconds: Int?
    /// `--idle-timeout SECONDS`, a positive number.
    var idleTimeoutSeconds: Int?
    /// `--trusted-proxy CIDR`, repeatable: proxies whose forwarding headers name the client.
    var trustedProxies: [AddressRange] = []
    /// `--dev`.
    var development = false
    /// `--emulator`: Firebase Auth emulator mode (its endpoints, unsigned custom tokens, `Bearer owner`); implies `--dev`.
    var emulator = false
    /// `--tls`: with `--dev`, serve HTTPS with the development CA in the data directory.
    var tls = false
    /// `--tls-cert FILE`: the PEM certificate chain to serve HTTPS with; given together with
    /// ``tlsKeyFile`` or not at all.
    var tlsCertificateFile: String?
    /// `--tls-key FILE`: the PEM private key of ``tlsCertificateFile``; given together with it or not at all.
    var tlsKeyFile: String?
    /// `--log-format text|json`; `nil` when not given (text).
    var logFormat: LogFormat?
    /// `--sms-webhook-url URL`, checked to be an `http` or `https` URL.
    var smsWebhookURL: String?
    /// `--sms-webhook-secret-file PATH`, read at start.
    var smsWebhookSecretFile: String?
    /// `--outbox-max-attempts N`, a positive number.
    var outboxMaxAttempts: Int?
    /// `--outbox-retry-base-seconds N`, a positive number: the wait after a first failed delivery.
    var outboxRetryBaseSeconds: Int?
    /// `--smtp-url URL`: `smtp://` or `smtps://`, checked at start.
    var smtpURL: String?
    /// `--smtp-password-file FILE`.
    var smtpPasswordFile: String?
    /// `--smtp-starttls required|opportunistic|off`, checked.
    var smtpStartTLS: String?
    /// `--smtp-from ADDRESS`.
    var smtpFrom: String?
    /// `--smtp-ca-file FILE`.
    var smtpCertificateAuthorityFile: String?

    /// The defaults: nothing given.
    init() {}

    /// Reads and checks the options of `arguments`.
    /// - Throws: ``UsageError`` naming the option with a malformed value, or the missing half of
    ///   `--tls-cert` / `--tls-key`.
    init(_ arguments: Arguments) throws {
        if let listen = arguments.value("listen") {
            var probe = LatchServerConfiguration()
            do {
                try probe.setListen(listen)
            } catch {
                throw UsageError("option '--listen' expects HOST:PORT, got '\(listen)'")
            }
            self.listen = listen
        }
        if let value = arguments.value("admin-listen") {
            do {
                adminListen = try ListenAddress(parsing: value, option: "--admin-listen")
            } catch {
                throw UsageError("option '--admin-listen' expects HOST:PORT, got '\(value)'")
            }
        }
        dataDirectory = arguments.value("data-dir")
        configFile = arguments.value("config")
        databaseURL = arguments.value("database-url")
        publicURL = arguments.value("public-url")
        if let value = arguments.value("durability") {
            guard let durability = Durability(rawValue: value) else {
                throw UsageError("option '--durability' is 'full' or 'normal', not '\(value)'")
            }
            self.durability = durability
        }
        httpThreads = try Self.positiveNumber("http-threads", in: arguments)
        databaseConnections = try Self.positiveNumber("database-connections", in: arguments)
        maxConnections = try Self.positiveNumber("max-connections", in: arguments)
        maxConnectionsPerAddress = try Self.positiveNumber("max-connections-per-ip", in: arguments)
        headerTimeoutSeconds = try Self.positiveNumber("header-timeout", in: arguments)
        idleTimeoutSeconds = try Self.positiveNumber("idle-timeout", in: arguments)
        if let perAddress = maxConnectionsPerAddress, let total = maxConnections, perAddress > total {
            throw UsageError("option '--max-connections-per-ip' (\(perAddress)) must not exceed --max-connections (\(total))")
        }
        trustedProxies = try arguments.values("trusted-proxy").map { value in
            guard let range = AddressRange(value) else {
                throw UsageError("option '--trusted-proxy' expects an address or CIDR prefix, not '\(value)'")
            }
            return range
        }
        development = arguments.flag("dev")
        emulator = arguments.flag("emulator")
        tls = arguments.flag("tls")
        tlsCertificateFile = arguments.value("tls-cert")
        tlsKeyFile = arguments.value("tls-key")
        switch (tlsCertificateFile, tlsKeyFile) {
        case (_?, nil): throw UsageError("option '--tls-cert' needs '--tls-key FILE' too")
        case (nil, _?): throw UsageError("option '--tls-key' needs '--tls-cert FILE' too")
        default: break
        }
        if let value = arguments.value("sms-webhook-url") {
            do {
                _ = try WebhookSMSTransport.endpoint(value)
            } catch {
                throw UsageError("option '--sms-webhook-url' expects an http:// or https:// URL with a host")
            }
            smsWebhookURL = value
        }
        smsWebhookSecretFile = arguments.value("sms-webhook-secret-file")
        outboxMaxAttempts = try Self.positiveNumber("outbox-max-attempts", in: arguments)
        outboxRetryBaseSeconds = try Self.positiveNumber("outbox-retry-base-seconds", in: arguments)
        smtpURL = arguments.value("smtp-url")
        smtpPasswordFile = arguments.value("smtp-password-file")
        if let value = arguments.value("smtp-starttls") {
            var probe = LatchServerConfiguration()
            do {
                try probe.setSMTPStartTLS(value)
                smtpStartTLS = value
            } catch {
                throw UsageError("option '--smtp-starttls' is required, opportunistic or off, not '\(value)'")
            }
        }
        if let value = arguments.value("smtp-from") {
            guard MailAddress(parsing: value) != nil else {
                throw UsageError("option '--smtp-from' expects addr@example.com or 'Name <addr@example.com>'")
            }
            smtpFrom = value
        }
        smtpCertificateAuthorityFile = arguments.value("smtp-ca-file")
        if let value = arguments.value("log-format") {
            guard let format = LogFormat(rawValue: value) else {
                throw UsageError("option '--log-format' is 'text' or 'json', not '\(value)'")
            }
            logFormat = format
        }
    }

    /// The value of `--name` as a positive whole number, or `nil` when not given.
    /// - Throws: ``UsageError`` naming the option when the value is anything else.
    private static func positiveNumber(_ name: String, in arguments: Arguments) throws -> Int? {
        guard let value = arguments.value(name) else { return nil }
        guard let number = Int(value), number > 0 else {
            throw UsageError("option '--\(name)' expects a positive number, not '\(value)'")
        }
        return number
    }
}
