import Foundation
import LatchServer
import Testing

/// Outbox messages claimed by several deliverers at once (instances sharing one database): each
/// message goes to exactly one of them, and comes back when its lease ends unreported.
@Suite("Store conformance: outbox claims")
struct StoreConformanceOutboxClaimTests {
    typealias Fixture = StoreConformance

    @Test(
        "20 concurrent claims of 60 due messages: each message claimed exactly once", arguments: StoreConformance.implementations)
    func concurrentClaims(_ factory: StoreFactory) async throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        try store.write { tx throws in
            for index in 0..<60 { try tx.insert(Fixture.message(to: "claim-\(index)@example.com")) }
        }
        let now = Fixture.now
        let lease = now.addingTimeInterval(120)
        let outcomes = await StoreConformance.onThreads(20) { _ in
            try store.writeRelaxed { tx in try tx.claimOutboxMessages(dueAt: now, limit: 5, leaseUntil: lease).map(\.id) }
        }
        let claimed = try outcomes.flatMap { try $0.get() }
        #expect(claimed.count == 60)
        #expect(Set(claimed).count == 60)
        // Claimed messages are not due again until their lease ends, and are then.
        #expect(try store.read { try $0.pendingOutboxMessages(dueAt: now, limit: 100) } == [])
        let expired = try store.read { try $0.pendingOutboxMessages(dueAt: lease, limit: 100) }
        #expect(expired.count == 60)
        #expect(expired.allSatisfy { $0.nextAttemptAt == lease && $0.attempts == 0 })
    }

    @Test(
        "a claim takes due messages oldest first and skips delivered, abandoned and later ones",
        arguments: StoreConformance.implementations)
    func claimSelectsDueOnly(_ factory: StoreFactory) throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let now = Fixture.now
        var later = Fixture.message(to: "later@example.com")
        later.nextAttemptAt = now.addingTimeInterval(1)
        try store.write { tx throws in
            for recipient in ["first", "second", "delivered", "abandoned"] {
                try tx.insert(Fixture.message(to: "\(recipient)@example.com"))
            }
            try tx.insert(later)
        }
        let ids = Dictionary(
            uniqueKeysWithValues: try store.read { try $0.outboxMessages(tenantID: nil, recipient: nil, limit: 10) }.map {
                ($0.recipient, $0.id)
            })
        try store.write { tx throws in
            try tx.markDelivered(ids: [ids["delivered@example.com"]!], at: now, redact: false)
            try tx.markAbandoned(ids: [ids["abandoned@example.com"]!], at: now)
        }
        let claimed = try store.write { try $0.claimOutboxMessages(dueAt: now, limit: 10, leaseUntil: now + 60) }
        #expect(claimed.map(\.recipient) == ["first@example.com", "second@example.com"])
        #expect(try store.write { try $0.claimOutboxMessages(dueAt: now, limit: 10, leaseUntil: now + 60) } == [])
    }
}
