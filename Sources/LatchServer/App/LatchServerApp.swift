import Foundation
import LatchCrypto
import LatchHTTP
internal import LatchLocking

/// A running Latch server: the composition root that opens the data directory and store, wires the
/// domain services, adapters and HTTP server, and starts the outbox worker.
public final class LatchServerApp: Sendable {
    /// The configuration it was started with.
    public let configuration: LatchServerConfiguration
    /// The domain services (for admin commands and tests).
    public let services: AuthServices
    /// The metrics registry.
    public let metrics: Metrics
    /// The root admin bearer token (`admin.token`), which opens every tenant's admin endpoints.
    public let adminToken: String
    /// The data directory.
    public let dataDirectory: DataDirectory

    private let store: any Store
    private let http: HTTPServer
    /// The admin listener (admin endpoints and `/metrics`), when configured.
    private let adminHTTP: HTTPServer?
    private let responder: any HTTPResponder
    /// The configured public origin without trailing slashes, so `iss` and discovery URLs never hold `//`.
    private let publicURL: String?
    private let worker: OutboxWorker
    private let drainFlag: DrainFlag
    /// `https` when serving TLS, else `http`.
    public let scheme: String
    /// The development CA a client must trust, under `--dev --tls`.
    public let certificateAuthorityPath: String?
    /// Where SMS messages go when a webhook is configured (`SMS webhook at https://host:port`).
    private let smsWebhook: String?
    /// Where e-mail goes when an SMTP server is configured.
    private let smtpDescription: String?

