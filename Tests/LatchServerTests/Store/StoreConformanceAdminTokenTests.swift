import Foundation
import LatchServer
import Testing

/// Admin tokens come back by secret hash, by id and per tenant; a hash is unique; revoking and
/// stamping a use are conditional writes that report or skip what does not apply.
@Suite("Store conformance: admin tokens")
struct StoreConformanceAdminTokenTests {
    typealias Fixture = StoreConformance

    static func token(_ id: String, tenantID: String, createdAt: Date, label: String = "deploy") -> AdminToken {
        AdminToken(
            id: id, tenantID: tenantID, label: label, secretHash: String(repeating: String(id.prefix(1)), count: 64),
            createdAt: createdAt)
    }

    @Test("tokens read back by hash and id, and per tenant or all oldest first", arguments: StoreConformance.implementations)
    func roundTrip(_ factory: StoreFactory) throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let (acme, _) = try Fixture.seed(store)
        let other = Fixture.tenant("other")
        let first = Self.token("a1", tenantID: acme.id, createdAt: Fixture.now, label: "ci \u{1B}[31m")
        let second = Self.token("b2", tenantID: other.id, createdAt: Fixture.date(1_700_000_005_000))
        let third = Self.token("c3", tenantID: acme.id, createdAt: Fixture.date(1_700_000_009_000))
        try store.write { tx throws in
            try tx.insert(other)
            try tx.insert(third)
            try tx.insert(first)
            try tx.insert(second)
        }
        try store.read { tx throws in
            #expect(try tx.adminToken(secretHash: first.secretHash) == first)
            #expect(try tx.adminToken(secretHash: String(repeating: "f", count: 64)) == nil)
            #expect(try tx.adminToken(id: "b2") == second)
            #expect(try tx.adminToken(id: "zz") == nil)
            #expect(try tx.adminTokens(tenantID: acme.id) == [first, third])
            #expect(try tx.adminTokens(tenantID: nil) == [first, second, third])
            #expect(try tx.adminTokens(tenantID: "tid-missing").isEmpty)
        }
    }

    @Test("a second token with a taken secret hash or id is a conflict", arguments: StoreConformance.implementations)
    func conflicts(_ factory: StoreFactory) throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let (acme, _) = try Fixture.seed(store)
        let token = Self.token("a1", tenantID: acme.id, createdAt: Fixture.now)
        try store.write { tx throws in try tx.insert(token) }
        var sameHash = token
        sameHash.id = "a2"
        var sameID = Self.token("a1", tenantID: acme.id, createdAt: Fixture.now)
        sameID.secretHash = String(repeating: "e", count: 64)
        Fixture.expectConflict("same hash") { try store.write { tx throws in try tx.insert(sameHash) } }
        Fixture.expectConflict("same id") { try store.write { tx throws in try tx.insert(sameID) } }
    }

    @Test(
        "revoking applies once; a use is stamped only when older than asked and never on a revoked token",
        arguments: StoreConformance.implementations)
    func revokeAndUse(_ factory: StoreFactory) throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let (acme, _) = try Fixture.seed(store)
        try store.write { tx throws in try tx.insert(Self.token("a1", tenantID: acme.id, createdAt: Fixture.now)) }
        let used = Fixture.date(1_700_000_100_000)
        try store.write { tx throws in try tx.recordAdminTokenUse(id: "a1", at: used, ifLastUseBefore: used) }
        #expect(try store.read { try $0.adminToken(id: "a1") }?.lastUsedAt == used)
        // A stamp at or after the bound is kept.
        let soon = Fixture.date(1_700_000_130_000)
        try store.write { tx throws in try tx.recordAdminTokenUse(id: "a1", at: soon, ifLastUseBefore: used) }
        #expect(try store.read { try $0.adminToken(id: "a1") }?.lastUsedAt == used)
        try store.write { tx throws in try tx.recordAdminTokenUse(id: "a1", at: soon, ifLastUseBefore: soon) }
        #expect(try store.read { try $0.adminToken(id: "a1") }?.lastUsedAt == soon)

        let revokedAt = Fixture.date(1_700_000_200_000)
        #expect(try store.write { try $0.revokeAdminToken(id: "a1", at: revokedAt) })
        #expect(try !store.write { try $0.revokeAdminToken(id: "a1", at: Fixture.date(1_700_000_300_000)) })
        #expect(try !store.write { try $0.revokeAdminToken(id: "missing", at: revokedAt) })
        let later = Fixture.date(1_700_000_400_000)
        try store.write { tx throws in try tx.recordAdminTokenUse(id: "a1", at: later, ifLastUseBefore: later) }
        let stored = try #require(try store.read { try $0.adminToken(id: "a1") })
        #expect(stored.revokedAt == revokedAt)
        #expect(stored.lastUsedAt == soon)
    }
}
