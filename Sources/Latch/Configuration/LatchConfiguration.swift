import Foundation

/// Everything a ``LatchClient`` needs: where the server is, who the app is, what it can do, and the
/// injectable pieces (credential store, retry policy, logger, transport, clock).
public struct LatchConfiguration: Sendable {
    /// The server origin, e.g. `https://id.example.com`.
    public var serverURL: URL
    /// The tenant path segment; `default` on a development server.
    public var tenant: String
    /// The app's client id.
    public var clientID: String
    /// The challenge types the app can handle; `redirect` is always added (native-auth protocol).
    /// ``LatchClient/init(configuration:)`` refuses one outside ``ChallengeType/supported``.
    public var challengeTypes: [ChallengeType]
    /// Flows the app can finish natively beyond sign-in (``Capability/mfaRequired``,
    /// ``Capability/registrationRequired``), sent as `capabilities` when a flow starts;
    /// ``LatchClient/init(configuration:)`` refuses one outside ``Capability/supported``.
    public var capabilities: [Capability]
    /// Where tokens are kept.
    public var credentialStore: any CredentialStore
    /// Automatic retries.
    public var retryPolicy: RetryPolicy
    /// Diagnostics; silent by default.
    public var logger: LatchLogger
    /// How requests are sent.
    public var transport: HTTPTransport
    /// The current time (injectable for tests).
    public var clock: @Sendable () -> Date
    /// Scopes requested when a call names none.
    public var defaultScopes: [String]
    /// How often, in seconds, the credential store is checked for changes made elsewhere (another
    /// client or process sharing it signed in, refreshed or signed out) while anyone observes
    /// ``LatchClient/authStateChanges`` or ``LatchClient/authEvents``. Each check is one
    /// ``CredentialStore/revision()`` call; the store is read only when it changed.
    public var credentialStoreWatchInterval: TimeInterval = 1
    /// How long, in seconds, an access token must stay valid for ``LatchClient/acquireTokenSilent(scopes:account:forceRefresh:correlationID:)``
    /// to return it from the cache; one expiring sooner is refreshed first. Default 300 (5 minutes,
    /// as MSAL and Firebase use); `0` uses a token until it expires. Negative values are refused.
    public var minimumValidity: TimeInterval
    /// Headers added to every request the SDK sends, asked for before each one: the evidence a
    /// protection policy needs (``LatchError/Code/serverProtectionPoliciesRequired``), e.g.
    /// `["Latch-App-Attestation": "<registered key id>"]`. None by default. The SDK's own headers
    /// (`Content-Type`, `Accept`, `client-request-id`, …) are never replaced. A provider that
    /// throws fails the call before anything is sent: a ``LatchError`` as it is, any other error as
    /// ``LatchError/Code/internal``.
    ///
    /// ```swift
    /// configuration.requestHeaders = { ["Latch-App-Attestation": try await attestation.keyID()] }
    /// ```
    public var requestHeaders: @Sendable () async throws -> [String: String]
    /// The API key the Firebase-style account API (``LatchClient/firebase``) sends as `?key=` with
    /// every Identity Toolkit and securetoken request; `nil` until set (those calls then fail with
    /// ``LatchError/Code/invalidAPIKey`` before any request). Native auth does not use it.
    public var apiKey: String? = nil

    /// Creates a configuration with production defaults.
    public init(
        serverURL: URL, tenant: String = "default", clientID: String,
        challengeTypes: [ChallengeType] = [.oob, .password], capabilities: [Capability] = [],
        credentialStore: (any CredentialStore)? = nil, retryPolicy: RetryPolicy = .default,
        logger: LatchLogger = .silent, transport: HTTPTransport = .urlSession,
        clock: @escaping @Sendable () -> Date = { Date() }, defaultScopes: [String] = ["openid", "offline_access"],
        minimumValidity: TimeInterval = 300, requestHeaders: @escaping @Sendable () async throws -> [String: String] = { [:] }
    ) {
        self.serverURL = serverURL
        self.tenant = tenant
        self.clientID = clientID
        self.challengeTypes = challengeTypes
        self.capabilities = capabilities
        self.credentialStore = credentialStore ?? Self.platformCredentialStore()
        self.retryPolicy = retryPolicy
        self.logger = logger
        self.transport = transport
        self.clock = clock
        self.defaultScopes = defaultScopes
        self.minimumValidity = minimumValidity
        self.requestHeaders = requestHeaders
    }

    /// The platform's store: the Keychain on Apple platforms, the 0600 file elsewhere.
    public static func platformCredentialStore() -> any CredentialStore {
        #if canImport(Security)
            return KeychainCredentialStore()
        #else
            return FileCredentialStore()
        #endif
    }

    /// The `challenge_type` parameter: the configured types plus `redirect`.
    var challengeTypeParameter: String {
        (challengeTypes.filter { $0 != .redirect } + [.redirect]).map(\.rawValue).joined(separator: " ")
    }

    /// The `capabilities` parameter, or `nil` when empty.
    var capabilitiesParameter: String? {
        var seen = Set<Capability>()
        let unique = capabilities.filter { seen.insert($0).inserted }
        return unique.isEmpty ? nil : unique.map(\.rawValue).joined(separator: " ")
    }

    /// The server origin without a trailing slash, as stored with accounts.
    var serverKey: String {
        var text = serverURL.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }
}
