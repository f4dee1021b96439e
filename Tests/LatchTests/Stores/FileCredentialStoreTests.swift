import Foundation
import Testing

@testable import Latch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

@Suite("FileCredentialStore")
struct FileCredentialStoreTests {
    @Test("a missing file reads as empty; a written snapshot reads back equal")
    func roundTrip() async throws {
        let directory = try StoreTestDirectory()
        defer { directory.remove() }
        let store = FileCredentialStore(path: directory.credentialsPath)
        #expect(try await store.read() == CredentialSnapshot())

        let first = storeTestAccount("a1"), second = storeTestAccount("a2", counter: 7)
        let snapshot = CredentialSnapshot(accounts: [first.key: first, second.key: second])
        try await store.write(snapshot)
        #expect(try await store.read() == snapshot)
        #expect(try await FileCredentialStore(path: directory.credentialsPath).read() == snapshot)

        try await store.write(CredentialSnapshot())
        #expect(try await store.read() == CredentialSnapshot())
    }

    @Test("the JSON has sorted keys and no temporary files are left behind")
    func sortedKeysNoLeftovers() async throws {
        let directory = try StoreTestDirectory()
        defer { directory.remove() }
        let store = FileCredentialStore(path: directory.credentialsPath)
        let account = storeTestAccount("a1")
        try await store.write(CredentialSnapshot(accounts: [account.key: account]))
        let text = try String(contentsOfFile: store.path, encoding: .utf8)
        let accounts = try #require(text.range(of: "\"accounts\""))
        let version = try #require(text.range(of: "\"version\""))
        #expect(accounts.lowerBound < version.lowerBound)
        #expect(try FileManager.default.contentsOfDirectory(atPath: store.directoryPath) == ["credentials.json"])
    }

    @Test("the file is 0600, created directories 0700, the lock file 0600")
    func permissions() async throws {
        let directory = try StoreTestDirectory()
        defer { directory.remove() }
        let store = FileCredentialStore(path: directory.credentialsPath)
        try await store.write(CredentialSnapshot())
        #expect(storeTestMode(store.path) == 0o600)
        #expect(storeTestMode(store.directoryPath) == 0o700)
        #expect(storeTestMode(directory.path + "/data") == 0o700)
        try await store.withExclusiveLock {}
        #expect(storeTestMode(store.lockPath) == 0o600)
    }

    @Test("a file with loose permissions is tightened to 0600 when read")
    func tightensMode() async throws {
        let directory = try StoreTestDirectory()
        defer { directory.remove() }
        let store = FileCredentialStore(path: directory.credentialsPath)
        try await store.write(CredentialSnapshot())
        #expect(chmod(store.path, 0o644) == 0)
        _ = try await store.read()
        #expect(storeTestMode(store.path) == 0o600)
    }

    @Test("a file owned by another user is refused", .enabled(if: geteuid() == 0, "needs root to chown"))
    func refusesForeignOwner() async throws {
        let directory = try StoreTestDirectory()
        defer { directory.remove() }
        let store = FileCredentialStore(path: directory.credentialsPath)
        try await store.write(CredentialSnapshot())
        #expect(chown(store.path, 65534, 65534) == 0)
        let error = await #expect(throws: CredentialStoreError.self) { try await store.read() }
        #expect((error?.underlyingError as? POSIXError)?.code == .EPERM)
    }

