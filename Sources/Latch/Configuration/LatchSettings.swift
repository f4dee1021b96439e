import Foundation

/// The settings of a ``LatchConfiguration`` that can live outside code: where the server is, the
/// tenant, the client id and the minimum validity of cached access tokens. The keys are those of
/// the `latch` command-line client:
///
/// | JSON file or `Latch.plist` | Environment               | Meaning                                   |
/// |----------------------------|---------------------------|-------------------------------------------|
/// | `server`                   | `LATCH_SERVER`            | the server origin, or the tenant URL      |
/// | `tenant`                   | `LATCH_TENANT`            | the tenant path segment                   |
/// | `client_id`                | `LATCH_CLIENT_ID`         | the app's client id                       |
/// | `minimum_validity`         | `LATCH_MINIMUM_VALIDITY`  | seconds, see ``LatchConfiguration/minimumValidity`` |
/// | `api_key`                  | `LATCH_API_KEY`           | see ``LatchConfiguration/apiKey``         |
///
/// Each source gives some of the values; ``overriding(_:)`` layers them, and
/// ``LatchConfiguration/init(settings:credentialStore:retryPolicy:logger:transport:clock:)`` turns
/// the result into a configuration. The `server` may be the tenant URL that `latchd` prints
/// (`http://127.0.0.1:8080/default`): see ``resolvedServer()``.
///
/// ```swift
/// let settings = try LatchSettings.bundled()
///     .overriding(LatchSettings.environment())
/// let client = try LatchClient(configuration: LatchConfiguration(settings: settings))
/// ```
public struct LatchSettings: Sendable, Equatable {
    /// The server origin (`https://id.example.com`) or a tenant URL (`https://id.example.com/default`).
    public var server: String?
    /// The tenant; when `nil`, the one a tenant URL in ``server`` names, else `default`.
    public var tenant: String?
    /// The app's client id.
    public var clientID: String?
    /// Seconds an access token must stay valid to be returned from the cache.
    public var minimumValidity: TimeInterval?
    /// The API key of the Firebase-style account API (``LatchConfiguration/apiKey``).
    public var apiKey: String?

    /// Creates settings with the given values; `nil` means "not set here".
    public init(
        server: String? = nil, tenant: String? = nil, clientID: String? = nil, minimumValidity: TimeInterval? = nil,
        apiKey: String? = nil
    ) {
        self.server = server
        self.tenant = tenant
        self.clientID = clientID
        self.minimumValidity = minimumValidity
        self.apiKey = apiKey
    }

    /// These settings with every value `other` sets replacing this one's.
    public func overriding(_ other: LatchSettings) -> LatchSettings {
        LatchSettings(
            server: other.server ?? server, tenant: other.tenant ?? tenant, clientID: other.clientID ?? clientID,
            minimumValidity: other.minimumValidity ?? minimumValidity, apiKey: other.apiKey ?? apiKey)
    }

    /// The server origin and tenant these settings name. A ``server`` whose path ends with the
    /// tenant (the tenant URL `latchd` prints) is split into the two; with no ``tenant`` set, the
    /// last path segment of the URL is the tenant. Any other path is kept as a prefix (a server
    /// behind a reverse proxy), so requests never go to `/default/default/…`.
    /// - Throws: ``LatchError/Code/invalidConfiguration`` when ``server`` is missing or not an
    ///   `http`/`https` URL with a host, or the tenant is empty or not a single path segment.
    public func resolvedServer() throws -> (serverURL: URL, tenant: String) {
        guard let server = server?.trimmingCharacters(in: .whitespacesAndNewlines), !server.isEmpty else {
            throw LatchError.invalidConfiguration(
                "No server is configured; set \"server\" (or LATCH_SERVER), e.g. http://127.0.0.1:8080.")
        }
        guard var components = URLComponents(string: server),
            let scheme = components.scheme?.lowercased(), ["http", "https"].contains(scheme),
            let host = components.host, !host.isEmpty, components.query == nil, components.fragment == nil
        else {
            throw LatchError.invalidConfiguration(
                "The server '\(server)' is not an http or https URL; expected e.g. http://127.0.0.1:8080.")
        }
        var segments = components.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        let tenant: String
        if let explicit = self.tenant {
            tenant = explicit
            if segments.last == explicit { segments.removeLast() }
        } else if let last = segments.popLast() {
            tenant = last
        } else {
            tenant = "default"
        }
        guard !tenant.isEmpty, !tenant.contains("/") else {
            throw LatchError.invalidConfiguration("The tenant '\(tenant)' must be one non-empty path segment.")
        }
        components.path = segments.isEmpty ? "" : "/" + segments.joined(separator: "/")
        guard let url = components.url else {
            throw LatchError.invalidConfiguration("The server '\(server)' is not a valid URL.")
        }
        return (url, tenant)
    }
}
