import Foundation
import Latch
import LatchServer
import LatchTesting
import Testing

/// The seed's errors common to every call, against the real server: network, too many requests,
/// API key, and the credential store (Firebase's keychain error).
@Suite("SDK ↔ server: the seed's common errors", .timeLimit(.minutes(2)))
struct FirebaseSeedCommonTests {
    @Test("tooManyRequests (17010) with the server's Retry-After, and only then: a retry after the wait succeeds")
    func tooManyRequests() async throws {
        let harness = try FirebaseSeedHarness.start()
        defer { harness.stop() }
        let (_, email) = try await harness.signedInUser("limited")
        try await harness.auth.signOut()
        for _ in 0..<5 {
            await expectLatchError(.wrongPassword, "ERROR_WRONG_PASSWORD") {
                try await harness.auth.signIn(email: email, password: SDKTest.otherPassword)
            }
        }
        do {
            _ = try await harness.auth.signIn(email: email, password: SDKTest.password)
            Issue.record("a delayed sign-in went through")
        } catch let error as LatchError {
            #expect(error.code.rawValue == 17010)
            #expect(error.name == "ERROR_TOO_MANY_REQUESTS")
            #expect(error.isRetryable)
        }
        harness.server.clock.advance(by: 61)
        #expect(try await harness.auth.signIn(email: email, password: SDKTest.password).email == email)
    }

    @Test("invalidAPIKey (17023) for an unknown key, before and after a request; networkError (17020) with the server down")
    func apiKeyAndNetwork() async throws {
        let server = try LatchTestServer.start()
        let wrong = try server.makeClient { $0.apiKey = "not-a-key" }
        await expectLatchError(.invalidAPIKey, "ERROR_INVALID_API_KEY") {
            try await wrong.firebase.signInAnonymously()
        }
        let keyless = try server.makeClient { $0.apiKey = nil }
        await expectLatchError(.invalidAPIKey, "ERROR_INVALID_API_KEY") {
            try await keyless.firebase.signIn(email: SDKTest.email("x"), password: SDKTest.password)
        }
        let tenant = try server.app.services.directory.tenant(named: "default")
        let apiKey = try server.app.services.admin.clients(tenant: tenant).first { $0.id == "latch-dev" }?.apiKey
        let client = try server.makeClient {
            $0.apiKey = apiKey
            $0.retryPolicy = SDKTest.fastRetries
        }
        server.stop()
        await expectLatchError(.networkError, "ERROR_NETWORK_REQUEST_FAILED") {
            try await client.firebase.signInAnonymously()
        }
    }

    @Test("createUser with a credential store that cannot be written: keychainError (17995), the cause attached")
    func keychainError() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("latch-store-\(UUID().uuidString)")
        try Data("a file, not a directory".utf8).write(to: directory)
        defer { try? FileManager.default.removeItem(at: directory) }
        let tenant = try server.app.services.directory.tenant(named: "default")
        let apiKey = try server.app.services.admin.clients(tenant: tenant).first { $0.id == "latch-dev" }?.apiKey
        let client = try server.makeClient {
            $0.apiKey = apiKey
            $0.credentialStore = FileCredentialStore(path: directory.path + "/credentials.json")
        }
        do {
            _ = try await client.firebase.createUser(email: SDKTest.email("store"), password: SDKTest.password)
            Issue.record("the sign-in was stored")
        } catch let error as LatchError {
            #expect(error.code.rawValue == 17995)
            #expect(error.name == "ERROR_KEYCHAIN_ERROR")
            #expect(error.underlyingError != nil)
        }
    }
}
