import Foundation
import LatchChildProcess
import LatchLocking
import LatchServer
import LatchTesting
import Testing

@testable import Latch

/// Two processes sharing one ``FileCredentialStore``: this test process and `latch` CLI processes
/// (the only executable built from this package that drives a ``LatchClient``).
@Suite("SDK across processes")
struct CrossProcessTests {
    /// The `latch` executable built next to the test bundle, if any.
    static let latch: URL? = {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        while directory.path != "/" {
            for candidate in [directory.appendingPathComponent("latch"), directory.appendingPathComponent("debug/latch")]
            where FileManager.default.isExecutableFile(atPath: candidate.path) {
                return candidate
            }
            directory.deleteLastPathComponent()
        }
        return nil
    }()

    static func run(_ executable: URL, _ arguments: [String], environment: [String: String]) async throws
        -> (status: Int32, output: String, errors: String)
    {
        let (output, errors) = (Pipe(), Pipe())
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            do {
                _ = try ChildProcess(
                    executable: executable.path, arguments: arguments, environment: environment, standardInput: .null,
                    standardOutput: .descriptor(output.fileHandleForWriting.fileDescriptor),
                    standardError: .descriptor(errors.fileHandleForWriting.fileDescriptor)
                ) { continuation.resume(returning: $0.terminationStatus) }
            } catch {
                continuation.resume(throwing: error)
            }
        }
        try output.fileHandleForWriting.close()
        try errors.fileHandleForWriting.close()
        let out = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let err = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (status, out, err)
    }

    @Test(
        "concurrent forced refreshes from several processes never present a rotated refresh token twice",
        .enabled(if: latch != nil, "the latch executable is not built"))
    func refreshAcrossProcesses() async throws {
        let executable = try #require(Self.latch)
        let env = try SDKTest.Environment()
        defer { env.stop() }
        var settings = TenantSettings()
        settings.refreshReuseGraceSeconds = 0  // any second use of a rotated refresh token revokes the session
        try env.server.createTenant("xproc", settings: settings)
        let directory = NSTemporaryDirectory() + "latch-sdk-xproc-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/credentials.json"

        let client = try env.client(tenant: "xproc", store: FileCredentialStore(path: path))
        let email = SDKTest.email("xproc")
        try env.server.createUser(email: email, password: SDKTest.password, tenant: "xproc")
        let signedIn = try SDKTest.completed(try await client.signIn(username: email, password: SDKTest.password))
        // Widen the window in which processes race for the store.
        env.server.faults.inject(.delay(seconds: 0.1), on: "/oauth2/v2.0/token")
        let before = env.serverCount("/oauth2/v2.0/token")

        let environment = [
            "HOME": directory, "XDG_CONFIG_HOME": directory + "/config", "LATCH_SERVER": env.server.baseURL,
            "LATCH_TENANT": "xproc", "LATCH_CLIENT_ID": "latch-dev", "LATCH_CACHE": path,
        ]
        async let here = client.acquireTokenSilent(account: signedIn.account, forceRefresh: true)
        let results = try await withThrowingTaskGroup(of: (status: Int32, output: String, errors: String).self) { group in
            for _ in 0..<4 {
                group.addTask { try await Self.run(executable, ["token", "--force-refresh"], environment: environment) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        _ = try await here
        for result in results {
            #expect(result.status == 0, "\(result.errors)")
            #expect(!result.output.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
        }
        let refreshes = env.serverCount("/oauth2/v2.0/token") - before
        #expect((1...5).contains(refreshes))

        // No refresh token was presented twice: the session survives, and the stored one works.
        let stored = try #require(try await FileCredentialStore(path: path).read().accounts.values.first)
        #expect(stored.refreshToken != nil)
        let fresh = try env.client(tenant: "xproc", store: FileCredentialStore(path: path))
        let account = try #require(try await fresh.accounts().first)
        #expect(account.sessionState == .signedIn)
        _ = try await fresh.acquireTokenSilent(account: account, forceRefresh: true)
        _ = try await client.acquireTokenSilent(account: signedIn.account, forceRefresh: true)
        #expect(try await client.accounts().first?.sessionState == .signedIn)
    }
}
