import Foundation
import LatchCrypto
import LatchHTTP
import LatchServer

/// A real Latch server in the test process: a real SQLite database in a temporary directory (or a
/// fresh PostgreSQL database, when the run asks for it: ``LatchTestStore``), an
/// injectable ``TestClock`` and a readable outbox, reached over real HTTP on an ephemeral loopback
/// port (``Mode/live``) or by calling its responder directly (``Mode/inProcess``), which is faster
/// and needs no socket.
///
/// ```swift
/// let server = try LatchTestServer.start()
/// defer { server.stop() }
/// // point a client at server.baseURL, tenant "default", client "latch-dev"
/// let code = try server.latestCode(to: "ada@example.com")
///
/// let local = try LatchTestServer.start(mode: .inProcess)
/// let answer = local.handle(method: "GET", target: "/default/v2.0/.well-known/openid-configuration")
/// ```
public final class LatchTestServer: Sendable {
    /// How tests reach the server.
    public enum Mode: Sendable {
        /// Real HTTP on an ephemeral loopback port: for the HTTP layer, the SDK and the CLI.
        case live
        /// No socket: requests go straight to the server's router, renderers and metrics. The
        /// HTTP layer's own limits (413, 431, connection caps) are not in play.
        case inProcess
    }

    /// How this server is reached.
    public let mode: Mode
    /// The running server.
    public let app: LatchServerApp
    /// The clock the server uses.
    public let clock: TestClock
    /// The temporary data directory, removed by ``stop()``.
    public let dataDirectory: String
    /// Fault injection and request counting, installed as the server's interceptor by ``start(configure:)``:
    /// `faults.inject(.tooManyRequests(retryAfter: "1"), on: "/oauth2/v2.0/token")`, `faults.clear()`,
    /// `faults.requestCount(path:)`.
    public let faults: FaultInjector

    /// The origin, e.g. `http://127.0.0.1:49152`.
    public var baseURL: String { app.baseURL }
    /// The development client id.
    public let clientID = "latch-dev"
    /// The default tenant name.
    public let tenant = "default"

    /// The configuration the server started with, for ``startAgain()``.
    private let configuration: LatchServerConfiguration
    /// The port bound at start (``Mode/live``), kept for ``startAgain()``.
    private let boundPort: Int

    private init(
        app: LatchServerApp, mode: Mode, clock: TestClock, dataDirectory: String, faults: FaultInjector,
        configuration: LatchServerConfiguration
    ) {
        self.app = app
        self.mode = mode
        self.clock = clock
        self.dataDirectory = dataDirectory
        self.faults = faults
        self.configuration = configuration
        boundPort = app.port
    }

    /// Starts a server in development mode with a fresh temporary database: listening on
    /// `127.0.0.1:0` (``Mode/live``), or not listening at all (``Mode/inProcess``, with the public
    /// origin `http://latch.test`).
    /// Argon2id runs at reduced cost (m=4 MiB, t=1) so suites stay fast; pass `configure` to change
    /// anything, including the parameters. ``faults`` is installed as the interceptor before
    /// `configure` runs; replacing `interceptor` there leaves ``faults`` unused.
    public static func start(mode: Mode = .live, configure: (inout LatchServerConfiguration) -> Void = { _ in }) throws
        -> LatchTestServer
    {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("latch-test-\(UUID().uuidString)").path
        let clock = TestClock()
        var configuration = LatchServerConfiguration()
        configuration.port = 0
        configuration.dataDirectory = directory
        configuration.storeLocation = try LatchTestStore.prepare(dataDirectory: directory)
        configuration.databaseConnections = 8
        configuration.development = true
        configuration.clock = clock
        configuration.log = .silent
        configuration.httpThreads = 4
        configuration.passwordHashing = Argon2idHasher.Parameters(memoryKiB: 4096, iterations: 1, parallelism: 1)
        let faults = FaultInjector(clock: clock)
        configuration.interceptor = faults
        if mode == .inProcess { configuration.publicURL = "http://latch.test" }
        configure(&configuration)
        let app = try LatchServerApp(configuration: configuration)
        try app.start(listening: mode == .live)
        return LatchTestServer(
            app: app, mode: mode, clock: clock, dataDirectory: directory, faults: faults, configuration: configuration)
    }

