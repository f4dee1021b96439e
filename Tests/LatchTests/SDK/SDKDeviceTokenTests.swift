import Foundation
import LatchServer
import LatchTesting
import Testing

@testable import Latch

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The SDK keeps the server's device token after a sign-in, across sign-out, and sends it with
/// the next sign-ins of that username, so a stranger's wrong passwords do not delay the real user
/// (OWASP "Slow Down Online Guessing Attacks with Device Cookies").
@Suite("SDK device tokens")
struct SDKDeviceTokenTests {
    /// A server that believes `X-Forwarded-For` from loopback, so clients can stand for other sources.
    static func environment() throws -> SDKTest.Environment {
        try SDKTest.Environment { $0.trustedProxies = [AddressRange("127.0.0.1")!] }
    }

    /// A client whose requests the server sees as coming from `address`, without retries.
    static func client(_ env: SDKTest.Environment, from address: String, store: any CredentialStore) throws -> LatchClient {
        var configuration = env.configuration(store: store, retryPolicy: .none)
        configuration.transport = HTTPTransport { request in
            var forwarded = request
            forwarded.setValue(address, forHTTPHeaderField: "X-Forwarded-For")
            return try await HTTPTransport.urlSession.send(forwarded)
        }
        return try LatchClient(configuration: configuration)
    }

    @Test("after one sign-in, a stranger's six wrong passwords over the wire do not stop the SDK's next password sign-in")
    func strangerDoesNotStopTheSDK() async throws {
        let env = try Self.environment()
        defer { env.stop() }
        let store = InMemoryCredentialStore()
        let client = try env.client(store: store, retryPolicy: .none)
        let email = SDKTest.email("owner")
        _ = try await env.signedIn(client, email: email)
        let kept = try #require(try await store.read().deviceTokens)
        #expect(Array(kept.keys) == ["\(env.server.baseURL)|default|\(email)"])
        #expect(kept.values.first?.hasPrefix("ldc1.") == true)

        let stranger = try Self.client(env, from: "203.0.113.66", store: InMemoryCredentialStore())
        var codes: [LatchError.Code] = []
        for _ in 0..<6 {
            let error = try await #require(throws: LatchError.self) {
                try await stranger.signIn(username: email, password: SDKTest.otherPassword)
            }
            codes.append(error.code)
        }
        #expect(codes == Array(repeating: .wrongPassword, count: 5) + [.tooManyRequests])

        let result = try SDKTest.completed(try await client.signIn(username: email, password: SDKTest.password))
        #expect(result.account.username == email)

        // Signing out ends the session but keeps the device token: the next sign-in still gets through.
        try await client.signOut(account: result.account)
        #expect(try await store.read().accounts.isEmpty)
        #expect(try await store.read().deviceTokens?.isEmpty == false)
        _ = try SDKTest.completed(try await client.signIn(username: email, password: SDKTest.password))

        // Without the device token (another install on the same machine) the account's delay applies.
        let fresh = try env.client(store: InMemoryCredentialStore(), retryPolicy: .none)
        let delayed = try await #require(throws: LatchError.self) {
            try await fresh.signIn(username: email, password: SDKTest.password)
        }
        #expect(delayed.code == .tooManyRequests)
    }

    @Test("the device token lives in the file store with the accounts, and another client on that file uses it")
    func keptInTheFileStore() async throws {
        let env = try Self.environment()
        defer { env.stop() }
        let directory = NSTemporaryDirectory() + "latch-sdk-device-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/credentials.json"
        let email = SDKTest.email("filed")
        _ = try await env.signedIn(try env.client(store: FileCredentialStore(path: path)), email: email)
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        #expect((document?["deviceTokens"] as? [String: String])?.count == 1)

        let stranger = try Self.client(env, from: "203.0.113.67", store: InMemoryCredentialStore())
        for _ in 0..<6 { _ = try? await stranger.signIn(username: email, password: SDKTest.otherPassword) }
        let other = try env.client(store: FileCredentialStore(path: path), retryPolicy: .none)
        _ = try SDKTest.completed(try await other.signIn(username: email, password: SDKTest.password))
    }

    @Test("a stored document without device tokens still reads")
    func olderDocumentsRead() throws {
        let snapshot = try CredentialSnapshotCoding.decode(Data(#"{"version": 1, "accounts": {}}"#.utf8))
        #expect(snapshot.deviceTokens == nil)
        #expect(snapshot == CredentialSnapshot())
    }
}
