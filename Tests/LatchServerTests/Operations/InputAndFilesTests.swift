import Foundation
import LatchServer
import LatchTesting
import Testing

/// Addresses that could render as another one are refused, and secrets on disk must be private.
@Suite("Input and files")
struct InputAndFilesTests {
    @Test(
        "e-mail addresses with control, NUL, DEL, bidirectional or zero-width characters are refused",
        arguments: [
            "ada\u{0}@example.com", "ada\u{7F}@example.com", "ada\u{1B}[31m@example.com", "ada\u{202E}moc.elpmaxe@evil.com",
            "ada\u{2066}@example.com", "a\u{200B}da@example.com", "ada@exa\u{85}mple.com",
        ])
    func deceptiveAddresses(_ address: String) async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let client = WireClient(server)
        for path in ["signup/v1.0/start", "oauth2/v2.0/initiate", "resetpassword/v1.0/start"] {
            let reply = try await client.post(
                path, ["username": address, "password": TokenHelpers.password, "challenge_type": "oob password redirect"])
            #expect(reply.status == 400, "\(path)")
            #expect(reply.string("error_description") == "username parameter is empty or not valid")
        }
        #expect(throws: AuthFailure.invalidParameter(.email)) {
            try server.createUser(email: address, password: nil)
        }
    }

    @Test("a data directory or secret readable by group or others is refused at start")
    func sharedDataDirectory() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("latch-perms-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var configuration = LatchServerConfiguration()
        configuration.dataDirectory = path
        configuration.port = 0
        configuration.log = .silent
        // First start creates everything private; it works.
        try LatchServerApp(configuration: configuration).shutdown()

        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        #expect(throws: ConfigurationError.self) { _ = try LatchServerApp(configuration: configuration) }
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: path)

        for secret in ["master.key", "admin.token"] {
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path + "/" + secret)
            let error = try #require(throws: ConfigurationError.self) { _ = try LatchServerApp(configuration: configuration) }
            #expect(error.description.contains(secret))
            #expect(error.description.contains("chmod 600"))
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path + "/" + secret)
        }
        try LatchServerApp(configuration: configuration).shutdown()
    }
}
