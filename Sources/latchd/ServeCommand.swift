import Dispatch
import Foundation
import LatchServer

/// `latchd serve`: runs the server until SIGINT or SIGTERM, then drains in-flight requests.
enum ServeCommand {
    static func run(_ options: ServeOptions) throws -> Int32 {
        var configuration = LatchServerConfiguration()
        try configuration.apply(configFile: options.configFile, environment: ProcessInfo.processInfo.environment)
        if let format = options.logFormat {
            configuration.log = .standardError(format: format == .json ? .json : .text)
        }
        if let listen = options.listen { try configuration.setListen(listen) }
        if let adminListen = options.adminListen { configuration.adminListen = adminListen }
        if let directory = options.dataDirectory { configuration.dataDirectory = directory }
        if let url = options.databaseURL { configuration.storeLocation = try StoreLocation(databaseURL: url) }
        if let connections = options.databaseConnections { configuration.databaseConnections = connections }
        if let url = options.publicURL { configuration.publicURL = url }
        if options.development || options.emulator { configuration.development = true }
        if let threads = options.httpThreads { configuration.httpThreads = threads }
        if !options.trustedProxies.isEmpty { configuration.trustedProxies = options.trustedProxies }
        if let url = options.smsWebhookURL { configuration.smsWebhookURL = url }
        if let path = options.smsWebhookSecretFile { configuration.smsWebhookSecretFile = path }
        if let attempts = options.outboxMaxAttempts { configuration.outboxRetry.maximumAttempts = attempts }
        if let seconds = options.outboxRetryBaseSeconds { configuration.outboxRetry.firstDelay = TimeInterval(seconds) }
        if let url = options.smtpURL { configuration.smtpURL = url }
        if let path = options.smtpPasswordFile { configuration.smtpPasswordFile = path }
        if let value = options.smtpStartTLS { try configuration.setSMTPStartTLS(value) }
        if let from = options.smtpFrom { configuration.smtpFrom = from }
        if let path = options.smtpCertificateAuthorityFile { configuration.smtpCertificateAuthorityFile = path }
        try applyConnectionLimits(options, to: &configuration)
        if options.durability == .normal { configuration.durable = false }
        if options.emulator { configuration.emulator = true }
        if let certificate = options.tlsCertificateFile, let key = options.tlsKeyFile {
            configuration.tls = .files(certificate: certificate, key: key)
        } else if options.tls {
            guard configuration.development else {
                throw UsageError(
                    "option '--tls': without --tls-cert and --tls-key it needs --dev (a local development CA)")
            }
            configuration.tls = .development
        }

        let app = try LatchServerApp(configuration: configuration)
        try app.start()
        if configuration.log.format == .json {
            for line in app.banner().split(separator: "\n") {
                configuration.log.info(line.trimmingCharacters(in: .whitespaces))
            }
        } else {
            FileHandleOutput.standardError(app.banner() + "\n")
        }

        let stop = DispatchSemaphore(value: 0)
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let queue = DispatchQueue(label: "latchd.signals")
        var sources = [SIGINT, SIGTERM].map { number -> any DispatchSourceSignal in
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { stop.signal() }
            source.resume()
            return source
        }
        // SIGHUP re-reads the certificate and key; a bad pair is refused and the old one keeps serving.
        signal(SIGHUP, SIG_IGN)
        let reload = DispatchSource.makeSignalSource(signal: SIGHUP, queue: queue)
        reload.setEventHandler { [log = configuration.log] in
            guard configuration.tls != nil else {
                log.warning("SIGHUP: not serving HTTPS, nothing to reload")
                return
            }
            do {
                try app.reloadCertificate()
                log.info("SIGHUP: certificate reloaded; new connections use it")
            } catch {
                log.error("SIGHUP: certificate not reloaded, the previous one keeps serving", [("error", "\(error)")])
            }
        }
        reload.resume()
        sources.append(reload)
        stop.wait()
        configuration.log.info("shutting down: finishing in-flight requests")
        app.shutdown(timeout: 10)
        sources.forEach { $0.cancel() }
        configuration.log.info("stopped")
        return 0
    }

    /// Applies the connection flags over the config file and the environment. A per-address limit
    /// above the total is lowered to it, unless `--max-connections-per-ip` asked for it.
    /// - Throws: ``UsageError`` naming `--max-connections-per-ip` when it exceeds the total in force.
    private static func applyConnectionLimits(_ options: ServeOptions, to configuration: inout LatchServerConfiguration)
        throws
    {
        if let total = options.maxConnections { configuration.maxConnections = total }
        if let perAddress = options.maxConnectionsPerAddress { configuration.maxConnectionsPerAddress = perAddress }
        if let seconds = options.headerTimeoutSeconds { configuration.headerTimeoutSeconds = seconds }
        if let seconds = options.idleTimeoutSeconds { configuration.idleTimeoutSeconds = seconds }
        let perAddress = configuration.maxConnectionsPerAddress
        let total = configuration.maxConnections
        do {
            try configuration.fitConnectionsPerAddress(explicitly: options.maxConnectionsPerAddress != nil)
        } catch {
            throw UsageError("option '--max-connections-per-ip' (\(perAddress)) must not exceed the connection limit (\(total))")
        }
    }
}
