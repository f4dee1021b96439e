import Foundation
import LatchSQLite
import Testing

@testable import LatchServer

/// Migration `011_outbox_attempts` on a database an older server left at `010`: its messages get no
/// attempts, no error and no retry time, so pending ones are due at once and delivered as before.
@Suite("SQLite outbox attempts migration")
struct OutboxAttemptsMigrationTests {
    typealias Fixture = StoreConformance

    @Test("messages from before keep their state; pending ones are due at once with no attempts")
    func carriedOver() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("latch-migration-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("latch.sqlite").path
        try SQLiteShell.execute(
            MigrationFixture.schemaScript(through: "010_sealed_outbox") + "\n"
                + """
                INSERT INTO outbox (message_id, tenant_id, channel, recipient, subject, sealed_body, created_at,
                                    delivered_at, abandoned_at)
                VALUES ('m-pending', 'tid-acme', 'email', 'ada@example.com', 'Your code', X'00FF07', 1700000000001, NULL, NULL),
                       ('m-delivered', 'tid-acme', 'email', 'bob@example.com', 'Your code', NULL, 1700000000002,
                        1700000000500, NULL);
                """, on: path)

        let store = try SQLiteStore(path: path)
        defer { store.close() }
        let rows = try store.read { try $0.outboxMessages(tenantID: nil, recipient: nil, limit: 10) }
        #expect(rows.map(\.messageID) == ["m-delivered", "m-pending"])
        #expect(rows.allSatisfy { $0.attempts == 0 && $0.lastError == nil && $0.nextAttemptAt == nil })
        #expect(rows[0].deliveredAt == Fixture.date(1_700_000_000_500) && rows[1].sealedBody == [0, 255, 7])
        #expect(try store.read { try $0.pendingOutboxMessages(dueAt: Fixture.now, limit: 10) }.map(\.messageID) == ["m-pending"])
        let recorded = try SQLiteShell.execute("SELECT name FROM schema_migrations ORDER BY rowid;", on: path)
        #expect(recorded.split(separator: "\n").contains("011_outbox_attempts"))
    }
}
