import Foundation
import LatchCrypto
import LatchCurl

/// How to run a server: where it listens, where it keeps data, and its policies. Defaults match
/// `latchd serve` with no flags.
public struct LatchServerConfiguration: Sendable {
    /// Listen address.
    public var host: String = "127.0.0.1"
    /// Listen port; 0 picks a free one.
    public var port: Int = 8080
    /// A separate listener (plain HTTP, meant for loopback or a private network) for the admin
    /// endpoints and `/metrics`, which then leave the public listener; `nil` keeps them there.
    public var adminListen: ListenAddress?
    /// Where the database, master key and admin token live.
    public var dataDirectory: String = "./latch-data"
    /// The public origin used in `iss` and discovery; `nil` derives it from the served scheme and
    /// the listen address.
    public var publicURL: String?
    /// HTTPS (TLS 1.2 and 1.3 through libmicrohttpd and GnuTLS); `nil` serves plain HTTP, which is
    /// meant for loopback.
    public var tls: TLSSource?
    /// Development mode: the `latch-dev` client exists and the outbox is logged.
    public var development: Bool = false
    /// Firebase emulator mode (`latchd serve --emulator`, `reference/firebase-auth-protocol.md` §§ 6, 7):
    /// `signInWithCustomToken` also accepts unsigned (`alg: none`) custom tokens, as firebase-admin
    /// makes them against the Auth emulator; `Authorization: Bearer owner` is an administrator on
    /// the account-administration calls; and the `/emulator/v1/…` endpoints are served without
    /// credentials. Off by default; never for a server others can reach.
    public var emulator: Bool = false
    /// `true` answers a write only after it is synced to disk; `false` is crash-safe only.
    public var durable: Bool = true
    /// Argon2id parameters for new password hashes.
    public var passwordHashing = Argon2idHasher.Parameters()
    /// The password hasher; `nil` uses Argon2id with ``passwordHashing``.
    public var passwordHasher: (any PasswordHasher)?
    /// Where the store is: the data directory's SQLite file (the default) or PostgreSQL
    /// (`database_url`, `--database-url`, `LATCH_DATABASE_URL`).
    public var storeLocation: StoreLocation = .sqlite
    /// The most PostgreSQL connections this instance opens (`database_connections`).
    public var databaseConnections: Int = 16
    /// Opens the store; `nil` opens the one ``storeLocation`` names.
    public var storeFactory: (@Sendable (DataDirectory) throws -> any Store)?
    /// Worker threads of the HTTP server; `nil` picks a default from the core count.
    public var httpThreads: Int?
    /// Largest accepted request body in bytes.
    public var maxBodyBytes: Int = 64 * 1024
    /// The most simultaneous HTTP connections (`max_connections`, `--max-connections`); lowered at
    /// start if the process may not open that many files (see
    /// ``LatchHTTP/HTTPServerConfiguration/connectionLimit``).
    public var maxConnections: Int = 4096
    /// The most simultaneous HTTP connections from one IP address (`max_connections_per_ip`,
    /// `--max-connections-per-ip`), at most ``maxConnections``. Behind a reverse proxy every
    /// client shares the proxy's address, so raise it to what the proxy may open.
    public var maxConnectionsPerAddress: Int = 64
    /// Seconds a client has to send a request, head and body (`header_timeout`, `--header-timeout`):
    /// a deadline against clients that send slowly or stop half-way (slowloris).
    public var headerTimeoutSeconds: Int = 10
    /// Seconds a connection may stay silent, kept alive between requests or otherwise
    /// (`idle_timeout`, `--idle-timeout`).
    public var idleTimeoutSeconds: Int = 30
    /// Reverse proxies whose `Forwarded` / `X-Forwarded-For` headers name the client
    /// (`trusted_proxy`, comma-separated, or repeated `--trusted-proxy CIDR`); empty, the default,
    /// ignores those headers and counts every request by its socket address.
    public var trustedProxies: [AddressRange] = []
    /// The clock every expiry decision uses.
    public var clock: any ServerClock = SystemClock()
    /// Where log lines go.
    public var log: ServerLog = .standardError
    /// Delivery of outbox messages; `nil` uses the development log under `development`, else none
    /// (messages are then abandoned, see ``messageTransport(log:webhook:)``). SMS messages go to
    /// the SMS webhook instead when one is configured (``smsWebhookURL``).
    public var transport: (any MessageTransport)?
    /// Where SMS messages are POSTed, signed (`sms_webhook_url`, `--sms-webhook-url`; see
    /// ``WebhookSMSTransport``): an `http` or `https` URL, given together with
    /// ``smsWebhookSecretFile``. `nil` logs SMS messages under `development`, and otherwise
    /// abandons them.
    public var smsWebhookURL: String?
    /// The file holding the SMS webhook's shared secret (`sms_webhook_secret_file`,
    /// `--sms-webhook-secret-file`), read at start; surrounding whitespace is not part of it.
    public var smsWebhookSecretFile: String?
    /// The SMTP server e-mail goes to (`smtp_url`, `--smtp-url`, `LATCH_SMTP_URL`):
    /// `smtp://[user@]host[:port]` or `smtps://[user@]host[:port]`, never with a password (see
    /// ``smtpTransportSettings()``). `nil` logs e-mail under `development` and otherwise abandons it.
    public var smtpURL: String?
    /// The SMTP password itself (`smtp_password`, `LATCH_SMTP_PASSWORD`).
    public var smtpPassword: String?
    /// A file holding the SMTP password (`smtp_password_file`, `--smtp-password-file`).
    public var smtpPasswordFile: String?
    /// STARTTLS for `smtp://` (`smtp_starttls`, `--smtp-starttls required|opportunistic|off`);
    /// required by default.
    public var smtpSecurity: SMTPTransportSecurity = .startTLSRequired
    /// The default sender (`smtp_from`, `--smtp-from`), `addr` or `Name <addr>`; `nil` is
    /// `no-reply@` the host of ``publicURL`` (`no-reply@localhost` without one).
    public var smtpFrom: String?
    /// A PEM file of certificate authorities the SMTP server's certificate is checked against
    /// (`smtp_ca_file`, `--smtp-ca-file`); `nil` trusts the system's.
    public var smtpCertificateAuthorityFile: String?
    /// When failed deliveries are tried again and when they are abandoned; `outbox_max_attempts`
    /// (`--outbox-max-attempts`) sets ``OutboxRetryPolicy/maximumAttempts`` and
    /// `outbox_retry_base_seconds` (`--outbox-retry-base-seconds`) ``OutboxRetryPolicy/firstDelay``.
    public var outboxRetry = OutboxRetryPolicy()
    /// Sees every routed request first and may answer it instead (fault injection in tests);
    /// `nil`, the default and the only production setting, adds no work per request.
    public var interceptor: (any RequestInterceptor)?

