import Foundation

extension LatchConfiguration {
    /// Creates a configuration from ``LatchSettings`` (a file, `Latch.plist`, the environment),
    /// with production defaults for everything the settings do not name.
    /// - Throws: ``LatchError/Code/invalidConfiguration`` when the settings name no server or no
    ///   client id, or their server is not a valid URL (see ``LatchSettings/resolvedServer()``).
    public init(
        settings: LatchSettings, credentialStore: (any CredentialStore)? = nil, retryPolicy: RetryPolicy = .default,
        logger: LatchLogger = .silent, transport: HTTPTransport = .urlSession,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) throws {
        let (serverURL, tenant) = try settings.resolvedServer()
        guard let clientID = settings.clientID, !clientID.isEmpty else {
            throw LatchError.invalidConfiguration("No client id is configured; set \"client_id\" (or LATCH_CLIENT_ID).")
        }
        self.init(
            serverURL: serverURL, tenant: tenant, clientID: clientID, credentialStore: credentialStore,
            retryPolicy: retryPolicy, logger: logger, transport: transport, clock: clock)
        if let minimumValidity = settings.minimumValidity { self.minimumValidity = minimumValidity }
        apiKey = settings.apiKey
    }

    /// A configuration from, in rising precedence, `Latch.plist` in `bundle`, the JSON or property
    /// list file at `file`, and the `LATCH_*` variables of `environment`.
    /// - Throws: ``LatchError/Code/invalidConfiguration`` for an unreadable or malformed source, or
    ///   settings that name no server or client id.
    public static func load(
        bundle: Bundle? = .main, file: String? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        credentialStore: (any CredentialStore)? = nil
    ) throws -> LatchConfiguration {
        var settings = try bundle.map { try LatchSettings.bundled(in: $0) } ?? LatchSettings()
        if let file { settings = settings.overriding(try LatchSettings.contentsOfFile(file)) }
        settings = settings.overriding(try LatchSettings.environment(environment))
        return try LatchConfiguration(settings: settings, credentialStore: credentialStore)
    }
}
