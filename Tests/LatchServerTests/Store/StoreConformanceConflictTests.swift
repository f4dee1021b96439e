import Foundation
import LatchServer
import Testing

/// Uniqueness rules surface as ``StoreError/conflict``, and a unit of work is atomic: when a
/// ``Store/write(_:)`` or ``Store/writeRelaxed(_:)`` body throws, none of its writes persist and its
/// error comes back unchanged.
@Suite("Store conformance: conflicts and atomicity")
struct StoreConformanceConflictTests {
    typealias Fixture = StoreConformance

    @Test("a second tenant with a taken name is a conflict", arguments: StoreConformance.implementations)
    func tenantNameConflict(_ factory: StoreFactory) throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let tenant = Fixture.tenant()
        try store.write { try $0.insert(tenant) }

        Fixture.expectConflict { try store.write { try $0.insert(Fixture.tenant(tenant.name, id: "tid-another")) } }
        #expect(try store.read { try $0.tenants() } == [tenant])
    }

    @Test(
        "a second client with a taken id in one tenant is a conflict; another tenant may reuse it",
        arguments: StoreConformance.implementations)
    func clientIDConflict(_ factory: StoreFactory) throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let acme = Fixture.tenant("acme")
        let other = Fixture.tenant("other")
        let client = Fixture.client(tenantID: acme.id)
        try store.write { tx throws in
            try tx.insert(acme)
            try tx.insert(other)
            try tx.insert(client)
        }

        Fixture.expectConflict { try store.write { try $0.insert(Fixture.client(tenantID: acme.id, name: "Impostor")) } }
        try store.write { try $0.insert(Fixture.client(tenantID: other.id)) }
        try store.read { tx throws in
            #expect(try tx.clients(tenantID: acme.id) == [client])
            #expect(try tx.clients(tenantID: other.id).count == 1)
        }
    }

    @Test(
        "a second user with a taken e-mail in one tenant is a conflict; another tenant may reuse it",
        arguments: StoreConformance.implementations)
    func userEmailConflict(_ factory: StoreFactory) throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let (tenant, user) = try Fixture.seed(store)
        let other = Fixture.tenant("other")
        try store.write { try $0.insert(other) }

        Fixture.expectConflict {
            try store.write { try $0.insert(Fixture.user("user-2", email: user.email, tenantID: tenant.id)) }
        }
        try store.write { try $0.insert(Fixture.user("user-3", email: user.email, tenantID: other.id)) }
        try store.read { tx throws in
            #expect(try tx.userCount(tenantID: tenant.id) == 1)
            #expect(try tx.user(email: user.email, tenantID: tenant.id) == user)
            #expect(try tx.user(email: user.email, tenantID: other.id)?.id == "user-3")
        }
    }

    @Test(
        "a write body that throws leaves nothing behind, and its error comes back unchanged",
        arguments: StoreConformance.implementations)
    func throwingBodyRollsBack(_ factory: StoreFactory) throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let (tenant, user) = try Fixture.seed(store)
        let flow = Fixture.flow()
        let family = Fixture.family()
        try store.write { tx throws in
            try tx.insert(flow)
            try tx.insert(family)
            try tx.insert(RefreshTokenRecord(hash: "rt-1", familyID: family.id, createdAt: Fixture.now))
        }

        for relaxed in [false, true] {
            let body: (any StoreWriting) throws -> Void = { tx throws in
                try tx.insert(Fixture.tenant("newcomer"))
                try tx.insert(Fixture.client(tenantID: tenant.id))
                try tx.insert(Fixture.user("user-2", email: "bob@example.com", tenantID: tenant.id))
                var changed = user
                changed.displayName = "Changed"
                try tx.update(changed)
                _ = try tx.recordSignInFailure(userID: user.id)
                try tx.delaySignIn(userID: user.id, until: Fixture.date(1_800_000_000_000))
                _ = try tx.consumeFlow(id: flow.id, tokenHash: flow.tokenHash)
                _ = try tx.rotateRefreshToken(hash: "rt-1", successorHash: "rt-2", at: Fixture.now)
                try tx.revokeFamily(id: family.id, at: Fixture.now)
                try tx.insert(Fixture.message())
                try tx.insert(AuditEvent(tenantID: tenant.id, at: Fixture.now, kind: .signUp))
                // A conflict caught inside the body does not end the unit; the later throw still undoes it all.
                do {
                    try tx.insert(Fixture.tenant())
                } catch StoreError.conflict {}
                throw StoreConformance.Marker(id: relaxed ? 2 : 1)
            }
            #expect(throws: StoreConformance.Marker(id: relaxed ? 2 : 1)) {
                if relaxed { try store.writeRelaxed(body) } else { try store.write(body) }
            }
        }

        try store.read { tx throws in
            #expect(try tx.tenants() == [tenant])
            #expect(try tx.clients(tenantID: tenant.id) == [])
            #expect(try tx.users(tenantID: tenant.id, limit: 10) == [user])
            #expect(try tx.flow(tokenHash: flow.tokenHash) == flow)
            #expect(try tx.refreshToken(hash: "rt-1")?.rotatedAt == nil)
            #expect(try tx.tokenFamily(id: family.id) == family)
            #expect(try tx.outboxMessages(tenantID: nil, recipient: nil, limit: 10) == [])
            #expect(try tx.auditEvents(tenantID: tenant.id, limit: 10) == [])
        }
    }

    @Test(
        "a conflict thrown out of a write undoes the writes before it, and the store goes on working",
        arguments: StoreConformance.implementations)
    func conflictRollsBackTheUnit(_ factory: StoreFactory) throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let (tenant, _) = try Fixture.seed(store)

        Fixture.expectConflict {
            try store.write { tx throws in
                try tx.insert(Fixture.client(tenantID: tenant.id))
                try tx.insert(Fixture.message())
                try tx.insert(Fixture.tenant())
            }
        }
        try store.read { tx throws in
            #expect(try tx.client(id: "app", tenantID: tenant.id) == nil)
            #expect(try tx.pendingOutboxMessages(dueAt: Fixture.now, limit: 10) == [])
        }
        try store.write { try $0.insert(Fixture.client(tenantID: tenant.id)) }
        #expect(try store.read { try $0.client(id: "app", tenantID: tenant.id) } != nil)
    }

    @Test("writeRelaxed commits like write", arguments: StoreConformance.implementations)
    func relaxedWriteCommits(_ factory: StoreFactory) throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let flow = Fixture.flow()
        let answer = try store.writeRelaxed { tx -> Int in
            try tx.insert(flow)
            return 42
        }
        #expect(answer == 42)
        #expect(try store.read { try $0.flow(tokenHash: flow.tokenHash) } == flow)
    }
}
