import Foundation
import LatchTesting
import Testing

/// The CLI reads its settings through the SDK's loader: the config file's keys, and a pasted
/// tenant URL split into server and tenant.
@Suite("latch configuration")
struct CLIConfigurationTests {
    @Test("a tenant URL in config.json or --server signs in against the tenant, not /default/default")
    func pastedTenantURL() async throws {
        let server = try LatchTestServer.start()
        defer { server.stop() }
        let home = try CLIHome()
        defer { home.remove() }
        let email = "cfg-\(UUID().uuidString.prefix(8).lowercased())@example.com"
        _ = try server.createUser(email: email, password: CLITests.password)
        let configDirectory = home.path + "/config/latch"
        try FileManager.default.createDirectory(atPath: configDirectory, withIntermediateDirectories: true)
        try Data(#"{"server":"\#(server.baseURL)/default","client_id":"latch-dev"}"#.utf8)
            .write(to: URL(fileURLWithPath: configDirectory + "/config.json"))

        let signin = try await CLIProcess.run(
            home: home, ["signin", "--email", email, "--password-stdin"], input: "\(CLITests.password)\n")
        #expect(signin.status == 0, "\(signin.stderr)")
        let token = try await CLIProcess.run(home: home, ["--server", server.baseURL + "/default/", "token"])
        #expect(token.status == 0, "\(token.stderr)")
        #expect(server.faults.requestCount(path: "/default/default/oauth2/v2.0/initiate") == 0)
        #expect(server.faults.requestCount(path: "/default/oauth2/v2.0/token") == 1)

        let wrong = try await CLIProcess.run(home: home, ["--server", "ftp://example.com", "token"])
        #expect(wrong.status == 2, "a usage error")
        #expect(wrong.stderr.contains("not an http or https URL"), "\(wrong.stderr)")
    }
}
