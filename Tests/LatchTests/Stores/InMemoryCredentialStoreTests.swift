import Foundation
import Testing

@testable import Latch

@Suite("InMemoryCredentialStore")
struct InMemoryCredentialStoreTests {
    @Test("starts empty and round-trips a snapshot")
    func roundTrip() async throws {
        let store = InMemoryCredentialStore()
        #expect(try await store.read() == CredentialSnapshot())
        let account = storeTestAccount("a1")
        let snapshot = CredentialSnapshot(accounts: [account.key: account])
        try await store.write(snapshot)
        #expect(try await store.read() == snapshot)
    }

    @Test("two tasks doing 100 read-modify-writes each under the lock reach 200")
    func lockExcludesTasks() async throws {
        let store = InMemoryCredentialStore()
        try await incrementConcurrently([store, store], times: 100)
        #expect(storeTestCounter(try await store.read()) == 200)
    }

    @Test("the lock is released when the body throws")
    func releasedOnThrow() async throws {
        struct Boom: Error {}
        let store = InMemoryCredentialStore()
        await #expect(throws: Boom.self) {
            try await store.withExclusiveLock { throw Boom() }
        }
        #expect(try await store.withExclusiveLock { 42 } == 42)
    }
}

@Suite("CredentialStoreMutex")
struct CredentialStoreMutexTests {
    @Test("waiters are served in arrival order")
    func fifo() async throws {
        let mutex = CredentialStoreMutex()
        let order = CorruptionRecorder()  // reused as a thread-safe string log
        try await mutex.lock()
        var tasks: [Task<Void, any Error>] = []
        for index in 0..<5 {
            tasks.append(Task { try await mutex.withLock { order.record("\(index)") } })
            while mutex.waiterCount < index + 1 { await Task.yield() }
        }
        mutex.unlock()
        for task in tasks { try await task.value }
        #expect(order.messages == ["0", "1", "2", "3", "4"])
    }

    @Test("a cancelled waiter leaves the queue and the mutex stays usable")
    func cancelledWaiter() async throws {
        let mutex = CredentialStoreMutex()
        try await mutex.lock()
        let waiter = Task { try await mutex.withLock { 1 } }
        while mutex.waiterCount < 1 { await Task.yield() }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        #expect(mutex.waiterCount == 0)
        mutex.unlock()
        #expect(try await mutex.withLock { 2 } == 2)
    }
}