    /// The defaults.
    public init() {}

    /// Reads overrides from a JSON config file, then from `LATCH_*` environment variables.
    public mutating func apply(configFile path: String?, environment: [String: String]) throws {
        if let path {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw ConfigurationError("config file \(path) must hold a JSON object")
            }
            try apply(values: object.mapValues { "\($0)" })
        }
        var fromEnvironment: [String: String] = [:]
        for (key, value) in environment where key.hasPrefix("LATCH_") {
            fromEnvironment[key.dropFirst(6).lowercased()] = value
        }
        try apply(values: fromEnvironment)
    }

    private mutating func apply(values: [String: String]) throws {
        for (key, value) in values {
            switch key {
            case "listen":
                try setListen(value)
            case "admin_listen": adminListen = try ListenAddress(parsing: value, option: "admin_listen")
            case "data_dir", "data_directory": dataDirectory = value
            case "database_url": storeLocation = try StoreLocation(databaseURL: value)
            case "database_connections": databaseConnections = try integer(key, value)
            case "public_url": publicURL = value
            case "dev", "development": development = ["1", "true", "yes"].contains(value.lowercased())
            case "durable": durable = !["0", "false", "no"].contains(value.lowercased())
            case "argon2_memory_kib": passwordHashing.memoryKiB = try integer(key, value)
            case "argon2_iterations": passwordHashing.iterations = try integer(key, value)
            case "argon2_parallelism": passwordHashing.parallelism = try integer(key, value)
            case "http_threads": httpThreads = try integer(key, value)
            case "max_body_bytes": maxBodyBytes = try integer(key, value)
            case "max_connections": maxConnections = try integer(key, value)
            case "max_connections_per_ip": maxConnectionsPerAddress = try integer(key, value)
            case "header_timeout": headerTimeoutSeconds = try integer(key, value)
            case "idle_timeout": idleTimeoutSeconds = try integer(key, value)
            case "sms_webhook_url": smsWebhookURL = value
            case "sms_webhook_secret_file": smsWebhookSecretFile = value
            case "outbox_max_attempts": outboxRetry.maximumAttempts = try integer(key, value)
            case "outbox_retry_base_seconds": outboxRetry.firstDelay = TimeInterval(try integer(key, value))
            case "smtp_url": smtpURL = value
            case "smtp_password": smtpPassword = value
            case "smtp_password_file": smtpPasswordFile = value
            case "smtp_starttls": smtpSecurity = try SMTPTransportSecurity.starttls(value, option: "smtp_starttls")
            case "smtp_from": smtpFrom = value
            case "smtp_ca_file": smtpCertificateAuthorityFile = value
            case "trusted_proxy", "trusted_proxies":
                trustedProxies = try value.split(separator: ",").map { item in
                    let text = item.trimmingCharacters(in: .whitespaces)
                    guard let range = AddressRange(text) else {
                        throw ConfigurationError("trusted_proxy must be an address or CIDR prefix, not '\(text)'")
                    }
                    return range
                }
            case "log_format":
                guard let format = ServerLog.Format(rawValue: value) else {
                    throw ConfigurationError("log_format is 'text' or 'json', not '\(value)'")
                }
                log = .standardError(format: format)
            default: continue
            }
        }
        try fitConnectionsPerAddress(explicitly: values["max_connections_per_ip"] != nil)
    }

    /// Keeps ``maxConnectionsPerAddress`` within ``maxConnections``: lowered to it when the total
    /// was set below the per-address limit, an error when both were given (`explicitly`).
    /// - Throws: ``ConfigurationError`` naming the two keys.
    public mutating func fitConnectionsPerAddress(explicitly: Bool) throws {
        guard maxConnectionsPerAddress > maxConnections else { return }
        guard !explicitly else {
            throw ConfigurationError(
                "max_connections_per_ip (\(maxConnectionsPerAddress)) must not exceed max_connections (\(maxConnections))")
        }
        maxConnectionsPerAddress = maxConnections
    }

    /// Parses `HOST:PORT`.
    public mutating func setListen(_ value: String) throws {
        guard let colon = value.lastIndex(of: ":"), let port = Int(value[value.index(after: colon)...]),
            (0...65535).contains(port)
        else { throw ConfigurationError("--listen expects HOST:PORT, got '\(value)'") }
        host = String(value[..<colon]).trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        self.port = port
    }

    private func integer(_ key: String, _ value: String) throws -> Int {
        guard let number = Int(value), number > 0 else { throw ConfigurationError("\(key) must be a positive integer") }
        return number
    }
}

/// A `HOST:PORT` to listen on.
public struct ListenAddress: Sendable, Equatable {
    /// The numeric address (brackets of an IPv6 literal removed).
    public var host: String
    /// The port; 0 picks a free one.
    public var port: Int

    /// Creates an address.
    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses `HOST:PORT` (`[::1]:9090` for IPv6).
    /// - Throws: ``ConfigurationError`` naming `option`.
    public init(parsing value: String, option: String) throws {
        guard let colon = value.lastIndex(of: ":"), let port = Int(value[value.index(after: colon)...]),
            (0...65535).contains(port), colon != value.startIndex
        else { throw ConfigurationError("\(option) expects HOST:PORT, got '\(value)'") }
        host = String(value[..<colon]).trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        self.port = port
    }
}

/// A configuration mistake, reported to the operator verbatim.
public struct ConfigurationError: Error, CustomStringConvertible {
    /// What is wrong.
    public let description: String
    init(_ description: String) { self.description = description }
}
