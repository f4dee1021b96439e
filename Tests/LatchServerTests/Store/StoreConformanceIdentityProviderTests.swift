import Foundation
import LatchServer
import Testing

/// Identity providers and federated identities: round trips, one account per (tenant, provider,
/// raw id), and an account's deletion taking its identities along.
@Suite("Store conformance: identity providers")
struct StoreConformanceIdentityProviderTests {
    typealias Fixture = StoreConformance

    private static func provider(tenantID: String, id: String = "oidc.acme") -> IdentityProvider {
        IdentityProvider(
            tenantID: tenantID, providerID: id, issuer: "https://login.acme.test", clientID: "acme-app", jwksURL: nil,
            jwksJSON: #"{"keys":[]}"#, enabled: false, createdAt: Date(timeIntervalSince1970: 1_700_000_000))
    }

    private static func identity(tenantID: String, userID: String, rawID: String = "sub-1") -> FederatedIdentity {
        FederatedIdentity(
            tenantID: tenantID, providerID: "oidc.acme", rawID: rawID, userID: userID, email: "a@example.com",
            displayName: "A", photoURL: nil, createdAt: Date(timeIntervalSince1970: 1_700_000_000))
    }

    @Test(
        "providers and identities round-trip; duplicates conflict; deleting the user deletes its identities",
        arguments: StoreConformance.implementations)
    func roundTrip(_ factory: StoreFactory) throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let (tenant, user) = try Fixture.seed(store)
        let provider = Self.provider(tenantID: tenant.id)
        let identity = Self.identity(tenantID: tenant.id, userID: user.id)
        try store.write { tx throws in
            try tx.insert(provider)
            try tx.insert(identity)
        }
        try store.read { tx throws in
            #expect(try tx.identityProvider(tenantID: tenant.id, providerID: "oidc.acme") == provider)
            #expect(try tx.identityProviders(tenantID: tenant.id) == [provider])
            #expect(try tx.identityProvider(tenantID: "tid-other", providerID: "oidc.acme") == nil)
            #expect(try tx.federatedIdentity(tenantID: tenant.id, providerID: "oidc.acme", rawID: "sub-1") == identity)
            #expect(try tx.federatedIdentities(userID: user.id, tenantID: tenant.id) == [identity])
        }
        Fixture.expectConflict { try store.write { try $0.insert(provider) } }
        Fixture.expectConflict { try store.write { try $0.insert(identity) } }

        #expect(try store.write { try $0.deleteIdentityProvider(tenantID: tenant.id, providerID: "oidc.acme") })
        #expect(try store.write { try $0.deleteIdentityProvider(tenantID: tenant.id, providerID: "oidc.acme") } == false)
        #expect(try store.read { try $0.federatedIdentities(userID: user.id, tenantID: tenant.id) } == [identity])

        #expect(try store.write { try $0.deleteUser(id: user.id, tenantID: tenant.id) })
        #expect(try store.read { try $0.federatedIdentity(tenantID: tenant.id, providerID: "oidc.acme", rawID: "sub-1") } == nil)
    }

    @Test("unlinking removes the account's identity at that provider only", arguments: StoreConformance.implementations)
    func unlink(_ factory: StoreFactory) throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let (tenant, user) = try Fixture.seed(store)
        try store.write { try $0.insert(Self.identity(tenantID: tenant.id, userID: user.id)) }
        #expect(
            try store.write { try $0.deleteFederatedIdentity(tenantID: tenant.id, providerID: "oidc.other", userID: user.id) }
                == false)
        #expect(try store.write { try $0.deleteFederatedIdentity(tenantID: tenant.id, providerID: "oidc.acme", userID: user.id) })
        #expect(try store.read { try $0.federatedIdentities(userID: user.id, tenantID: tenant.id) }.isEmpty)
    }
}
