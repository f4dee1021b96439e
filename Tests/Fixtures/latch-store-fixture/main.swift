// Helper process for the cross-process tests of FileCredentialStore and LatchClient.
//
// Usage:
//   latch-store-fixture increment <credentials-path> <count>
//     Performs <count> read-modify-write increments of a counter (kept in the `username` of the
//     account keyed "counter") under `withExclusiveLock`, then exits 0.
//   latch-store-fixture signout <credentials-path> <server-url> <tenant> <client-id>
//     Signs every account of that client out of the store (locally: no request is sent), then
//     exits 0.
// Exits 1 with a message on error, 2 on a usage error.
import Foundation
import Latch

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("latch-store-fixture: \(message)\n".utf8))
    exit(status)
}

let arguments = CommandLine.arguments
let usage = "usage: latch-store-fixture increment <path> <count> | signout <path> <server-url> <tenant> <client-id>"
do {
    switch arguments.dropFirst().first {
    case "increment":
        guard arguments.count == 4, let count = Int(arguments[3]) else { fail(usage, status: 2) }
        let store = FileCredentialStore(path: arguments[2])
        for _ in 0..<count {
            try await store.withExclusiveLock {
                var snapshot = try await store.read()
                let current = Int(snapshot.accounts["counter"]?.username ?? "0") ?? 0
                // Widen the race window: without the lock the other process would read the same value.
                try await Task.sleep(nanoseconds: 200_000)
                snapshot.accounts["counter"] = StoredAccount(
                    accountID: "counter", username: String(current + 1), server: "https://fixture.invalid",
                    tenant: "t", clientID: "c", idToken: nil, accessToken: nil, accessTokenExpiresAt: nil,
                    scopes: [], refreshToken: nil, updatedAt: Date())
                try await store.write(snapshot)
            }
        }
    case "signout":
        guard arguments.count == 6, let server = URL(string: arguments[3]) else { fail(usage, status: 2) }
        let client = try LatchClient(
            configuration: LatchConfiguration(
                serverURL: server, tenant: arguments[4], clientID: arguments[5],
                credentialStore: FileCredentialStore(path: arguments[2]),
                transport: HTTPTransport { _ in throw URLError(.notConnectedToInternet) }))
        for account in try await client.accounts() {
            try await client.signOut(account: account)
        }
    default:
        fail(usage, status: 2)
    }
} catch {
    fail("\(error)", status: 1)
}
