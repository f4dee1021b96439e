// Helper process for the cross-process locking test of FileCredentialStore.
//
// Usage: latch-store-fixture increment <credentials-path> <count>
// Performs <count> read-modify-write increments of a counter (kept in the `username` of the
// account keyed "counter") under `withExclusiveLock`, then exits 0; exits 1 with a message on error.
import Foundation
import Latch

let arguments = CommandLine.arguments
guard arguments.count == 4, arguments[1] == "increment", let count = Int(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: latch-store-fixture increment <path> <count>\n".utf8))
    exit(2)
}
let store = FileCredentialStore(path: arguments[2])
do {
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
} catch {
    FileHandle.standardError.write(Data("latch-store-fixture: \(error)\n".utf8))
    exit(1)
}