    /// Opens the data directory and store, creating the `default` tenant (and, in development, the
    /// `latch-dev` client) on first start.
    public init(configuration: LatchServerConfiguration) throws {
        self.configuration = configuration
        // Checked before anything is created, so a mistake leaves no data directory behind.
        let webhook = try configuration.smsWebhookTransport()
        smsWebhook = webhook?.description
        let smtp = try configuration.smtpTransportSettings()
        let publicURL = configuration.publicURL.map(LatchServerApp.origin(trimming:))
        self.publicURL = publicURL
        let directory = try DataDirectory(path: configuration.dataDirectory)
        dataDirectory = directory
        let tls = try configuration.tls.map { try TLSMaterial.load($0, directory: directory) }
        let scheme = tls == nil ? "http" : "https"
        self.scheme = scheme
        certificateAuthorityPath = tls?.certificateAuthorityPath
        let store =
            try configuration.storeFactory?(directory)
            ?? configuration.storeLocation.open(
                directory: directory, durable: configuration.durable, connections: configuration.databaseConnections)
        self.store = store
        adminToken = try directory.adminToken()
        let metrics = Metrics()
        self.metrics = metrics
        if let postgres = store as? PostgresStore { metrics.setStorePool { postgres.poolStatistics } }
        let log = configuration.log
        let email = smtp.map { settings in
            SMTPEmailTransport(
                client: settings.client, defaultSender: settings.sender,
                tenant: { id in try store.read { try $0.tenant(id: id) } })
        }
        smtpDescription = email.map { "\($0) from \($0.defaultSender.headerValue())" }
        let transport = configuration.messageTransport(log: log, webhook: webhook, email: email)
        let aggregator = AuditAggregator()
        let masterKey = try directory.masterKey()
        let worker = OutboxWorker(
            store: store, sealer: try MessageSealer(masterKey: masterKey), clock: configuration.clock, transport: transport,
            redactDelivered: !configuration.development, retryPolicy: configuration.outboxRetry, log: log,
            auditAggregator: aggregator)
        self.worker = worker
        let services = try AuthServices(
            store: store, clock: configuration.clock, masterKey: masterKey,
            baseURL: publicURL ?? "\(scheme)://\(Self.hostForURL(configuration.host)):\(configuration.port)",
            hasher: configuration.passwordHasher
                ?? Argon2idHasher(parameters: configuration.passwordHashing, gate: Self.passwordGate(for: configuration)),
            deliverable: Set(DeliveryChannel.allCases.filter { transport.delivers(channel: $0.rawValue) }),
            auditAggregator: aggregator, outboxChanged: { worker.notify() },
            signInObserved: { metrics.record(signIn: $0) }, emulator: configuration.emulator)
        self.services = services
        if try store.read({ try $0.tenant(named: "default") }) == nil {
            try services.admin.createTenant(name: "default")
        }
        if configuration.development { try services.admin.ensureDevelopmentDefaults() }

        var router = Router()
        router.errorLog = { line in log.error(line) }
        router.errorMapping = { StoreOutage.httpError(for: $0) }
        router.fallbackRenderer = OAuthRenderer()
        NativeAuthAPI(services: services, renderer: NativeAuthRenderer(clock: configuration.clock), log: log)
            .register(in: &router)
        OAuthAPI(services: services, log: log).register(in: &router)
        HostedPagesAPI(services: services, log: log).register(in: &router)
        FirebaseAPI(services: services, renderer: FirebaseRenderer(), log: log).register(in: &router)
        let authenticator = AdminAuthenticator(store: store, clock: configuration.clock, rootToken: adminToken)
        FirebaseAdminAPI(services: services, authenticator: authenticator, emulator: configuration.emulator, log: log)
            .register(in: &router)
        if configuration.emulator { FirebaseEmulatorAPI(services: services, log: log).register(in: &router) }
        ActionPageAPI(services: services, log: log).register(in: &router)
        let admin = AdminAPI(
            services: services, authenticator: authenticator, revealCodes: configuration.development, log: log)
        let box = DrainFlag()
        var operations = OperationsAPI(services: services, metrics: metrics, isDraining: { box.isSet })
        drainFlag = box
        let observe: @Sendable (RouteObservation) -> Void = { observation in
            metrics.record(
                route: observation.route ?? (observation.response.status == 404 ? "unmatched" : "refused"),
                method: Metrics.methodLabel(observation.request.method), status: observation.response.status,
                seconds: observation.seconds)
            AccessLog.record(observation, in: log)
        }
        if let adminListen = configuration.adminListen {
            // Admin endpoints and /metrics move to their own listener; probes answer on both.
            var adminRouter = Router()
            adminRouter.errorLog = { line in log.error(line) }
            adminRouter.errorMapping = { StoreOutage.httpError(for: $0) }
            adminRouter.fallbackRenderer = AdminRenderer()
            admin.register(in: &adminRouter)
            operations.register(in: &adminRouter)
            adminRouter.observer = observe
            var adminConfiguration = HTTPServerConfiguration()
            adminConfiguration.host = adminListen.host
            adminConfiguration.port = adminListen.port
            adminConfiguration.threadCount = 2
            adminConfiguration.errorLog = { line in log.error(line) }
            adminHTTP = HTTPServer(configuration: adminConfiguration, responder: adminRouter)
            operations.servesMetrics = false
        } else {
            admin.register(in: &router)
            adminHTTP = nil
        }
        operations.register(in: &router)
        router.observer = observe
        if let interceptor = configuration.interceptor {
            router.interceptor = { request in InterceptorBridge.answer(request, by: interceptor) }
        }
        let resolved: any HTTPResponder =
            configuration.trustedProxies.isEmpty
            ? router : ClientAddressResolver(trusted: configuration.trustedProxies, next: router)
        responder = resolved
        var httpConfiguration = HTTPServerConfiguration()
        httpConfiguration.host = configuration.host
        httpConfiguration.port = configuration.port
        httpConfiguration.maxBodyBytes = configuration.maxBodyBytes
        httpConfiguration.connectionLimit = configuration.maxConnections
        httpConfiguration.perAddressConnectionLimit = min(configuration.maxConnectionsPerAddress, configuration.maxConnections)
        httpConfiguration.headerTimeoutSeconds = configuration.headerTimeoutSeconds
        httpConfiguration.idleTimeoutSeconds = configuration.idleTimeoutSeconds
        if let threads = configuration.httpThreads { httpConfiguration.threadCount = threads }
        httpConfiguration.errorLog = { line in log.error(line) }
        if let tls {
            httpConfiguration.tls = HTTPServerConfiguration.TLS(
                certificateChainPEM: tls.certificateChainPEM, privateKeyPEM: tls.privateKeyPEM)
        }
        let http = HTTPServer(configuration: httpConfiguration, responder: resolved)
        self.http = http
        metrics.setConnectionEndings {
            Dictionary(uniqueKeysWithValues: http.abnormalConnectionEndings.map { ($0.key.name, $0.value) })
        }
    }

    /// The server's own Argon2 gate: one slot per core, shared fairly between client addresses,
    /// with 64 waiting places per core, but at least as many as one address may have connections
    /// (each with a request in flight), so an address alone is never refused.
    private static func passwordGate(for configuration: LatchServerConfiguration) -> Argon2Gate {
        let slots = ProcessInfo.processInfo.activeProcessorCount
        return Argon2Gate(slots: slots, maximumWaiters: max(64 * slots, configuration.maxConnectionsPerAddress))
    }

