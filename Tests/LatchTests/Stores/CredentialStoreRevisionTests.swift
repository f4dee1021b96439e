import Foundation
import Testing

@testable import Latch

/// ``CredentialStore/revision()``: the cheap change stamp the auth-state watcher polls.
@Suite("Credential store revisions and current accounts")
struct CredentialStoreRevisionTests {
    @Test("file store: the revision changes with every write, by any instance, and only then")
    func fileRevision() async throws {
        let directory = try StoreTestDirectory()
        defer { directory.remove() }
        let store = FileCredentialStore(path: directory.credentialsPath)
        let absent = try await store.revision()
        #expect(absent != nil)
        #expect(try await store.revision() == absent)

        let account = storeTestAccount("a1")
        try await store.write(CredentialSnapshot(accounts: [account.key: account]))
        let first = try await store.revision()
        #expect(first != absent)
        _ = try await store.read()
        try await store.withExclusiveLock {}
        #expect(try await store.revision() == first, "reading or locking is not a change")

        // Another instance (as another process would) writes the same content: still a change.
        try await FileCredentialStore(path: directory.credentialsPath).write(
            CredentialSnapshot(accounts: [account.key: account]))
        let second = try await store.revision()
        #expect(second != first)
        try await store.write(CredentialSnapshot())
        #expect(try await store.revision() != second)
    }

    @Test("in-memory store: the revision counts writes")
    func inMemoryRevision() async throws {
        let store = InMemoryCredentialStore()
        let start = try await store.revision()
        _ = try await store.read()
        #expect(try await store.revision() == start)
        try await store.write(CredentialSnapshot())
        #expect(try await store.revision() != start)
    }

    @Test("a store without a change stamp reports nil")
    func defaultRevision() async throws {
        struct Plain: CredentialStore {
            func read() async throws -> CredentialSnapshot { CredentialSnapshot() }
            func write(_ snapshot: CredentialSnapshot) async throws {}
            func withExclusiveLock<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
                try await body()
            }
        }
        #expect(try await Plain().revision() == nil)
    }

    @Test("the current account: the recorded pointer; none once cleared; the newest live account without one")
    func currentAccountPointer() throws {
        var older = storeTestAccount("a1")
        older.updatedAt = Date(timeIntervalSince1970: 1_000)
        var newer = storeTestAccount("a2")
        newer.updatedAt = Date(timeIntervalSince1970: 2_000)
        var ended = storeTestAccount("a3")
        ended.updatedAt = Date(timeIntervalSince1970: 3_000)
        ended.refreshToken = nil
        let client = StoredAccount.clientKey(server: older.server, tenant: older.tenant, clientID: older.clientID)
        var snapshot = CredentialSnapshot(accounts: [older.key: older, newer.key: newer, ended.key: ended])

        // A document from before pointers: the most recently updated account whose session is live.
        #expect(snapshot.currentAccountKey(client: client) == newer.key)
        #expect(snapshot.currentAccountKey(client: "https://other.example.com|acme|cli") == nil)

        snapshot.setCurrentAccount(older.key, client: client)
        #expect(snapshot.currentAccountKey(client: client) == older.key)
        snapshot.setCurrentAccount(nil, client: client)
        #expect(snapshot.currentAccountKey(client: client) == nil)

        // A pointer to an account no longer stored is none; the pointer round-trips through JSON.
        snapshot.setCurrentAccount(newer.key, client: client)
        snapshot.accounts.removeValue(forKey: newer.key)
        #expect(snapshot.currentAccountKey(client: client) == nil)
        snapshot.setCurrentAccount(ended.key, client: client)
        let decoded = try CredentialSnapshotCoding.decode(try CredentialSnapshotCoding.encode(snapshot))
        #expect(decoded == snapshot)
        #expect(decoded.currentAccountKey(client: client) == ended.key)
    }
}
