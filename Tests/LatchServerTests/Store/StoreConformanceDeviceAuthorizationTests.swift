import Foundation
import LatchServer
import Testing

/// Device authorizations come back by either code's hash with everything they hold; each hash is
/// unique (the user code's within its tenant); a decision applies once, only to a pending,
/// unexpired one; consuming hands an approved one to exactly one of concurrent callers; purging
/// drops the expired ones.
@Suite("Store conformance: device authorizations")
struct StoreConformanceDeviceAuthorizationTests {
    typealias Fixture = StoreConformance

    static func authorization(_ device: Character, _ user: Character, tenantID: String) -> DeviceAuthorization {
        DeviceAuthorization(
            deviceCodeHash: String(repeating: device, count: 64), userCodeHash: String(repeating: user, count: 64),
            tenantID: tenantID, clientID: "app", scopes: ["openid", "offline_access"], interval: 5,
            createdAt: Fixture.now, expiresAt: Fixture.now.addingTimeInterval(600))
    }

    @Test("authorizations read back by device or user code hash; hashes are unique", arguments: StoreConformance.implementations)
    func roundTrip(_ factory: StoreFactory) throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let (acme, _) = try Fixture.seed(store)
        let record = Self.authorization("a", "b", tenantID: acme.id)
        try store.write { tx throws in try tx.insert(record) }
        try store.read { tx throws in
            #expect(try tx.deviceAuthorization(deviceCodeHash: record.deviceCodeHash) == record)
            #expect(try tx.deviceAuthorization(userCodeHash: record.userCodeHash, tenantID: acme.id) == record)
            #expect(try tx.deviceAuthorization(userCodeHash: record.userCodeHash, tenantID: "elsewhere") == nil)
            #expect(try tx.deviceAuthorization(deviceCodeHash: String(repeating: "f", count: 64)) == nil)
        }
        Fixture.expectConflict("same device code") {
            try store.write { tx throws in try tx.insert(Self.authorization("a", "c", tenantID: acme.id)) }
        }
        Fixture.expectConflict("same user code") {
            try store.write { tx throws in try tx.insert(Self.authorization("d", "b", tenantID: acme.id)) }
        }
        let at = Fixture.now.addingTimeInterval(3)
        try store.write { tx throws in try tx.recordDevicePoll(deviceCodeHash: record.deviceCodeHash, at: at, interval: 10) }
        let polled = try store.read { tx throws in try tx.deviceAuthorization(deviceCodeHash: record.deviceCodeHash) }
        #expect(polled?.lastPolledAt == at)
        #expect(polled?.interval == 10)
    }

    @Test("a decision applies once, to a pending unexpired one, among many threads", arguments: StoreConformance.implementations)
    func decideOnce(_ factory: StoreFactory) async throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let (acme, user) = try Fixture.seed(store)
        let record = Self.authorization("a", "b", tenantID: acme.id)
        try store.write { tx throws in try tx.insert(record) }
        let authTime = Fixture.now.addingTimeInterval(-30)
        let outcomes = await Fixture.onThreads(8) { index in
            try store.write { tx throws in
                try tx.decideDeviceAuthorization(
                    userCodeHash: record.userCodeHash, tenantID: acme.id,
                    decision: index.isMultiple(of: 2)
                        ? .approved(userID: user.id, authTime: authTime, amr: ["pwd", "mfa"]) : .denied,
                    at: Fixture.now)
            }
        }
        #expect(outcomes.compactMap { try? $0.get() }.filter { $0 }.count == 1, "\(outcomes)")
        let decided = try #require(
            try store.read { tx throws in try tx.deviceAuthorization(deviceCodeHash: record.deviceCodeHash) })
        if decided.status == .approved {
            #expect(decided.userID == user.id)
            #expect(decided.authTime == authTime)
            #expect(decided.amr == ["pwd", "mfa"])
        } else {
            #expect(decided.status == .denied)
            #expect(decided.userID == nil)
        }
        // Expired: nothing applies.
        let late = Self.authorization("c", "d", tenantID: acme.id)
        try store.write { tx throws in try tx.insert(late) }
        #expect(
            try store.write { tx throws in
                try tx.decideDeviceAuthorization(
                    userCodeHash: late.userCodeHash, tenantID: acme.id, decision: .denied,
                    at: late.expiresAt.addingTimeInterval(1))
            } == false)
    }

    @Test("consuming hands an approved one out once; a pending one is not consumed", arguments: StoreConformance.implementations)
    func consumeOnce(_ factory: StoreFactory) async throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let (acme, user) = try Fixture.seed(store)
        let record = Self.authorization("a", "b", tenantID: acme.id)
        try store.write { tx throws in try tx.insert(record) }
        #expect(
            try store.write { tx throws in try tx.consumeApprovedDeviceAuthorization(deviceCodeHash: record.deviceCodeHash) }
                == nil)
        _ = try store.write { tx throws in
            try tx.decideDeviceAuthorization(
                userCodeHash: record.userCodeHash, tenantID: acme.id,
                decision: .approved(userID: user.id, authTime: Fixture.now, amr: ["pwd"]), at: Fixture.now)
        }
        let outcomes = await Fixture.onThreads(8) { _ in
            try store.write { tx throws in try tx.consumeApprovedDeviceAuthorization(deviceCodeHash: record.deviceCodeHash) }
        }
        let taken = outcomes.compactMap { try? $0.get() }.compactMap { $0 }
        #expect(taken.count == 1, "\(outcomes)")
        #expect(taken.first?.status == .approved)
        try store.read { tx throws in #expect(try tx.deviceAuthorization(deviceCodeHash: record.deviceCodeHash) == nil) }
    }

    @Test("purging deletes authorizations that expired before the cut-off only", arguments: StoreConformance.implementations)
    func purge(_ factory: StoreFactory) throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let (acme, _) = try Fixture.seed(store)
        var old = Self.authorization("a", "b", tenantID: acme.id)
        old.expiresAt = Fixture.now.addingTimeInterval(-10)
        let fresh = Self.authorization("c", "d", tenantID: acme.id)
        try store.write { tx throws in
            try tx.insert(old)
            try tx.insert(fresh)
        }
        try store.write { tx throws in try tx.purge(outboxBefore: Fixture.now, sessionsBefore: Fixture.now) }
        try store.read { tx throws in
            #expect(try tx.deviceAuthorization(deviceCodeHash: old.deviceCodeHash) == nil)
            #expect(try tx.deviceAuthorization(deviceCodeHash: fresh.deviceCodeHash) == fresh)
        }
    }
}
