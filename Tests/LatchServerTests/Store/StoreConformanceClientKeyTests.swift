import Foundation
import LatchServer
import Testing

/// Client keys and used client-assertion ids (`private_key_jwt`, RFC 7523 § 3 item 7): keys
/// round-trip and are replaced whole; an assertion id is recorded once until it expires.
@Suite("Store conformance: client keys")
struct StoreConformanceClientKeyTests {
    typealias Fixture = StoreConformance

    @Test("keys round-trip per client and an upsert replaces them", arguments: StoreConformance.implementations)
    func keys(_ factory: StoreFactory) throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let (tenant, _) = try Fixture.seed(store)
        let at = Date(timeIntervalSince1970: 1_700_000_000)
        let client = Client(id: "svc", tenantID: tenant.id, name: "svc", isPublic: false, createdAt: at)
        let first = ClientKeys(tenantID: tenant.id, clientID: "svc", jwks: #"{"keys":[1]}"#, updatedAt: at)
        let second = ClientKeys(
            tenantID: tenant.id, clientID: "svc", jwks: #"{"keys":[2]}"#, updatedAt: at.addingTimeInterval(60))
        try store.write { tx throws in
            try tx.insert(client)
            try tx.upsert(first)
        }
        #expect(try store.read { try $0.clientKeys(clientID: "svc", tenantID: tenant.id) } == first)
        #expect(try store.read { try $0.clientKeys(clientID: "other", tenantID: tenant.id) } == nil)
        #expect(try store.read { try $0.clientKeys(clientID: "svc", tenantID: "tid-other") } == nil)
        try store.write { try $0.upsert(second) }
        #expect(try store.read { try $0.clientKeys(clientID: "svc", tenantID: tenant.id) } == second)
    }

    @Test("an assertion id is recorded once, and again only after it expired", arguments: StoreConformance.implementations)
    func assertionIDs(_ factory: StoreFactory) throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let expiry = now.addingTimeInterval(120)
        #expect(try store.write { try $0.recordAssertionID("h1", expiresAt: expiry, at: now) })
        #expect(try store.write { try $0.recordAssertionID("h1", expiresAt: expiry, at: now.addingTimeInterval(60)) } == false)
        #expect(try store.write { try $0.recordAssertionID("h2", expiresAt: expiry, at: now) })
        #expect(try store.write { try $0.recordAssertionID("h1", expiresAt: expiry.addingTimeInterval(300), at: expiry) })
        #expect(try store.write { try $0.recordAssertionID("h1", expiresAt: expiry, at: expiry.addingTimeInterval(1)) } == false)
    }

    @Test("of concurrent records of one assertion id, exactly one applies", arguments: StoreConformance.implementations)
    func concurrent(_ factory: StoreFactory) async throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let outcomes = await Fixture.onThreads(8) { _ in
            try store.write { try $0.recordAssertionID("race", expiresAt: now + 60, at: now) }
        }
        let applied = try outcomes.map { try $0.get() }.filter { $0 }.count
        #expect(applied == 1)
    }
}
