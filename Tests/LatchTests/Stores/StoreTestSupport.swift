import Foundation

@testable import Latch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A fresh temporary directory for one test, removed by ``remove()``.
struct StoreTestDirectory: Sendable {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "latch-stores-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// A credentials path inside a not-yet-existing subdirectory, so the store creates it.
    var credentialsPath: String { path + "/data/latch/credentials.json" }

    func remove() {
        _ = chmod(path, 0o700)
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// A sample account whose `username` carries a counter value.
func storeTestAccount(_ id: String, counter: Int = 0) -> StoredAccount {
    StoredAccount(
        accountID: id, username: String(counter), server: "https://id.example.com", tenant: "acme",
        clientID: "cli", idToken: "id.\(id)", accessToken: "at.\(id)",
        accessTokenExpiresAt: Date(timeIntervalSinceReferenceDate: 800_000_000.123_456),
        scopes: ["openid", "offline_access"], refreshToken: "rt.\(id)", updatedAt: Date())
}

/// Reads the counter that ``storeTestAccount(_:counter:)`` / the fixture keep under "counter".
func storeTestCounter(_ snapshot: CredentialSnapshot) -> Int {
    Int(snapshot.accounts["counter"]?.username ?? "0") ?? 0
}

/// `stat(2)` permission bits of a path.
func storeTestMode(_ path: String) -> mode_t {
    var info = stat()
    guard lstat(path, &info) == 0 else { return 0xFFFF }
    return info.st_mode & 0o777
}

/// Collects corruption reports from a store.
final class CorruptionRecorder: @unchecked Sendable {  // @unchecked: `messages` is guarded by `lock`.
    private let lock = NSLock()
    private var stored: [String] = []

    var messages: [String] {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }

    func record(_ message: String) {
        lock.lock()
        stored.append(message)
        lock.unlock()
    }
}

/// Runs one task per store, each doing `times` read-modify-write increments of the counter under
/// the store's exclusive lock; a pause inside (a yield, or a sleep of `pauseNanoseconds`) widens the
/// race a missing lock would lose.
func incrementConcurrently(_ stores: [any CredentialStore], times: Int, pauseNanoseconds: UInt64 = 0) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
        for store in stores {
            group.addTask {
                for _ in 0..<times {
                    try await store.withExclusiveLock {
                        var snapshot = try await store.read()
                        let value = storeTestCounter(snapshot)
                        if pauseNanoseconds == 0 {
                            await Task.yield()
                        } else {
                            try await Task.sleep(nanoseconds: pauseNanoseconds)
                        }
                        snapshot.accounts["counter"] = storeTestAccount("counter", counter: value + 1)
                        try await store.write(snapshot)
                    }
                }
            }
        }
        try await group.waitForAll()
    }
}
