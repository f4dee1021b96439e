import Foundation
import LatchServer
import Testing

/// Out-of-band codes come back by hash with everything they are bound to; a hash is unique;
/// consuming is one conditional delete that hands the code to exactly one of concurrent callers;
/// purging drops the expired ones.
@Suite("Store conformance: out-of-band codes")
struct StoreConformanceOobCodeTests {
    typealias Fixture = StoreConformance

    static func code(_ hash: String, tenantID: String, userID: String?, kind: OobCodeKind = .passwordReset) -> OobCode {
        OobCode(
            codeHash: hash, tenantID: tenantID, clientID: "app", kind: kind, userID: userID, email: "ada@example.com",
            newEmail: kind == .verifyAndChangeEmail ? "ada.new@example.com" : nil,
            continueURL: kind == .emailSignIn ? "https://app.example.com/done" : nil, createdAt: Fixture.now,
            expiresAt: Fixture.now.addingTimeInterval(3600))
    }

    @Test("codes read back by hash, of every kind, with and without an account", arguments: StoreConformance.implementations)
    func roundTrip(_ factory: StoreFactory) throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let (acme, user) = try Fixture.seed(store)
        let codes = OobCodeKind.allCases.enumerated().map { index, kind in
            Self.code(String(repeating: "\(index)", count: 64), tenantID: acme.id, userID: index == 3 ? nil : user.id, kind: kind)
        }
        try store.write { tx throws in for code in codes { try tx.insert(code) } }
        try store.read { tx throws in
            for code in codes { #expect(try tx.oobCode(hash: code.codeHash) == code) }
            #expect(try tx.oobCode(hash: String(repeating: "f", count: 64)) == nil)
        }
        Fixture.expectConflict("same hash") { try store.write { tx throws in try tx.insert(codes[0]) } }
    }

    @Test("consuming hands the code out once, to one of many threads", arguments: StoreConformance.implementations)
    func consumeOnce(_ factory: StoreFactory) async throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let (acme, user) = try Fixture.seed(store)
        let code = Self.code(String(repeating: "a", count: 64), tenantID: acme.id, userID: user.id)
        try store.write { tx throws in try tx.insert(code) }
        let outcomes = await Fixture.onThreads(8) { _ in
            try store.write { tx throws in try tx.consumeOobCode(hash: code.codeHash) }
        }
        let taken = outcomes.compactMap { try? $0.get() }.compactMap { $0 }
        #expect(taken == [code], "\(outcomes)")
        try store.read { tx throws in #expect(try tx.oobCode(hash: code.codeHash) == nil) }
        #expect(try store.write { tx throws in try tx.consumeOobCode(hash: code.codeHash) } == nil)
    }

    @Test("purging deletes codes that expired before the cut-off only", arguments: StoreConformance.implementations)
    func purge(_ factory: StoreFactory) throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let (acme, user) = try Fixture.seed(store)
        var old = Self.code(String(repeating: "b", count: 64), tenantID: acme.id, userID: user.id)
        old.expiresAt = Fixture.now.addingTimeInterval(-10)
        let fresh = Self.code(String(repeating: "c", count: 64), tenantID: acme.id, userID: user.id)
        try store.write { tx throws in
            try tx.insert(old)
            try tx.insert(fresh)
        }
        try store.write { tx throws in try tx.purge(outboxBefore: Fixture.now, sessionsBefore: Fixture.now) }
        try store.read { tx throws in
            #expect(try tx.oobCode(hash: old.codeHash) == nil)
            #expect(try tx.oobCode(hash: fresh.codeHash) == fresh)
        }
    }
}
