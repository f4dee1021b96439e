import Foundation
import Latch

#if canImport(LatchCurl)
    import LatchCurl
#endif

/// Where `latch` connects and where it keeps tokens, resolved from (highest precedence first) the
/// command-line options, the environment (`LATCH_SERVER`, `LATCH_TENANT`, `LATCH_CLIENT_ID`,
/// `LATCH_CACHE`), the config file (`--config FILE`, else `$XDG_CONFIG_HOME/latch/config.json` or
/// `~/.config/latch/config.json`, a JSON object with `server`, `tenant` and `client_id`), and the
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

    /// The default server origin.
    static let defaultServer = "http://127.0.0.1:8080"
    /// The default tenant.
    static let defaultTenant = "default"
    /// The default client id.
    static let defaultClientID = "latch-dev"

    /// The members of the config file.
    private struct ConfigFile: Decodable {
        var server: String?
        var tenant: String?
        var clientID: String?

        enum CodingKeys: String, CodingKey {
            case server, tenant
            case clientID = "client_id"
        }
    }

    /// Resolves the settings.
    /// - Throws: ``UsageError`` for an unreadable or malformed config file, or an invalid server URL.
    init(options: CommandLineOptions, environment: [String: String]) throws {
        func env(_ name: String) -> String? {
            guard let value = environment[name], !value.isEmpty else { return nil }
            return value
        }
        let file = try Self.readConfig(explicit: options.config, environment: environment)
        let server = options.server ?? env("LATCH_SERVER") ?? file?.server ?? Self.defaultServer
        guard let url = URL(string: server), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            url.host != nil
        else { throw UsageError("invalid server URL '\(server)'; expected e.g. \(Self.defaultServer)") }
        serverURL = url
        tenant = options.tenant ?? env("LATCH_TENANT") ?? file?.tenant ?? Self.defaultTenant
        clientID = options.clientID ?? env("LATCH_CLIENT_ID") ?? file?.clientID ?? Self.defaultClientID
        guard !tenant.isEmpty, !clientID.isEmpty else { throw UsageError("the tenant and client id must not be empty") }
        if let cache = options.cache ?? env("LATCH_CACHE") {
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
    /// ``transport``.
    func configuration() -> LatchConfiguration {
        LatchConfiguration(
            serverURL: serverURL, tenant: tenant, clientID: clientID,
            credentialStore: FileCredentialStore(path: cachePath), transport: transport)
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

    private static func readConfig(explicit: String?, environment: [String: String]) throws -> ConfigFile? {
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
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageError("cannot read config file \(path)")
        }
        do {
            return try JSONDecoder().decode(ConfigFile.self, from: data)
        } catch {
            throw UsageError("config file \(path) is not a JSON object with \"server\", \"tenant\", \"client_id\" strings")
        }
    }
}
