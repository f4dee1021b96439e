import Foundation
import LatchServer
import Testing

/// The three races the domain relies on the store to settle, run with real concurrent writers (one
/// OS thread and one ``Store/write(_:)`` each): one continuation token is redeemed once, one refresh
/// token grows the chain by exactly one head, and every failed sign-in is counted.
@Suite("Store conformance: races")
struct StoreConformanceRaceTests {
    typealias Fixture = StoreConformance

    @Test("50 concurrent redemptions of one continuation token: exactly one wins", arguments: StoreConformance.implementations)
    func concurrentFlowRedemption(_ factory: StoreFactory) async throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let flow = Fixture.flow()
        try store.write { try $0.insert(flow) }

        let outcomes = await StoreConformance.onThreads(50) { _ in
            try store.write { tx in try tx.consumeFlow(id: flow.id, tokenHash: flow.tokenHash) }
        }
        let answers = try outcomes.map { try $0.get() }
        #expect(answers.filter { $0 }.count == 1)
        #expect(try store.read { try $0.flow(tokenHash: flow.tokenHash) } == nil)
    }

    @Test("50 concurrent refreshes of one refresh token: one new head, no branch", arguments: StoreConformance.implementations)
    func concurrentRefresh(_ factory: StoreFactory) async throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let family = Fixture.family()
        let presented = "presented"
        let grace: TimeInterval = 5
        try store.write { tx throws in
            try tx.insert(family)
            try tx.insert(RefreshTokenRecord(hash: presented, familyID: family.id, createdAt: Fixture.now))
        }

        let successors = (0..<50).map { "successor-\($0)" }
        let outcomes = await StoreConformance.onThreads(successors.count) { index in
            let successor = successors[index]
            return try store.write { tx -> Bool in
                try Self.refresh(tx, presented: presented, successor: successor, familyID: family.id, grace: grace)
            }
        }
        let applied = try zip(successors, outcomes).filter { try $0.1.get() }.map(\.0)
        #expect(!applied.isEmpty)

        try store.read { tx throws in
            let parent = try #require(try tx.refreshToken(hash: presented))
            #expect(parent.rotatedAt != nil)
            let tokens = try successors.compactMap { try tx.refreshToken(hash: $0) }
            let heads = tokens.filter { $0.rotatedAt == nil && $0.familyID == family.id }
            #expect(heads.count == 1, "unrotated tokens in the family: \(heads.map(\.hash))")
            #expect(tokens.count == 1, "successors left in the family: \(tokens.map(\.hash))")
            let head = try #require(heads.first)
            #expect(parent.successorHash == head.hash)
            #expect(applied.contains(head.hash))
        }
    }

    /// One refresh as `TokenService.refresh` does it: rotate the presented token, or, if another
    /// request rotated it first, swap its still-unused successor for this one inside the grace window.
    /// - Returns: whether this request got a new head (and stored it).
    private static func refresh(
        _ tx: any StoreWriting, presented: String, successor: String, familyID: String, grace: TimeInterval
    ) throws -> Bool {
        let now = Fixture.now
        var applied = try tx.rotateRefreshToken(hash: presented, successorHash: successor, at: now)
        if !applied {
            // Re-read: the rotation that beat this request may have committed after its first read.
            guard let record = try tx.refreshToken(hash: presented), let rotatedAt = record.rotatedAt,
                let current = record.successorHash, now.timeIntervalSince(rotatedAt) <= grace
            else { return false }
            applied = try tx.replaceUnusedSuccessor(of: presented, current: current, with: successor)
        }
        if applied { try tx.insert(RefreshTokenRecord(hash: successor, familyID: familyID, createdAt: now)) }
        return applied
    }

    @Test(
        "100 concurrent failed sign-ins of one account: counted 1...100, ending at 100",
        arguments: StoreConformance.implementations)
    func concurrentFailureCount(_ factory: StoreFactory) async throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let (tenant, user) = try Fixture.seed(store)

        let outcomes = await StoreConformance.onThreads(100) { _ in
            try store.write { try $0.recordSignInFailure(userID: user.id) }
        }
        let counts = try outcomes.map { try $0.get() }
        #expect(counts.compactMap { $0 }.sorted() == Array(1...100))
        #expect(try store.read { try $0.user(id: user.id, tenantID: tenant.id)?.failedSignIns } == 100)
    }

    @Test(
        "40 concurrent attempt reservations with a delay from the fifth: exactly five admitted",
        arguments: StoreConformance.implementations)
    func concurrentReservations(_ factory: StoreFactory) async throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let (tenant, user) = try Fixture.seed(store)
        let now = Date()
        // What PasswordVerifier does in one write: reserve, and the attempt reaching the allowance
        // starts the delay.
        let outcomes = await StoreConformance.onThreads(40) { _ in
            try store.write { tx -> Int? in
                guard let count = try tx.reserveSignInAttempt(userID: user.id, at: now) else { return nil }
                if count >= 5 { try tx.delaySignIn(userID: user.id, until: now.addingTimeInterval(60)) }
                return count
            }
        }
        let admitted = try outcomes.compactMap { try $0.get() }
        #expect(admitted.sorted() == Array(1...5))
        #expect(try store.read { try $0.user(id: user.id, tenantID: tenant.id)?.failedSignIns } == 5)
        // Once the delay has passed, attempts are admitted again.
        #expect(try store.write { try $0.reserveSignInAttempt(userID: user.id, at: now.addingTimeInterval(61)) } == 6)
    }

    @Test(
        "40 concurrent reservations for an address without an account: exactly five admitted",
        arguments: StoreConformance.implementations)
    func concurrentAddressReservations(_ factory: StoreFactory) async throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let (tenant, _) = try Fixture.seed(store)
        let now = Date()
        let outcomes = await StoreConformance.onThreads(40) { _ in
            try store.write { tx -> Int? in
                guard let count = try tx.reserveAddressAttempt(tenantID: tenant.id, addressKey: "k", at: now) else {
                    return nil
                }
                if count >= 5 { try tx.delayAddress(tenantID: tenant.id, addressKey: "k", until: now.addingTimeInterval(60)) }
                return count
            }
        }
        #expect(try outcomes.compactMap { try $0.get() }.sorted() == Array(1...5))
        let delay = try store.read { try $0.addressDelay(tenantID: tenant.id, addressKey: "k") }
        #expect(delay.map { abs($0.timeIntervalSince(now.addingTimeInterval(60))) < 0.01 } == true)
        #expect(try store.read { try $0.addressDelay(tenantID: tenant.id, addressKey: "other") } == nil)
    }

    @Test("clearing a keyed counter removes its count and delay, and only its own", arguments: StoreConformance.implementations)
    func clearAddressAttempts(_ factory: StoreFactory) throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let (tenant, _) = try Fixture.seed(store)
        let now = Date()
        try store.write { tx in
            for key in ["device", "address"] {
                for _ in 0..<5 { _ = try tx.reserveAddressAttempt(tenantID: tenant.id, addressKey: key, at: now) }
                try tx.delayAddress(tenantID: tenant.id, addressKey: key, until: now.addingTimeInterval(60))
            }
        }
        try store.write { try $0.clearAddressAttempts(tenantID: tenant.id, addressKey: "device") }
        #expect(try store.read { try $0.addressDelay(tenantID: tenant.id, addressKey: "device") } == nil)
        #expect(try store.read { try $0.addressDelay(tenantID: tenant.id, addressKey: "address") } != nil)
        #expect(try store.write { try $0.reserveAddressAttempt(tenantID: tenant.id, addressKey: "device", at: now) } == 1)
        #expect(try store.write { try $0.reserveAddressAttempt(tenantID: tenant.id, addressKey: "address", at: now) } == nil)
        try store.write { try $0.clearAddressAttempts(tenantID: tenant.id, addressKey: "absent") }
    }
}
