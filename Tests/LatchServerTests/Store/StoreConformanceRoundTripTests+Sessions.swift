import Foundation
import LatchServer
import Testing

// MARK: - Sessions, outbox, audit trail, purge

extension StoreConformanceRoundTripTests {
    @Test(
        "token families and refresh tokens read back; revoking keeps the first revocation",
        arguments: StoreConformance.implementations)
    func sessions(_ factory: StoreFactory) throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let family = Fixture.family()
        let second = Fixture.family("family-2")
        let stranger = Fixture.family("family-3", userID: "user-2")
        let rotated = RefreshTokenRecord(
            hash: "rt-1", familyID: family.id, createdAt: Fixture.now, rotatedAt: Fixture.date(1_700_000_100_001),
            successorHash: "rt-2")
        let head = RefreshTokenRecord(hash: "rt-2", familyID: family.id, createdAt: Fixture.date(1_700_000_100_001))
        try store.write { tx throws in
            for family in [family, second, stranger] { try tx.insert(family) }
            try tx.insert(rotated)
            try tx.insert(head)
        }
        try store.read { tx throws in
            #expect(try tx.tokenFamily(id: family.id) == family)
            #expect(try tx.tokenFamily(id: "missing") == nil)
            #expect(try tx.refreshToken(hash: "rt-1") == rotated)
            #expect(try tx.refreshToken(hash: "rt-2") == head)
            #expect(try tx.refreshToken(hash: "missing") == nil)
        }

