import Foundation
import LatchServer
import Testing

/// ``Store/read(_:)`` runs against one consistent snapshot: a write committing meanwhile is not seen
/// halfway through a read, and is seen by the next one.
@Suite("Store conformance: read snapshots")
struct StoreConformanceIsolationTests {
    typealias Fixture = StoreConformance

    @Test("a read does not see a write that commits while it runs", arguments: StoreConformance.implementations)
    func readSeesOneSnapshot(_ factory: StoreFactory) throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let (tenant, _) = try Fixture.seed(store)
        let newcomer = Fixture.user("user-2", email: "bob@example.com", tenantID: tenant.id)

        let seen = try store.read { tx throws -> [Int] in
            let before = try tx.userCount(tenantID: tenant.id)
            // Another request commits a sign-up while this read is in progress.
            let outcome = StoreConformance.onThreadsBlocking(1) { _ in try store.write { try $0.insert(newcomer) } }
            try outcome[0].get()
            let users = try tx.users(tenantID: tenant.id, limit: 10)
            return [before, try tx.userCount(tenantID: tenant.id), users.count]
        }
        #expect(seen == [1, 1, 1])
        #expect(try store.read { try $0.userCount(tenantID: tenant.id) } == 2)
    }
}
