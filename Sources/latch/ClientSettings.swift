import Foundation
import Latch

#if canImport(LatchCurl)
    import LatchCurl
#endif

/// Where `latch` connects and where it keeps tokens, resolved from (highest precedence first) the
/// command-line options, the environment (`LATCH_SERVER`, `LATCH_TENANT`, `LATCH_CLIENT_ID`,
/// `LATCH_MINIMUM_VALIDITY`, `LATCH_CACHE`, `LATCH_API_KEY`), the config file (`--config FILE`, else
/// `$XDG_CONFIG_HOME/latch/config.json` or `~/.config/latch/config.json`, a JSON object with
/// `server`, `tenant`, `client_id` and `minimum_validity`: the SDK's ``LatchSettings`` keys), and the
/// development defaults `http://127.0.0.1:8080`, `default`, `latch-dev`. Certificate authorities
/// come from `--ca-file FILE` only; see ``transport`` for how they are used.
struct ClientSettings: Sendable {
    /// The server origin.
    let serverURL: URL
    /// The tenant.
    let tenant: String
    /// The client id.
    let clientID: String
    /// The credential file.
    let cachePath: String
    /// PEM file of certificate authorities to trust for https, in addition to the system store
    /// (`--ca-file FILE`, an absolute path, checked to be a readable file); `nil` when not given.
    /// Only on Linux, where LatchCurl can use it: elsewhere `--ca-file` is a usage error.
    let certificateAuthorityFile: String?
    /// Seconds a cached access token must stay valid (`minimum_validity`, `LATCH_MINIMUM_VALIDITY`);
    /// `nil` for the SDK's default.
    let minimumValidity: TimeInterval?
    /// The API key of the client for the Firebase-style account API (`--api-key`, `LATCH_API_KEY`,
    /// `api_key`); `nil` when none is set, and then `signin --anonymous`, `--custom-token`,
    /// `--email-link` and `latch account` fail with ERROR_INVALID_API_KEY.
    let apiKey: String?

    /// The default server origin.
    static let defaultServer = "http://127.0.0.1:8080"
    /// The default tenant.
    static let defaultTenant = "default"
    /// The default client id.
    static let defaultClientID = "latch-dev"

    /// Resolves the settings through the SDK's loader (``LatchSettings``), so the CLI and apps read
    /// the same keys; a tenant URL as `latchd` prints it (`http://127.0.0.1:8080/default`) is split
    /// into server and tenant.
    /// - Throws: ``UsageError`` for an unreadable or malformed config file, or an invalid server URL.
    init(options: CommandLineOptions, environment: [String: String]) throws {
        let resolved: (serverURL: URL, tenant: String)
        let settings: LatchSettings
        do {
            let defaults = LatchSettings(server: Self.defaultServer, clientID: Self.defaultClientID)
            let file = try Self.readConfig(explicit: options.config, environment: environment)
            settings = defaults.overriding(file ?? LatchSettings())
                .overriding(try LatchSettings.environment(environment))
                .overriding(
                    LatchSettings(
                        server: options.server, tenant: options.tenant, clientID: options.clientID, apiKey: options.apiKey))
            resolved = try settings.resolvedServer()
        } catch let error as LatchError {
            throw UsageError(error.message)
        }
        serverURL = resolved.serverURL
        tenant = resolved.tenant
        clientID = settings.clientID ?? Self.defaultClientID
        minimumValidity = settings.minimumValidity
        apiKey = settings.apiKey.flatMap { $0.isEmpty ? nil : $0 }
        guard !clientID.isEmpty else { throw UsageError("the tenant and client id must not be empty") }
        if let cache = options.cache ?? environment["LATCH_CACHE"].flatMap({ $0.isEmpty ? nil : $0 }) {
            cachePath = cache.hasPrefix("/") ? cache : FileManager.default.currentDirectoryPath + "/" + cache
        } else {
            cachePath = FileCredentialStore.defaultPath(environment: environment)
        }
        certificateAuthorityFile = try options.certificateAuthorityFile.map(Self.readableFile)
        #if !canImport(LatchCurl)
            if certificateAuthorityFile != nil {
                throw UsageError("option '--ca-file' works on Linux only; add the CA to the system trust store instead")
            }
        #endif
    }

    /// `path` made absolute, once it is known to name a readable regular file.
    /// - Throws: ``UsageError`` naming `--ca-file` and the path otherwise.
    private static func readableFile(_ path: String) throws -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory) else {
            throw UsageError("option '--ca-file': no file '\(path)'")
        }
        guard !isDirectory.boolValue, FileManager.default.isReadableFile(atPath: absolute) else {
            throw UsageError("option '--ca-file': '\(path)' is not a readable file")
        }
        return absolute
    }

    /// The SDK configuration for these settings, with a file credential store at ``cachePath`` and
    /// ``transport``. `latch` declares both capabilities: it answers a second factor and the
    /// registration of a strong method itself (``SecondStepPrompts``), so the server asks for them
    /// rather than failing the sign-in with browserRequired.
    func configuration() -> LatchConfiguration {
        var configuration = LatchConfiguration(
            serverURL: serverURL, tenant: tenant, clientID: clientID, capabilities: [.mfaRequired, .registrationRequired],
            credentialStore: FileCredentialStore(path: cachePath), transport: transport)
        if let minimumValidity { configuration.minimumValidity = minimumValidity }
        configuration.apiKey = apiKey
        return configuration
    }

    /// How requests are sent: with `--ca-file`, through libcurl (``CurlHTTPClient``), which trusts
    /// the file as well as the system store — Foundation's `URLSession` on Linux trusts only the
    /// CA bundle its libcurl was built with and cannot be told otherwise. Without it, `URLSession`.
    var transport: HTTPTransport {
        #if canImport(LatchCurl)
            if let certificateAuthorityFile {
                return HTTPTransport(send: CurlHTTPClient(certificateAuthorityFile: certificateAuthorityFile).data(for:))
            }
        #endif
        return .urlSession
    }

    /// The server origin as accounts are stored with it (no trailing slash).
    var serverKey: String {
        var text = serverURL.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }

    /// The config file's settings: `explicit` when given, else the default path when it exists.
    private static func readConfig(explicit: String?, environment: [String: String]) throws -> LatchSettings? {
        let path: String
        if let explicit {
            path = explicit
        } else {
            let configHome: String
            if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
                configHome = xdg
            } else {
                configHome = (environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSHomeDirectory()) + "/.config"
            }
            path = configHome + "/latch/config.json"
            guard FileManager.default.fileExists(atPath: path) else { return nil }
        }
        return try LatchSettings.contentsOfFile(path)
    }
}