        let first = Fixture.date(1_700_000_200_000)
        let later = Fixture.date(1_700_000_300_000)
        try store.write { try $0.revokeFamily(id: family.id, at: first) }
        try store.write { tx throws in
            try tx.revokeFamily(id: family.id, at: later)
            try tx.revokeFamilies(userID: "user-1", at: later)
        }
        try store.read { tx throws in
            #expect(try tx.tokenFamily(id: family.id)?.revokedAt == first)
            #expect(try tx.tokenFamily(id: second.id)?.revokedAt == later)
            #expect(try tx.tokenFamily(id: stranger.id)?.revokedAt == nil)
        }
    }

    @Test(
        "outbox messages: newest first and filtered, pending oldest first, delivered with and without erasure, abandoned",
        arguments: StoreConformance.implementations)
    func outbox(_ factory: StoreFactory) throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let first = Fixture.message(createdAt: Fixture.date(1_700_000_000_001))
        let second = Fixture.message(to: "bob@example.com", sealed: false, createdAt: Fixture.date(1_700_000_000_002))
        let third = Fixture.message(createdAt: Fixture.date(1_700_000_000_003))
        let foreign = Fixture.message(tenantID: "tid-other", createdAt: Fixture.date(1_700_000_000_004))
        try store.write { tx throws in
            for message in [first, second, third, foreign] { try tx.insert(message) }
        }

        let all = try store.read { try $0.outboxMessages(tenantID: nil, recipient: nil, limit: 10) }
        try #require(all.count == 4)
        #expect(all.allSatisfy { $0.id != 0 })
        #expect(Set(all.map(\.id)).count == 4)
        // Row ids are assigned by the store; everything else, the sealed bytes included, round-trips.
        let stored = all.reversed().map { message -> StoredOutboxMessage in
            var message = message
            message.id = 0
            return message
        }
        #expect(stored == [first, second, third, foreign])
        let (idFirst, idSecond, idThird, idForeign) = (all[3].id, all[2].id, all[1].id, all[0].id)

        try store.read { tx throws in
            #expect(
                try tx.outboxMessages(tenantID: "tid-acme", recipient: nil, limit: 10).map(\.id) == [idThird, idSecond, idFirst])
            #expect(
                try tx.outboxMessages(tenantID: "tid-acme", recipient: "ada@example.com", limit: 10).map(\.id) == [
                    idThird, idFirst,
                ])
            #expect(
                try tx.outboxMessages(tenantID: nil, recipient: "ada@example.com", limit: 2).map(\.id) == [idForeign, idThird])
            #expect(
                try tx.pendingOutboxMessages(dueAt: Fixture.now, limit: 10).map(\.id) == [idFirst, idSecond, idThird, idForeign])
            #expect(try tx.pendingOutboxMessages(dueAt: Fixture.now, limit: 2).map(\.id) == [idFirst, idSecond])
        }

        let deliveredAt = Fixture.date(1_700_000_010_000)
        try store.write { tx throws in
            try tx.markDelivered(ids: [idFirst], at: deliveredAt, redact: false)
            try tx.markDelivered(ids: [idSecond, idThird], at: deliveredAt, redact: true)
        }
        try store.read { tx throws in
            let messages = try tx.outboxMessages(tenantID: "tid-acme", recipient: nil, limit: 10)
            var kept = first
            kept.id = idFirst
            kept.deliveredAt = deliveredAt
            #expect(messages.last == kept)
            for erased in messages.prefix(2) {
                #expect(erased.deliveredAt == deliveredAt)
                #expect(erased.sealedBody == nil)
                #expect(erased.recipient != "" && erased.subject == "Your code" && erased.messageID != "")
            }
            #expect(try tx.pendingOutboxMessages(dueAt: Fixture.now, limit: 10).map(\.id) == [idForeign])
        }

        // Abandoning erases the sealed body and ends the pending state; a delivered message stays as it is.
        let abandonedAt = Fixture.date(1_700_000_020_000)
        try store.write { tx throws in try tx.markAbandoned(ids: [idForeign, idFirst], at: abandonedAt) }
        try store.read { tx throws in
            var abandoned = foreign
            abandoned.id = idForeign
            abandoned.sealedBody = nil
            abandoned.abandonedAt = abandonedAt
            #expect(try tx.outboxMessages(tenantID: "tid-other", recipient: nil, limit: 10) == [abandoned])
            let delivered = try tx.outboxMessages(tenantID: "tid-acme", recipient: nil, limit: 10).last
            #expect(delivered?.abandonedAt == nil && delivered?.sealedBody == first.sealedBody)
            #expect(try tx.pendingOutboxMessages(dueAt: Fixture.now, limit: 10) == [])
        }
    }

    @Test("an outbox message id is unique", arguments: StoreConformance.implementations)
    func outboxMessageIDIsUnique(_ factory: StoreFactory) throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let message = Fixture.message()
        try store.write { try $0.insert(message) }
        var copy = Fixture.message(to: "bob@example.com")
        copy.messageID = message.messageID
        Fixture.expectConflict { try store.write { try $0.insert(copy) } }
        #expect(try store.read { try $0.outboxMessages(tenantID: nil, recipient: nil, limit: 10) }.count == 1)
    }

    @Test("audit events read back newest first, per tenant", arguments: StoreConformance.implementations)
    func auditEvents(_ factory: StoreFactory) throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let full = AuditEvent(
            tenantID: "tid-acme", at: Fixture.now, kind: .signInFailed, userID: "user-1", clientID: "app",
            remoteAddress: "192.0.2.7", detail: "reason=password")
        let bare = AuditEvent(
            tenantID: "tid-acme", at: Fixture.date(1_600_000_000_000), kind: AuditEvent.Kind(rawValue: "custom_kind"))
        let foreign = AuditEvent(tenantID: "tid-other", at: Fixture.now, kind: .signUp)
        try store.write { tx throws in
            for event in [full, bare, foreign] { try tx.insert(event) }
        }

        let events = try store.read { try $0.auditEvents(tenantID: "tid-acme", limit: 10) }
        try #require(events.count == 2)
        #expect(events[0].id > events[1].id && events[1].id != 0)
        var expectedBare = bare
        expectedBare.id = events[0].id
        var expectedFull = full
        expectedFull.id = events[1].id
        #expect(events == [expectedBare, expectedFull])
        #expect(try store.read { try $0.auditEvents(tenantID: "tid-acme", limit: 1) } == [expectedBare])
    }

    @Test(
        "purge deletes old outbox messages and ended families with their tokens, and nothing else",
        arguments: StoreConformance.implementations)
    func purge(_ factory: StoreFactory) throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        let cutoff = Fixture.date(1_700_000_500_000)
        let expired = Fixture.family("expired", expiresAt: Fixture.date(1_700_000_499_999))
        var revoked = Fixture.family("revoked")
        revoked.revokedAt = Fixture.date(1_700_000_400_000)
        var recentlyRevoked = Fixture.family("recently-revoked")
        recentlyRevoked.revokedAt = cutoff
        let live = Fixture.family("live")
        let families = [expired, revoked, recentlyRevoked, live]
        try store.write { tx throws in
            try tx.insert(Fixture.message(createdAt: Fixture.date(1_700_000_499_999)))
            try tx.insert(Fixture.message(to: "kept@example.com", createdAt: cutoff))
            for family in families {
                try tx.insert(family)
                try tx.insert(RefreshTokenRecord(hash: "rt-\(family.id)", familyID: family.id, createdAt: Fixture.now))
            }
            try tx.insert(AuditEvent(tenantID: "tid-acme", at: Fixture.date(1), kind: .signUp))
        }

        try store.write { try $0.purge(outboxBefore: cutoff, sessionsBefore: cutoff) }

        try store.read { tx throws in
            #expect(try tx.outboxMessages(tenantID: nil, recipient: nil, limit: 10).map(\.recipient) == ["kept@example.com"])
            for gone in [expired, revoked] {
                #expect(try tx.tokenFamily(id: gone.id) == nil)
                #expect(try tx.refreshToken(hash: "rt-\(gone.id)") == nil)
            }
            for kept in [recentlyRevoked, live] {
                #expect(try tx.tokenFamily(id: kept.id) == kept)
                #expect(try tx.refreshToken(hash: "rt-\(kept.id)") != nil)
            }
            #expect(try tx.auditEvents(tenantID: "tid-acme", limit: 10).count == 1)
        }
    }

    @Test(
        "the code-send ledger: by recipient and purpose, optionally by source, strictly after since",
        arguments: StoreConformance.implementations)
    func codeSendLedger(_ factory: StoreFactory) throws {
        let subject = try factory.make()
        defer { subject.close() }
        let store = subject.store
        try store.write { tx in
            for (offset, source) in ["10.0.0.1", "10.0.0.2", "10.0.0.1"].enumerated() {
                try tx.recordCodeSend(
                    tenantID: "t", recipient: "ada@example.com", purpose: "password_reset", source: source,
                    at: Fixture.date(1_700_000_000_000 + Int64(offset) * 1000))
            }
            try tx.recordCodeSend(
                tenantID: "t", recipient: "ada@example.com", purpose: "sign_in", source: "10.0.0.1",
                at: Fixture.date(1_700_000_000_000))
        }
        try store.read { tx in
            let all = try tx.codeSendTimes(
                tenantID: "t", recipient: "ada@example.com", purpose: "password_reset", source: nil, since: .distantPast,
                limit: 10)
            #expect(all == [2000, 1000, 0].map { Fixture.date(1_700_000_000_000 + $0) })
            let fromOne = try tx.codeSendTimes(
                tenantID: "t", recipient: "ada@example.com", purpose: "password_reset", source: "10.0.0.1",
                since: Fixture.date(1_700_000_000_000), limit: 10)
            #expect(fromOne == [Fixture.date(1_700_000_002_000)])
            #expect(
                try tx.codeSendTimes(
                    tenantID: "t", recipient: "ada@example.com", purpose: "password_reset", source: nil,
                    since: .distantPast, limit: 1
                ).count == 1)
            #expect(
                try tx.codeSendTimes(
                    tenantID: "t", recipient: "bob@example.com", purpose: "password_reset", source: nil,
                    since: .distantPast, limit: 10
                ).isEmpty)
        }
        // Purged with day-old outbox messages.
        try store.write { try $0.purge(outboxBefore: Fixture.date(1_700_000_001_500), sessionsBefore: .distantPast) }
        let left = try store.read {
            try $0.codeSendTimes(
                tenantID: "t", recipient: "ada@example.com", purpose: "password_reset", source: nil, since: .distantPast,
                limit: 10)
        }
        #expect(left == [Fixture.date(1_700_000_002_000)])
    }
}