    @Test(
        "corrupt files are moved aside, reported and read as empty",
        arguments: ["not json at all", "{\"accounts\": 3}", "{\"version\": 99, \"accounts\": {}}", ""])
    func corruptFile(content: String) async throws {
        let directory = try StoreTestDirectory()
        defer { directory.remove() }
        let recorder = CorruptionRecorder()
        let store = FileCredentialStore(path: directory.credentialsPath, onCorruption: recorder.record)
        try await store.write(CredentialSnapshot())
        try Data(content.utf8).write(to: URL(fileURLWithPath: store.path))

        #expect(try await store.read() == CredentialSnapshot())
        #expect(recorder.messages.count == 1)
        #expect(!FileManager.default.fileExists(atPath: store.path))
        let names = try FileManager.default.contentsOfDirectory(atPath: store.directoryPath)
        let aside = try #require(names.first { $0.hasPrefix("credentials.json.corrupt-") })
        #expect(try Data(contentsOf: URL(fileURLWithPath: store.directoryPath + "/" + aside)) == Data(content.utf8))
        #expect(recorder.messages.first?.contains(aside) == true)

        // The store keeps working, and a second corrupt file does not overwrite the first.
        #expect(try await store.read() == CredentialSnapshot())
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: store.path))
        _ = try await store.read()
        let asideCount = try FileManager.default.contentsOfDirectory(atPath: store.directoryPath)
            .filter { $0.hasPrefix("credentials.json.corrupt-") }.count
        #expect(asideCount == 2)
        #expect(recorder.messages.count == 2)
    }

    @Test("readers never see a torn file while writers replace it")
    func atomicReplace() async throws {
        let directory = try StoreTestDirectory()
        defer { directory.remove() }
        let recorder = CorruptionRecorder()
        let store = FileCredentialStore(path: directory.credentialsPath, onCorruption: recorder.record)
        let small = CredentialSnapshot(accounts: ["one": storeTestAccount("one")])
        var large = CredentialSnapshot()
        for index in 0..<300 { large.accounts["k\(index)"] = storeTestAccount("a\(index)") }
        try await store.write(small)

        let path = store.path
        let valid = try await withThrowingTaskGroup(of: Int.self) { [large] group in
            for writer in 0..<2 {
                group.addTask {
                    for round in 0..<40 { try await store.write((round + writer) % 2 == 0 ? large : small) }
                    return 0
                }
            }
            for _ in 0..<2 {
                group.addTask {
                    var parsed = 0
                    for _ in 0..<150 {
                        let snapshot = try await store.read()
                        #expect(snapshot == small || snapshot == large)
                        // Also parse the raw bytes, bypassing the store's corruption handling.
                        let data = try Data(contentsOf: URL(fileURLWithPath: path))
                        _ = try JSONDecoder().decode(CredentialSnapshot.self, from: data)
                        parsed += 1
                    }
                    return parsed
                }
            }
            return try await group.reduce(0, +)
        }
        #expect(valid == 300)
        #expect(recorder.messages.isEmpty)
    }

    @Test("two tasks doing 100 read-modify-writes each under the lock reach 200")
    func lockExcludesTasks() async throws {
        let directory = try StoreTestDirectory()
        defer { directory.remove() }
        let store = FileCredentialStore(path: directory.credentialsPath)
        try await incrementConcurrently([store, store], times: 100)
        #expect(storeTestCounter(try await store.read()) == 200)
    }

    @Test("two store instances on one path exclude each other through flock")
    func lockExcludesInstances() async throws {
        let directory = try StoreTestDirectory()
        defer { directory.remove() }
        let stores = [FileCredentialStore(path: directory.credentialsPath), FileCredentialStore(path: directory.credentialsPath)]
        try await incrementConcurrently(stores, times: 30, pauseNanoseconds: 100_000)
        #expect(storeTestCounter(try await stores[0].read()) == 60)
    }

    @Test("the file lock is released when the body throws")
    func releasedOnThrow() async throws {
        struct Boom: Error {}
        let directory = try StoreTestDirectory()
        defer { directory.remove() }
        let store = FileCredentialStore(path: directory.credentialsPath)
        await #expect(throws: Boom.self) {
            try await store.withExclusiveLock { throw Boom() }
        }
        let fd = open(store.lockPath, O_RDWR)
        defer { close(fd) }
        #expect(flock(fd, LOCK_EX | LOCK_NB) == 0)
        #expect(flock(fd, LOCK_UN) == 0)
        #expect(try await store.withExclusiveLock { 42 } == 42)
    }

    @Test("cancelling a task waiting for another process's lock throws and frees the store")
    func cancelledWhileWaiting() async throws {
        let directory = try StoreTestDirectory()
        defer { directory.remove() }
        let store = FileCredentialStore(path: directory.credentialsPath)
        try await store.withExclusiveLock {}  // creates the directory and lock file
        let foreign = open(store.lockPath, O_RDWR)
        defer { close(foreign) }
        #expect(flock(foreign, LOCK_EX) == 0)  // held by "another process"

        let waiter = Task { try await store.withExclusiveLock { 1 } }
        try await Task.sleep(nanoseconds: 30_000_000)
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }

        #expect(flock(foreign, LOCK_UN) == 0)
        #expect(try await store.withExclusiveLock { 2 } == 2)
    }

    @Test("a path through a regular file fails with ENOTDIR as the underlying error")
    func notADirectory() async throws {
        let directory = try StoreTestDirectory()
        defer { directory.remove() }
        try Data().write(to: URL(fileURLWithPath: directory.path + "/file"))
        let store = FileCredentialStore(path: directory.path + "/file/credentials.json")
        let readError = await #expect(throws: CredentialStoreError.self) { try await store.read() }
        #expect((readError?.underlyingError as? POSIXError)?.code == .ENOTDIR)
        let writeError = await #expect(throws: CredentialStoreError.self) { try await store.write(CredentialSnapshot()) }
        #expect((writeError?.underlyingError as? POSIXError)?.code == .ENOTDIR)
        await #expect(throws: CredentialStoreError.self) { try await store.withExclusiveLock {} }
    }

    @Test(
        "an unreadable directory fails with EACCES as the underlying error",
        .enabled(if: geteuid() != 0, "root bypasses permissions"))
    func unreadableDirectory() async throws {
        let directory = try StoreTestDirectory()
        defer { directory.remove() }
        let store = FileCredentialStore(path: directory.path + "/locked/credentials.json")
        try await store.write(CredentialSnapshot())
        #expect(chmod(store.directoryPath, 0o000) == 0)
        defer { _ = chmod(store.directoryPath, 0o700) }
        let readError = await #expect(throws: CredentialStoreError.self) { try await store.read() }
        #expect((readError?.underlyingError as? POSIXError)?.code == .EACCES)
        let writeError = await #expect(throws: CredentialStoreError.self) { try await store.write(CredentialSnapshot()) }
        #expect((writeError?.underlyingError as? POSIXError)?.code == .EACCES)
    }

    @Test("the default path follows the XDG Base Directory specification")
    func defaultPath() {
        #expect(
            FileCredentialStore.defaultPath(environment: ["XDG_DATA_HOME": "/xdg", "HOME": "/home/u"])
                == "/xdg/latch/credentials.json")
        #expect(
            FileCredentialStore.defaultPath(environment: ["XDG_DATA_HOME": "/xdg/", "HOME": "/home/u"])
                == "/xdg/latch/credentials.json")
        #expect(
            FileCredentialStore.defaultPath(environment: ["HOME": "/home/u"]) == "/home/u/.local/share/latch/credentials.json")
        #expect(
            FileCredentialStore.defaultPath(environment: ["XDG_DATA_HOME": "", "HOME": "/home/u"])
                == "/home/u/.local/share/latch/credentials.json")
        #expect(
            FileCredentialStore.defaultPath(environment: ["XDG_DATA_HOME": "rel", "HOME": "/home/u/"])
                == "/home/u/.local/share/latch/credentials.json")
    }
}