    /// Starts a new server on this one's data directory, port (``Mode/live``), clock and fault
    /// injector, after ``stop(keepingData:)`` with `keepingData: true`: the same server coming back
    /// after an outage, so a client that kept its URL reaches it again with the same accounts and
    /// sessions.
    ///
    /// ```swift
    /// server.stop(keepingData: true)      // clients now get connection refused
    /// let back = try server.startAgain()  // same URL, same users, same refresh tokens
    /// defer { back.stop() }
    /// ```
    public func startAgain() throws -> LatchTestServer {
        var configuration = configuration
        if mode == .live { configuration.port = boundPort }
        let app = try LatchServerApp(configuration: configuration)
        try app.start(listening: mode == .live)
        return LatchTestServer(
            app: app, mode: mode, clock: clock, dataDirectory: dataDirectory, faults: faults,
            configuration: configuration)
    }

    /// Answers a request without a socket, as the listening server would (either mode).
    /// - Parameters:
    ///   - target: the path with any query, e.g. `/default/oauth2/v2.0/token`.
    public func handle(
        method: String, target: String, headers: [(String, String)] = [], body: [UInt8] = [],
        remoteAddress: String = "127.0.0.1"
    ) -> InProcessResponse {
        let request = HTTPRequest(
            method: method.uppercased(), target: target, headers: HTTPHeaders(headers), body: body,
            remoteAddress: remoteAddress)
        let response = app.respond(to: request).addingTraceHeaders(for: request)
        var fields: [String: String] = [:]
        for field in response.headers {
            let name = field.name.lowercased()
            fields[name] = fields[name].map { $0 + ", " + field.value } ?? field.value
        }
        fields["content-length"] = String(response.body.count)
        return InProcessResponse(
            status: response.status, headers: fields, body: method.uppercased() == "HEAD" ? [] : response.body)
    }

    /// ``handle(method:target:headers:body:remoteAddress:)`` from async code: the request runs on a
    /// Dispatch thread, not on the caller's, so a test that sends many requests (each may wait on a
    /// disk write or a password hash) never holds one of Swift concurrency's few cooperative
    /// threads, which every other test running in parallel shares.
    public func send(
        method: String, target: String, headers: [(String, String)] = [], body: [UInt8] = [],
        remoteAddress: String = "127.0.0.1"
    ) async -> InProcessResponse {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(
                    returning: self.handle(
                        method: method, target: target, headers: headers, body: body, remoteAddress: remoteAddress))
            }
        }
    }

    /// Stops the server and deletes its data.
    public func stop() {
        stop(keepingData: false)
    }

    /// Stops the server; with `keepingData`, leaves its data directory for ``startAgain()`` (the
    /// restarted server's ``stop()`` deletes it).
    public func stop(keepingData: Bool) {
        app.shutdown(timeout: 5)
        guard !keepingData else { return }
        LatchTestStore.discard(dataDirectory: dataDirectory)
        try? FileManager.default.removeItem(atPath: dataDirectory)
    }

    /// Outbox messages to `recipient` in `tenant`, newest first.
    public func outbox(to recipient: String, tenant: String = "default") throws -> [OutboxMessage] {
        let tenant = try app.services.admin.tenant(named: tenant)
        return try app.services.admin.outbox(tenant: tenant, recipient: recipient, limit: 100)
    }

    /// The code of the newest message to `recipient`, if any.
    public func latestCode(to recipient: String, tenant: String = "default") throws -> String? {
        try outbox(to: recipient, tenant: tenant).first?.code
    }

    /// Creates a tenant with `settings` and a public client, returning the tenant name.
    @discardableResult
    public func createTenant(_ name: String, settings: TenantSettings, clientID: String = "latch-dev") throws -> String {
        let tenant = try app.services.admin.createTenant(name: name, settings: settings)
        try app.services.admin.createClient(tenant: tenant, id: clientID, name: clientID)
        return name
    }

    /// Changes the settings of `tenant` and applies them at once (the directory cache is cleared),
    /// e.g. `server.updateTenant { $0.rateLimits = .off }` for a test that drives one source hard.
    public func updateTenant(_ tenant: String = "default", _ change: (inout TenantSettings) -> Void) throws {
        try app.services.admin.updateTenant(named: tenant, change)
        app.services.directory.invalidate()
    }

    /// Creates a verified user in `tenant`.
    @discardableResult
    public func createUser(email: String, password: String?, tenant: String = "default") throws -> User {
        try app.services.admin.createUser(tenant: try app.services.admin.tenant(named: tenant), email: email, password: password)
    }
}
