import Foundation
import Latch
import LatchTesting
import Testing

/// Configuration without code: a JSON file, a bundled `Latch.plist`, `LATCH_*` variables, the
/// tenant URL `latchd` prints, and the minimum validity of cached tokens.
@Suite struct ConfigurationLoadingTests {
    private func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("latch-settings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The bundle at `directory` (optional on Apple platforms, not on Linux).
    private func bundle(_ directory: URL) throws -> Bundle {
        let bundle: Bundle? = Bundle(path: directory.path)
        return try #require(bundle)
    }

    @Test func jsonFileGivesEveryKey() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("latch.json")
        try Data(#"{"server":"https://id.example.com","tenant":"acme","client_id":"app","minimum_validity":60}"#.utf8)
            .write(to: file)
        let configuration = try LatchConfiguration.load(bundle: nil, file: file.path, environment: [:])
        #expect(configuration.serverURL.absoluteString == "https://id.example.com")
        #expect(configuration.tenant == "acme")
        #expect(configuration.clientID == "app")
        #expect(configuration.minimumValidity == 60)
    }

    @Test func bundledPropertyListIsRead() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let plist: [String: Any] = ["server": "https://id.example.com", "tenant": "acme", "client_id": "ios-app"]
        let data = try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
        try data.write(to: directory.appendingPathComponent("Latch.plist"))
        let settings = try LatchSettings.bundled(in: try bundle(directory))
        #expect(settings == LatchSettings(server: "https://id.example.com", tenant: "acme", clientID: "ios-app"))
        #expect(try LatchSettings.bundled(in: try bundle(try temporaryDirectory())) == LatchSettings())
    }

    @Test func environmentOverridesFileWhichOverridesBundle() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let plist: [String: Any] = ["server": "https://bundle.example.com", "tenant": "bundled", "client_id": "bundled-app"]
        try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
            .write(to: directory.appendingPathComponent("Latch.plist"))
        let file = directory.appendingPathComponent("latch.json")
        try Data(#"{"tenant":"from-file"}"#.utf8).write(to: file)
        let configuration = try LatchConfiguration.load(
            bundle: try bundle(directory), file: file.path,
            environment: ["LATCH_CLIENT_ID": "from-env", "LATCH_MINIMUM_VALIDITY": "0", "LATCH_SERVER": ""])
        #expect(configuration.serverURL.absoluteString == "https://bundle.example.com")
        #expect(configuration.tenant == "from-file")
        #expect(configuration.clientID == "from-env")
        #expect(configuration.minimumValidity == 0)
    }

    @Test func environmentKeysAreTheCLIs() throws {
        let settings = try LatchSettings.environment([
            "LATCH_SERVER": "http://127.0.0.1:8080", "LATCH_TENANT": "t", "LATCH_CLIENT_ID": "c",
            "LATCH_MINIMUM_VALIDITY": "120",
        ])
        #expect(settings == LatchSettings(server: "http://127.0.0.1:8080", tenant: "t", clientID: "c", minimumValidity: 120))
        #expect(throws: LatchError.self) { try LatchSettings.environment(["LATCH_MINIMUM_VALIDITY": "soon"]) }
    }

    @Test func pastedTenantURLIsSplit() throws {
        let pasted = try LatchSettings(server: "http://127.0.0.1:8080/default", clientID: "latch-dev").resolvedServer()
        #expect(pasted.serverURL.absoluteString == "http://127.0.0.1:8080")
        #expect(pasted.tenant == "default")
        let named = try LatchSettings(server: "http://127.0.0.1:8080/acme/", tenant: "acme").resolvedServer()
        #expect(named.serverURL.absoluteString == "http://127.0.0.1:8080")
        #expect(named.tenant == "acme")
        let proxied = try LatchSettings(server: "https://example.com/auth", tenant: "acme").resolvedServer()
        #expect(proxied.serverURL.absoluteString == "https://example.com/auth")
        let origin = try LatchSettings(server: "http://127.0.0.1:8080").resolvedServer()
        #expect(origin.serverURL.absoluteString == "http://127.0.0.1:8080")
        #expect(origin.tenant == "default")
    }

    @Test func invalidSettingsAreRefusedClearly() throws {
        for settings in [
            LatchSettings(clientID: "app"), LatchSettings(server: "ftp://example.com", clientID: "app"),
            LatchSettings(server: "127.0.0.1:8080", clientID: "app"), LatchSettings(server: "http://example.com"),
        ] {
            let error = try #require(throws: LatchError.self) { try LatchConfiguration(settings: settings) }
            #expect(error.code == .invalidConfiguration)
        }
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("bad.json")
        try Data("[1]".utf8).write(to: file)
        let error = try #require(throws: LatchError.self) { try LatchSettings.contentsOfFile(file.path) }
        #expect(error.message.contains(file.path))
    }

    @Test func tenantURLPassedInCodeIsRefused() throws {
        let configuration = LatchConfiguration(
            serverURL: URL(string: "http://127.0.0.1:8080/default")!, clientID: "latch-dev",
            credentialStore: InMemoryCredentialStore())
        let error = try #require(throws: LatchError.self) { try LatchClient(configuration: configuration) }
        #expect(error.code == .invalidConfiguration)
        #expect(error.message.contains("ends with the tenant"))
    }

    @Test func pastedTenantURLSignsInAgainstARealServer() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let settings = LatchSettings(server: server.baseURL + "/default", clientID: server.clientID)
        let clock = server.clock
        let configuration = try LatchConfiguration(
            settings: settings, credentialStore: InMemoryCredentialStore(), transport: server.transport,
            clock: { clock.now() })
        let client = try LatchClient(configuration: configuration)
        let email = SDKTest.email("pasted")
        _ = try server.createUser(email: email, password: SDKTest.password)
        _ = try SDKTest.completed(try await client.signIn(username: email, password: SDKTest.password))
        #expect(server.faults.requestCount(path: "/default/default/oauth2/v2.0/initiate") == 0)
        #expect(server.faults.requestCount(path: "/default/oauth2/v2.0/token") == 1)
    }

    @Test func minimumValidityDecidesWhenTheCacheIsRefreshed() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let email = SDKTest.email("validity")
        _ = try server.createUser(email: email, password: SDKTest.password)
        let client = try server.makeClient { $0.minimumValidity = 0 }
        let tokens = try SDKTest.completed(try await client.signIn(username: email, password: SDKTest.password))
        let lifetime = tokens.expiresOn.timeIntervalSince(server.clock.now())
        server.clock.advance(by: lifetime - 60)
        _ = try await client.acquireTokenSilent(account: tokens.account)
        #expect(server.faults.requestCount(path: "/oauth2/v2.0/token") == 1, "valid for 60 s more: from the cache")

        let strict = try server.makeClient { $0.minimumValidity = 120 }
        let other = SDKTest.email("validity-strict")
        _ = try server.createUser(email: other, password: SDKTest.password)
        let strictTokens = try SDKTest.completed(try await strict.signIn(username: other, password: SDKTest.password))
        let before = server.faults.requestCount(path: "/oauth2/v2.0/token")
        server.clock.advance(by: strictTokens.expiresOn.timeIntervalSince(server.clock.now()) - 100)
        _ = try await strict.acquireTokenSilent(account: strictTokens.account)
        #expect(server.faults.requestCount(path: "/oauth2/v2.0/token") == before + 1, "within 120 s: refreshed")

        let negative = server.makeConfiguration()
        var refused = negative
        refused.minimumValidity = -1
        #expect(throws: LatchError.self) { try LatchClient(configuration: refused) }
    }
}
