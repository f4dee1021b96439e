import Foundation
import LatchCrypto
import LatchHTTP
import Synchronization

/// A running Latch server: the composition root that opens the data directory and store, wires the
/// domain services, adapters and HTTP server, and starts the outbox worker.
public final class LatchServerApp: Sendable {
    /// The configuration it was started with.
    public let configuration: LatchServerConfiguration
    /// The domain services (for admin commands and tests).
    public let services: AuthServices
    /// The metrics registry.
    public let metrics: Metrics
    /// The admin bearer token.
    public let adminToken: String
    /// The data directory.
    public let dataDirectory: DataDirectory

    private let store: any Store
    private let http: HTTPServer
    private let responder: any HTTPResponder
    /// The configured public origin without trailing slashes, so `iss` and discovery URLs never hold `//`.
    private let publicURL: String?
    private let worker: OutboxWorker
    private let drainFlag: DrainFlag

    /// Opens the data directory and store, creating the `default` tenant (and, in development, the
    /// `latch-dev` client) on first start.
    public init(configuration: LatchServerConfiguration) throws {
        self.configuration = configuration
        let publicURL = configuration.publicURL.map(LatchServerApp.origin(trimming:))
        self.publicURL = publicURL
        let directory = try DataDirectory(path: configuration.dataDirectory)
        dataDirectory = directory
        let store =
            try configuration.storeFactory?(directory)
            ?? SQLiteStore(path: directory.databasePath, durable: configuration.durable)
        self.store = store
        adminToken = try directory.adminToken()
        let metrics = Metrics()
        self.metrics = metrics
        let log = configuration.log
        let transport: (any MessageTransport)? =
            configuration.transport ?? (configuration.development ? DevelopmentLogTransport(log: log) : nil)
        let worker = OutboxWorker(
            store: store, clock: configuration.clock, transport: transport,
            redactDelivered: !configuration.development, log: log)
        self.worker = worker
        let services = AuthServices(
            store: store, clock: configuration.clock, masterKey: try directory.masterKey(),
            baseURL: publicURL ?? "http://\(configuration.host):\(configuration.port)",
            hasher: configuration.passwordHasher ?? Argon2idHasher(parameters: configuration.passwordHashing),
            outboxChanged: { worker.notify() }, signInObserved: { metrics.record(signIn: $0) })
        self.services = services
        if try store.read({ try $0.tenant(named: "default") }) == nil {
            try services.admin.createTenant(name: "default")
        }
        if configuration.development { try services.admin.ensureDevelopmentDefaults() }

        var router = Router()
        router.errorLog = { line in log.error(line) }
        router.fallbackRenderer = OAuthRenderer()
        NativeAuthAPI(services: services, renderer: NativeAuthRenderer(clock: configuration.clock), log: log)
            .register(in: &router)
        OAuthAPI(services: services, log: log).register(in: &router)
        AdminAPI(services: services, adminToken: adminToken, log: log).register(in: &router)
        let box = DrainFlag()
        OperationsAPI(services: services, metrics: metrics, isDraining: { box.isSet }).register(in: &router)
        drainFlag = box
        router.observer = { observation in
            metrics.record(
                route: observation.route ?? (observation.response.status == 404 ? "unmatched" : "refused"),
                method: Metrics.methodLabel(observation.request.method), status: observation.response.status,
                seconds: observation.seconds)
            AccessLog.record(observation, in: log)
        }
        if let interceptor = configuration.interceptor {
            router.interceptor = { request in InterceptorBridge.answer(request, by: interceptor) }
        }
        responder = router
        var httpConfiguration = HTTPServerConfiguration()
        httpConfiguration.host = configuration.host
        httpConfiguration.port = configuration.port
        httpConfiguration.maxBodyBytes = configuration.maxBodyBytes
        if let threads = configuration.httpThreads { httpConfiguration.threadCount = threads }
        httpConfiguration.errorLog = { line in log.error(line) }
        http = HTTPServer(configuration: httpConfiguration, responder: router)
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
            if publicURL == nil {
                let host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
                services.tokens.setBaseURL("http://\(host):\(http.port)")
            }
        }
        worker.start()
    }

    /// The bound port.
    public var port: Int { http.port }

    /// The public origin, e.g. `http://127.0.0.1:8080`.
    public var baseURL: String {
        publicURL ?? "http://\(configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host):\(port)"
    }

    /// `url` without trailing slashes: `https://id.example.com/` becomes `https://id.example.com`.
    static func origin(trimming url: String) -> String {
        var trimmed = Substring(url)
        while trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        return String(trimmed)
    }

    /// Stops accepting connections, lets in-flight requests finish, flushes the outbox and closes
    /// the store. Safe to call twice.
    public func shutdown(timeout: Double = 10) {
        drainFlag.set()
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
        if configuration.development {
            lines.append("  dev client id: latch-dev (tenant: default)")
            lines.append("  one-time codes: logged here as 'outbox ... to=<address> code=<code>', and `latchd outbox`")
        } else {
            lines.append("  one-time codes: no delivery configured; read them with `latchd outbox`")
        }
        return lines.joined(separator: "\n")
    }
}

/// Set once shutdown begins, so `/readyz` reports draining.
final class DrainFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    var isSet: Bool { flag.load(ordering: .relaxed) }
    func set() { flag.store(true, ordering: .relaxed) }
}
