import Foundation
import LatchServer
import Testing

/// Every record type comes back from a ``Store`` exactly as it went in, through each of the queries
/// that find it, in the documented order; and ``AccountWriting/update(_:)`` leaves the sign-in
/// failure state alone.
@Suite("Store conformance: round trips")
struct StoreConformanceRoundTripTests {
    typealias Fixture = StoreConformance

    // MARK: - Directory

    @Test(
        "tenants read back by name and by id, with their settings; the list is by name",
        arguments: StoreConformance.implementations)
    func tenants(_ factory: StoreFactory) throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let zeta = Fixture.tenant("zeta")
        var alpha = Fixture.tenant("alpha")
        alpha.settings = TenantSettings()
        try store.write { tx throws in
            try tx.insert(zeta)
            try tx.insert(alpha)
        }

        try store.read { tx throws in
            #expect(try tx.tenant(named: "zeta") == zeta)
            #expect(try tx.tenant(id: zeta.id) == zeta)
            #expect(try tx.tenant(named: "alpha") == alpha)
            #expect(try tx.tenant(named: "missing") == nil)
            #expect(try tx.tenant(id: "tid-missing") == nil)
            #expect(try tx.tenants() == [alpha, zeta])
        }
    }

    @Test("clients read back one by one and per tenant by id, never across tenants", arguments: StoreConformance.implementations)
    func clients(_ factory: StoreFactory) throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let acme = Fixture.tenant("acme")
        let other = Fixture.tenant("other")
        let web = Fixture.client("web", tenantID: acme.id)
        var app = Fixture.client("app", tenantID: acme.id)
        app.isPublic = true
        app.allowedScopes = []
        let foreign = Fixture.client("app", tenantID: other.id, name: "Other app")
        try store.write { tx throws in
            try tx.insert(acme)
            try tx.insert(other)
            try tx.insert(web)
            try tx.insert(app)
            try tx.insert(foreign)
        }

        try store.read { tx throws in
            #expect(try tx.client(id: "web", tenantID: acme.id) == web)
            #expect(try tx.client(id: "app", tenantID: acme.id) == app)
            #expect(try tx.client(id: "app", tenantID: other.id) == foreign)
            #expect(try tx.client(id: "web", tenantID: other.id) == nil)
            #expect(try tx.clients(tenantID: acme.id) == [app, web])
            #expect(try tx.clients(tenantID: "tid-missing") == [])
            #expect(try tx.client(apiKey: foreign.apiKey) == foreign)
            #expect(try tx.client(apiKey: web.apiKey) == web)
            #expect(try tx.client(apiKey: "no-such-key-000000") == nil)
        }
    }

    @Test("deleting a user removes it and its methods, in its own tenant only", arguments: StoreConformance.implementations)
    func deleteUser(_ factory: StoreFactory) throws {
        let subject = try factory.make()
        defer { subject.close() }
        let acme = Fixture.tenant("acme")
        let user = Fixture.user(tenantID: acme.id)
        let method = AuthMethod(
            id: "m-1", tenantID: acme.id, userID: user.id, channel: .email, target: "ada@example.com", verified: true,
            createdAt: Fixture.now)
        try subject.store.write { tx throws in
            try tx.insert(acme)
            try tx.insert(user)
            try tx.insert(method)
        }
        #expect(try subject.store.write { try $0.deleteUser(id: user.id, tenantID: "tid-other") } == false)
        #expect(try subject.store.write { try $0.deleteUser(id: user.id, tenantID: acme.id) } == true)
        #expect(try subject.store.write { try $0.deleteUser(id: user.id, tenantID: acme.id) } == false)
        try subject.store.read { tx throws in
            #expect(try tx.user(id: user.id, tenantID: acme.id) == nil)
            #expect(try tx.authMethods(userID: user.id, tenantID: acme.id).isEmpty)
        }
    }

    @Test("an API key names one client across all tenants", arguments: StoreConformance.implementations)
    func apiKeysAreUnique(_ factory: StoreFactory) throws {
        let subject = try factory.make()
        defer { subject.close() }
        let acme = Fixture.tenant("acme")
        let other = Fixture.tenant("other")
        var first = Fixture.client("web", tenantID: acme.id)
        first.apiKey = "shared-key-0123456789"
        var second = Fixture.client("web", tenantID: other.id)
        second.apiKey = first.apiKey
        try subject.store.write { tx throws in
            try tx.insert(acme)
            try tx.insert(other)
            try tx.insert(first)
        }
        #expect(throws: StoreError.self) { try subject.store.write { tx throws in try tx.insert(second) } }
        #expect(try subject.store.read { try $0.client(apiKey: "shared-key-0123456789") } == first)
    }

    @Test(
        "signing keys come latest activation first, and retiring spares the kept key", arguments: StoreConformance.implementations
    )
    func signingKeys(_ factory: StoreFactory) throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let tenant = Fixture.tenant()
        let oldest = Fixture.signingKey("k1", createdAt: Fixture.date(1_000_000), activatesAt: Fixture.date(1_000_000))
        let current = Fixture.signingKey("k2", createdAt: Fixture.date(2_000_000), activatesAt: Fixture.date(2_000_000))
        let next = Fixture.signingKey("k3", createdAt: Fixture.date(2_500_000), activatesAt: Fixture.date(3_000_000))
        var alreadyRetired = Fixture.signingKey("k0", createdAt: Fixture.date(500_000), activatesAt: Fixture.date(500_000))
        alreadyRetired.retiredAt = Fixture.date(1_000_000)
        try store.write { tx throws in
            try tx.insert(tenant)
            for key in [current, alreadyRetired, next, oldest] { try tx.insert(key) }
        }
        #expect(try store.read { try $0.signingKeys(tenantID: tenant.id) } == [next, current, oldest, alreadyRetired])

        let retiredAt = Fixture.date(3_000_000)
        try store.write { try $0.retireSigningKeys(tenantID: tenant.id, except: "k3", at: retiredAt) }
        let keys = try store.read { try $0.signingKeys(tenantID: tenant.id) }
        #expect(keys.map(\.id) == ["k3", "k2", "k1", "k0"])
        #expect(keys.map(\.retiredAt) == [nil, retiredAt, retiredAt, Fixture.date(1_000_000)])
        #expect(keys.first?.sealedPrivateKey == next.sealedPrivateKey)
    }

    // MARK: - Accounts

    @Test(
        "users read back by id and by e-mail within their tenant; the list is oldest first",
        arguments: StoreConformance.implementations)
    func users(_ factory: StoreFactory) throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let (tenant, ada) = try Fixture.seed(store)
        var grace = Fixture.user(
            "user-0", email: "grace@example.com", tenantID: tenant.id, createdAt: Fixture.date(1_600_000_000_000))
        grace.passwordHash = nil
        grace.displayName = nil
        grace.attributes = [:]
        grace.emailVerified = false
        grace.disabled = true
        grace.failedSignIns = 4
        grace.signInBlockedUntil = Fixture.date(1_700_000_900_500)
        try store.write { try $0.insert(grace) }

        try store.read { tx throws in
            #expect(try tx.user(id: ada.id, tenantID: tenant.id) == ada)
            #expect(try tx.user(email: ada.email, tenantID: tenant.id) == ada)
            #expect(try tx.user(id: grace.id, tenantID: tenant.id) == grace)
            #expect(try tx.user(email: grace.email, tenantID: tenant.id) == grace)
            #expect(try tx.user(id: ada.id, tenantID: "tid-other") == nil)
            #expect(try tx.user(email: ada.email, tenantID: "tid-other") == nil)
            #expect(try tx.user(email: "nobody@example.com", tenantID: tenant.id) == nil)
            #expect(try tx.users(tenantID: tenant.id, limit: 10) == [grace, ada])
            #expect(try tx.users(tenantID: tenant.id, limit: 1) == [grace])
            #expect(try tx.userCount(tenantID: tenant.id) == 2)
            #expect(try tx.userCount(tenantID: "tid-other") == 0)
        }
    }

    @Test(
        "update changes the profile and credential but never the failure count or delay",
        arguments: StoreConformance.implementations)
    func updateLeavesSignInFailuresAlone(_ factory: StoreFactory) throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let (tenant, stale) = try Fixture.seed(store)
        let blockedUntil = Fixture.date(1_700_000_999_000)
        try store.write { tx throws in
            _ = try tx.recordSignInFailure(userID: stale.id)
            _ = try tx.recordSignInFailure(userID: stale.id)
            try tx.delaySignIn(userID: stale.id, until: blockedUntil)
        }

        // A copy loaded before the failures were counted: its zero count and nil delay must not win.
        var changed = stale
        changed.email = "ada.lovelace@example.com"
        changed.emailVerified = false
        changed.passwordHash = "$argon2id$v=19$m=65536,t=3,p=4$bmV3$bmV3"
        changed.displayName = "Countess of Lovelace"
        changed.attributes = ["displayName": "Countess of Lovelace"]
        changed.disabled = true
        changed.validSince = Fixture.date(1_700_000_500_000)
        try store.write { try $0.update(changed) }

        var expected = changed
        expected.failedSignIns = 2
        expected.signInBlockedUntil = blockedUntil
        try store.read { tx throws in
            #expect(try tx.user(id: stale.id, tenantID: tenant.id) == expected)
            #expect(try tx.user(email: "ada.lovelace@example.com", tenantID: tenant.id) == expected)
            #expect(try tx.user(email: stale.email, tenantID: tenant.id) == nil)
        }
    }

    // MARK: - Flows

    @Test(
        "a flow reads back by its token hash with its whole state; expired flows are deleted",
        arguments: StoreConformance.implementations)
    func flows(_ factory: StoreFactory) throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let flow = Fixture.flow()
        var bare = Fixture.flow("flow-2", tokenHash: "token-hash-2", expiresAt: Fixture.date(1_700_000_000_500))
        bare.kind = .signInContinuation
        bare.step = .ready
        bare.userID = nil
        bare.state = FlowState(support: [])
        try store.write { tx throws in
            try tx.insert(flow)
            try tx.insert(bare)
        }
        try store.read { tx throws in
            #expect(try tx.flow(tokenHash: flow.tokenHash) == flow)
            #expect(try tx.flow(tokenHash: bare.tokenHash) == bare)
            #expect(try tx.flow(tokenHash: "unknown") == nil)
        }

        // Strictly before: a flow expiring at the cut-off itself stays.
        try store.write { try $0.deleteFlows(expiredBefore: Fixture.date(1_700_000_000_500)) }
        #expect(try store.read { try $0.flow(tokenHash: bare.tokenHash) } == bare)
        try store.write { try $0.deleteFlows(expiredBefore: Fixture.date(1_700_000_000_501)) }
        try store.read { tx throws in
            #expect(try tx.flow(tokenHash: bare.tokenHash) == nil)
            #expect(try tx.flow(tokenHash: flow.tokenHash) == flow)
        }
    }
}