    /// Answers `request` as the listening server would, without a socket: the in-process mode of
    /// `LatchTesting`. The request goes through the same interceptor, router, renderers and metrics.
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        responder.respond(to: request)
    }

    /// Starts delivering and, unless `listening` is `false` (the in-process mode of tests, where
    /// ``respond(to:)`` is the only way in), listening.
    public func start(listening: Bool = true) throws {
        if listening {
            try http.start()
            do {
                try adminHTTP?.start()
            } catch {
                http.shutdown(timeout: 0)
                throw error
            }
            if publicURL == nil {
                services.tokens.setBaseURL("\(scheme)://\(Self.hostForURL(configuration.host)):\(http.port)")
            }
            if let warning = exposureWarning { configuration.log.warning(warning) }
        }
        worker.start()
    }

    /// The admin listener's bound port, when one is configured and started.
    public var adminPort: Int? { adminHTTP?.port }

    /// The bound port.
    public var port: Int { http.port }

    /// The public origin, e.g. `http://127.0.0.1:8080`.
    public var baseURL: String {
        publicURL ?? "\(scheme)://\(Self.hostForURL(configuration.host)):\(port)"
    }

    /// `host` as it appears in a URL: IPv6 literals in brackets (RFC 3986 § 3.2.2).
    static func hostForURL(_ host: String) -> String { host.contains(":") ? "[\(host)]" : host }

    /// A loud warning when the server listens beyond loopback in plain HTTP and no `https` public
    /// URL says a TLS proxy sits in front: passwords and tokens would cross the network in the clear.
    var exposureWarning: String? {
        let loopback = ["127.0.0.1", "::1", "localhost"].contains(configuration.host) || configuration.host.hasPrefix("127.")
        guard !loopback, configuration.tls == nil, !(publicURL?.lowercased().hasPrefix("https://") ?? false) else {
            return nil
        }
        return "*** plain HTTP on \(configuration.host), which is not loopback: passwords and tokens cross the network "
            + "unencrypted. Serve HTTPS (--tls-cert/--tls-key) or put a TLS proxy in front and pass "
            + "--public-url https://... ***"
    }

    /// Re-reads the certificate and key (SIGHUP) and serves them to new connections; connections
    /// already open keep the old certificate until they close.
    /// - Throws: when the files cannot be read or do not form a usable pair; the old certificate
    ///   then keeps serving.
    public func reloadCertificate() throws {
        guard let source = configuration.tls else { return }
        let material = try TLSMaterial.load(source, directory: dataDirectory)
        try http.replaceCertificate(chainPEM: material.certificateChainPEM, privateKeyPEM: material.privateKeyPEM)
    }

    /// `url` without trailing slashes: `https://id.example.com/` becomes `https://id.example.com`.
    static func origin(trimming url: String) -> String {
        var trimmed = Substring(url)
        while trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        return String(trimmed)
    }

    /// Wakes the outbox worker to deliver what is due now, e.g. after a test moved its clock past
    /// a retry's backoff.
    public func deliverDueMessages() { worker.notify() }

    /// Stops accepting connections, lets in-flight requests finish, flushes the outbox and closes
    /// the store. Safe to call twice.
    public func shutdown(timeout: Double = 10) {
        drainFlag.set()
        adminHTTP?.shutdown(timeout: timeout)
        http.shutdown(timeout: timeout)
        worker.stop()
        store.close()
    }

    /// What `latchd serve` prints at start: URLs, client id, and where codes go.
    public func banner() -> String {
        let base = baseURL
        var lines = [
            "latchd listening on \(base)",
            "  discovery: \(base)/default/v2.0/.well-known/openid-configuration",
            "  jwks:      \(base)/default/discovery/v2.0/keys",
            "  token:     \(base)/default/oauth2/v2.0/token",
            "  data:      \(dataDirectory.path)",
        ]
        if configuration.storeFactory == nil, case .postgres = configuration.storeLocation {
            lines.append("  store:     \(configuration.storeLocation.description(directory: dataDirectory))")
        }
        if let adminHTTP, let adminListen = configuration.adminListen {
            lines.append(
                "  admin:     http://\(Self.hostForURL(adminListen.host)):\(adminHTTP.port) (admin endpoints and /metrics)")
        }
        if let certificateAuthorityPath {
            lines.append("  trust:     \(certificateAuthorityPath) (the development CA; e.g. latch --ca-file, curl --cacert)")
        }
        if let smsWebhook {
            lines.append("  sms:       \(smsWebhook) (signed with Latch-Signature; failures retried with backoff)")
        }
        if let smtpDescription {
            lines.append("  email:     \(smtpDescription) (failures retried with backoff; 5xx refusals abandoned)")
        }
        if configuration.emulator {
            lines.append("  EMULATOR MODE: Firebase Auth emulator endpoints are on (/emulator/v1/…); UNSIGNED custom")
            lines.append("    tokens are accepted and `Authorization: Bearer owner` is an administrator. Never expose it.")
            lines.append("    firebase-admin: FIREBASE_AUTH_EMULATOR_HOST=\(base.replacingOccurrences(of: "http://", with: ""))")
        }
        if configuration.development {
            lines.append("  dev client id: latch-dev (tenant: default)")
            lines.append("  one-time codes: logged here as 'outbox ... to=<address> code=<code>', and `latchd outbox --dev`")
        } else if smtpDescription != nil {
            lines.append("  one-time codes: e-mailed over SMTP")
        } else {
            lines.append(
                "  one-time codes: NO DELIVERY CONFIGURED: sign-up, code sign-in and password reset are refused "
                    + "(use --dev to log codes)")
        }
        return lines.joined(separator: "\n")
    }
}

/// Set once shutdown begins, so `/readyz` reports draining.
final class DrainFlag: Sendable {
    private let flag = Locked<Bool>(false)
    var isSet: Bool { flag.load() }
    func set() { flag.store(true) }
}
