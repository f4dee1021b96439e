import Foundation
import LatchServer
import Testing

/// The conditional writes, one caller at a time: each applies only from the state the caller
/// names, reports whether it did, and changes nothing when it did not. The failure counter and the
/// sign-in delay change only through their own statements.
@Suite("Store conformance: compare-and-set")
struct StoreConformanceCompareAndSetTests {
    typealias Fixture = StoreConformance

    // MARK: - Flows

    @Test("replace applies only with the current token hash", arguments: StoreConformance.implementations)
    func replaceFlow(_ factory: StoreFactory) throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let original = Fixture.flow(tokenHash: "hash-1")
        try store.write { try $0.insert(original) }

        var advanced = original
        advanced.tokenHash = "hash-2"
        advanced.step = .verified
        advanced.state.code = nil
        advanced.state.emailVerified = true
        advanced.state.amr = ["otp"]
        advanced.expiresAt = Fixture.date(1_700_001_000_000)
        #expect(try store.write { try $0.replace(advanced, expectingTokenHash: "hash-1") })
        try store.read { tx throws in
            #expect(try tx.flow(tokenHash: "hash-1") == nil)
            #expect(try tx.flow(tokenHash: "hash-2") == advanced)
        }

        // A second request holding the old token loses, whatever it carries.
        var late = original
        late.tokenHash = "hash-3"
        #expect(try store.write { try $0.replace(late, expectingTokenHash: "hash-1") } == false)
        #expect(try store.write { try $0.replace(late, expectingTokenHash: "hash-unknown") } == false)
        var otherFlow = late
        otherFlow.id = "flow-unknown"
        #expect(try store.write { try $0.replace(otherFlow, expectingTokenHash: "hash-2") } == false)
        try store.read { tx throws in
            #expect(try tx.flow(tokenHash: "hash-3") == nil)
            #expect(try tx.flow(tokenHash: "hash-2") == advanced)
        }
    }

    @Test("consumeFlow applies once, and only with the current token hash", arguments: StoreConformance.implementations)
    func consumeFlow(_ factory: StoreFactory) throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let flow = Fixture.flow()
        try store.write { try $0.insert(flow) }

        #expect(try store.write { try $0.consumeFlow(id: flow.id, tokenHash: "stale-hash") } == false)
        #expect(try store.write { try $0.consumeFlow(id: "other-flow", tokenHash: flow.tokenHash) } == false)
        #expect(try store.read { try $0.flow(tokenHash: flow.tokenHash) } == flow)
        #expect(try store.write { try $0.consumeFlow(id: flow.id, tokenHash: flow.tokenHash) })
        #expect(try store.write { try $0.consumeFlow(id: flow.id, tokenHash: flow.tokenHash) } == false)
        #expect(try store.read { try $0.flow(tokenHash: flow.tokenHash) } == nil)
    }

    // MARK: - Refresh tokens

    @Test("rotateRefreshToken applies once; the first successor stays", arguments: StoreConformance.implementations)
    func rotateRefreshToken(_ factory: StoreFactory) throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let family = Fixture.family()
        let token = RefreshTokenRecord(hash: "rt-1", familyID: family.id, createdAt: Fixture.now)
        try store.write { tx throws in
            try tx.insert(family)
            try tx.insert(token)
        }

        let rotatedAt = Fixture.date(1_700_000_100_000)
        #expect(try store.write { try $0.rotateRefreshToken(hash: "rt-1", successorHash: "rt-2", at: rotatedAt) })
        #expect(
            try store.write {
                try $0.rotateRefreshToken(hash: "rt-1", successorHash: "rt-3", at: Fixture.date(1_700_000_200_000))
            }
                == false)
        #expect(try store.write { try $0.rotateRefreshToken(hash: "missing", successorHash: "rt-4", at: rotatedAt) } == false)
        #expect(
            try store.read { try $0.refreshToken(hash: "rt-1") }
                == RefreshTokenRecord(
                    hash: "rt-1", familyID: family.id, createdAt: Fixture.now, rotatedAt: rotatedAt, successorHash: "rt-2"))
    }

    @Test(
        "replaceUnusedSuccessor applies only while the successor is unused, and makes the new one the successor",
        arguments: StoreConformance.implementations)
    func replaceUnusedSuccessor(_ factory: StoreFactory) throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let family = Fixture.family()
        try store.write { tx throws in
            try tx.insert(family)
            try tx.insert(RefreshTokenRecord(hash: "parent", familyID: family.id, createdAt: Fixture.now))
            #expect(try tx.rotateRefreshToken(hash: "parent", successorHash: "s1", at: Fixture.now))
            try tx.insert(RefreshTokenRecord(hash: "s1", familyID: family.id, createdAt: Fixture.now))
        }

        // Unused: replaced, and the replaced successor is gone.
        #expect(
            try store.write { tx throws in
                guard try tx.replaceUnusedSuccessor(of: "parent", current: "s1", with: "s2") else { return false }
                try tx.insert(RefreshTokenRecord(hash: "s2", familyID: family.id, createdAt: Fixture.now))
                return true
            })
        try store.read { tx throws in
            #expect(try tx.refreshToken(hash: "parent")?.successorHash == "s2")
            #expect(try tx.refreshToken(hash: "parent")?.rotatedAt == Fixture.now)
            #expect(try tx.refreshToken(hash: "s1") == nil)
        }

        // Already replaced: a request that read the old successor loses.
        #expect(try store.write { try $0.replaceUnusedSuccessor(of: "parent", current: "s1", with: "s3") } == false)
        #expect(try store.read { try $0.refreshToken(hash: "parent")?.successorHash } == "s2")

        // Used (rotated in turn): no replacement, the chain stays.
        #expect(try store.write { try $0.rotateRefreshToken(hash: "s2", successorHash: "s4", at: Fixture.now) })
        #expect(try store.write { try $0.replaceUnusedSuccessor(of: "parent", current: "s2", with: "s5") } == false)
        try store.read { tx throws in
            #expect(try tx.refreshToken(hash: "parent")?.successorHash == "s2")
            #expect(try tx.refreshToken(hash: "s2")?.successorHash == "s4")
        }
    }

    @Test(
        "replaceUnusedSuccessor naming a token that is not the successor changes nothing",
        arguments: StoreConformance.implementations)
    func replaceUnusedSuccessorOfAnotherToken(_ factory: StoreFactory) throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let family = Fixture.family()
        let unrelated = RefreshTokenRecord(hash: "unrelated-head", familyID: "family-2", createdAt: Fixture.now)
        try store.write { tx throws in
            try tx.insert(family)
            try tx.insert(Fixture.family("family-2"))
            try tx.insert(RefreshTokenRecord(hash: "parent", familyID: family.id, createdAt: Fixture.now))
            #expect(try tx.rotateRefreshToken(hash: "parent", successorHash: "s1", at: Fixture.now))
            try tx.insert(RefreshTokenRecord(hash: "s1", familyID: family.id, createdAt: Fixture.now))
            try tx.insert(unrelated)
        }

        #expect(try store.write { try $0.replaceUnusedSuccessor(of: "parent", current: "unrelated-head", with: "s2") } == false)
        try store.read { tx throws in
            #expect(try tx.refreshToken(hash: "parent")?.successorHash == "s1")
            #expect(try tx.refreshToken(hash: "s1") != nil)
            #expect(
                try tx.refreshToken(hash: "unrelated-head") == unrelated,
                "a replacement that did not apply deleted another session's token")
        }
    }

    // MARK: - Sign-in failures

    @Test("recordSignInFailure counts 1, 2, 3 and answers nil for an unknown user", arguments: StoreConformance.implementations)
    func recordSignInFailure(_ factory: StoreFactory) throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let (tenant, user) = try Fixture.seed(store)
        let counts = try (1...3).map { _ in try store.write { try $0.recordSignInFailure(userID: user.id) } }
        #expect(counts == [1, 2, 3])
        #expect(try store.write { try $0.recordSignInFailure(userID: "nobody") } == nil)
        #expect(try store.read { try $0.user(id: user.id, tenantID: tenant.id)?.failedSignIns } == 3)
    }

    @Test(
        "delaySignIn keeps the later of two dates; clearSignInFailures resets count and delay",
        arguments: StoreConformance.implementations)
    func delayAndClear(_ factory: StoreFactory) throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let (tenant, user) = try Fixture.seed(store)
        let stored = { try store.read { try $0.user(id: user.id, tenantID: tenant.id) } }
        let earlier = Fixture.date(1_700_000_060_000)
        let later = Fixture.date(1_700_000_120_000)
        let latest = Fixture.date(1_700_000_240_000)

        try store.write { try $0.delaySignIn(userID: user.id, until: later) }
        #expect(try stored()?.signInBlockedUntil == later)
        try store.write { try $0.delaySignIn(userID: user.id, until: earlier) }
        #expect(try stored()?.signInBlockedUntil == later)
        try store.write { try $0.delaySignIn(userID: user.id, until: latest) }
        #expect(try stored()?.signInBlockedUntil == latest)
        try store.write { try $0.delaySignIn(userID: "nobody", until: latest) }

        try store.write { tx throws in
            _ = try tx.recordSignInFailure(userID: user.id)
            _ = try tx.recordSignInFailure(userID: user.id)
        }
        #expect(try stored()?.failedSignIns == 2)
        try store.write { try $0.clearSignInFailures(userID: user.id) }
        #expect(try stored() == user)
        try store.write { try $0.clearSignInFailures(userID: user.id) }
        #expect(try stored() == user)
        #expect(try store.write { try $0.recordSignInFailure(userID: user.id) } == 1)
    }
}
