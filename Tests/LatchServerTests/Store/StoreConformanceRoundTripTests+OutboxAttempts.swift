import Foundation
import LatchServer
import Testing

// MARK: - Outbox delivery attempts, backoff and dead letters

extension StoreConformanceRoundTripTests {
    @Test(
        "pending outbox messages are due-only: never attempted, or next attempt not after now; oldest first",
        arguments: StoreConformance.implementations)
    func outboxDueOnly(_ factory: StoreFactory) throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let now = Fixture.date(1_700_000_100_000)
        var fresh = Fixture.message(to: "fresh@example.com", createdAt: Fixture.date(1_700_000_000_001))
        var past = Fixture.message(to: "past@example.com", createdAt: Fixture.date(1_700_000_000_002))
        past.attempts = 1
        past.lastError = "SMS webhook 127.0.0.1:9 answered HTTP 500"
        past.nextAttemptAt = Fixture.date(1_700_000_099_999)
        var exact = Fixture.message(to: "exact@example.com", createdAt: Fixture.date(1_700_000_000_003))
        exact.attempts = 2
        exact.nextAttemptAt = now
        var future = Fixture.message(to: "future@example.com", createdAt: Fixture.date(1_700_000_000_004))
        future.attempts = 3
        future.nextAttemptAt = Fixture.date(1_700_000_100_001)
        try store.write { tx throws in
            for message in [fresh, past, exact, future] { try tx.insert(message) }
        }
        // The attempt columns round-trip.
        let all = try store.read { try $0.outboxMessages(tenantID: nil, recipient: nil, limit: 10) }
        for (index, message) in all.reversed().enumerated() {
            let inserted = [fresh, past, exact, future][index]
            #expect(message.attempts == inserted.attempts && message.lastError == inserted.lastError)
            #expect(message.nextAttemptAt == inserted.nextAttemptAt)
        }
        let ids = Dictionary(uniqueKeysWithValues: all.map { ($0.recipient, $0.id) })
        (fresh.id, past.id, exact.id, future.id) = (
            ids["fresh@example.com"]!, ids["past@example.com"]!, ids["exact@example.com"]!, ids["future@example.com"]!
        )

        try store.read { tx throws in
            #expect(try tx.pendingOutboxMessages(dueAt: now, limit: 10).map(\.id) == [fresh.id, past.id, exact.id])
            #expect(try tx.pendingOutboxMessages(dueAt: now, limit: 2).map(\.id) == [fresh.id, past.id])
            #expect(
                try tx.pendingOutboxMessages(dueAt: now.addingTimeInterval(0.001), limit: 10).map(\.id) == [
                    fresh.id, past.id, exact.id, future.id,
                ])
            #expect(try tx.pendingOutboxMessages(dueAt: Fixture.date(0), limit: 10).map(\.id) == [fresh.id])
        }
    }

    @Test(
        "a failed attempt counts, says why and sets the next one; a dead letter keeps its last error; --failed lists them",
        arguments: StoreConformance.implementations)
    func outboxAttempts(_ factory: StoreFactory) throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let first = Fixture.message(to: "ada@example.com", createdAt: Fixture.date(1_700_000_000_001))
        let second = Fixture.message(to: "bob@example.com", createdAt: Fixture.date(1_700_000_000_002))
        let third = Fixture.message(to: "eve@example.com", tenantID: "tid-other", createdAt: Fixture.date(1_700_000_000_003))
        try store.write { tx throws in
            for message in [first, second, third] { try tx.insert(message) }
        }
        let ids = try store.read { try $0.outboxMessages(tenantID: nil, recipient: nil, limit: 10) }.map(\.id)
        let (idFirst, idSecond, idThird) = (ids[2], ids[1], ids[0])
        let retry = Fixture.date(1_700_000_005_000)
        let later = Fixture.date(1_700_000_015_000)
        try store.write { tx throws in
            try tx.recordFailedAttempt(id: idFirst, error: "answered HTTP 500", retryAt: retry)
            try tx.recordFailedAttempt(id: idSecond, error: "unreachable", retryAt: retry)
        }
        try store.write { try $0.recordFailedAttempt(id: idFirst, error: "answered HTTP 502", retryAt: later) }
        try store.read { tx throws in
            let rows = try tx.outboxMessages(tenantID: nil, recipient: nil, limit: 10)
            let byID = Dictionary(uniqueKeysWithValues: rows.map { ($0.id, $0) })
            #expect(byID[idFirst]?.attempts == 2 && byID[idFirst]?.lastError == "answered HTTP 502")
            #expect(byID[idFirst]?.nextAttemptAt == later && byID[idFirst]?.sealedBody == first.sealedBody)
            #expect(byID[idSecond]?.attempts == 1 && byID[idSecond]?.lastError == "unreachable")
            #expect(byID[idThird]?.attempts == 0 && byID[idThird]?.lastError == nil && byID[idThird]?.nextAttemptAt == nil)
            #expect(try tx.pendingOutboxMessages(dueAt: retry, limit: 10).map(\.id) == [idSecond, idThird])
            #expect(try tx.outboxMessages(tenantID: nil, recipient: nil, abandonedOnly: true, limit: 10) == [])
        }

        // Dead-lettered: abandoned without a reason keeps the last error; with one, records it.
        let abandonedAt = Fixture.date(1_700_000_020_000)
        try store.write { tx throws in
            try tx.markAbandoned(ids: [idFirst], at: abandonedAt, reason: nil)
            try tx.markAbandoned(ids: [idThird], at: abandonedAt, reason: "no SMS delivery configured")
            try tx.markDelivered(ids: [idSecond], at: abandonedAt, redact: true)
            // Neither a delivered nor an abandoned message counts further attempts.
            try tx.recordFailedAttempt(id: idFirst, error: "late", retryAt: later)
            try tx.recordFailedAttempt(id: idSecond, error: "late", retryAt: later)
            try tx.markAbandoned(ids: [idSecond], at: later, reason: "late")
        }
        try store.read { tx throws in
            let dead = try tx.outboxMessages(tenantID: nil, recipient: nil, abandonedOnly: true, limit: 10)
            #expect(dead.map(\.id) == [idThird, idFirst])
            #expect(dead.map(\.lastError) == ["no SMS delivery configured", "answered HTTP 502"])
            #expect(dead.map(\.attempts) == [0, 2])
            #expect(dead.allSatisfy { $0.abandonedAt == abandonedAt && $0.sealedBody == nil && $0.deliveredAt == nil })
            #expect(
                try tx.outboxMessages(tenantID: "tid-acme", recipient: nil, abandonedOnly: true, limit: 10).map(\.id) == [idFirst]
            )
            #expect(
                try tx.outboxMessages(tenantID: nil, recipient: "eve@example.com", abandonedOnly: true, limit: 10).map(\.id) == [
                    idThird
                ])
            #expect(try tx.outboxMessages(tenantID: nil, recipient: nil, abandonedOnly: true, limit: 1).map(\.id) == [idThird])
            let delivered = try tx.outboxMessages(tenantID: nil, recipient: "bob@example.com", limit: 1).first
            #expect(delivered?.attempts == 1 && delivered?.lastError == "unreachable" && delivered?.abandonedAt == nil)
            #expect(try tx.pendingOutboxMessages(dueAt: later, limit: 10) == [])
        }
    }
}
