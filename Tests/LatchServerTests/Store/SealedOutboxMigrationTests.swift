import Foundation
import LatchCrypto
import LatchSQLite
import LatchTesting
import Testing

@testable import LatchServer

/// Migration `010_sealed_outbox` on a database an older server left at `007`, whose outbox held
/// bodies and codes in the clear: the plaintext is dropped, not carried over (the store has no key
/// to seal it, and the codes expire within minutes), the rows stay, and the worker abandons the
/// pending ones with a warning instead of delivering an empty message.
@Suite("SQLite sealed outbox migration")
struct SealedOutboxMigrationTests {
    typealias Fixture = StoreConformance

    /// A pending message and one delivered under `--dev` (code kept), both in the clear.
    static let plaintextRows = """
        INSERT INTO outbox (tenant_id, channel, recipient, subject, body, code, created_at, delivered_at)
        VALUES ('tid-acme', 'email', 'ada@example.com', 'Verify your e-mail address',
                'Your verification code is 48151623', '48151623', 1700000000001, NULL),
               ('tid-acme', 'email', 'bob@example.com', 'Your sign-in code',
                'Your sign-in code is 42424242', '42424242', 1700000000002, 1700000000500);
        """

    @Test("plaintext bodies and codes are gone from the file; the rows stay; a pending one is abandoned, not delivered")
    func plaintextIsDropped() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("latch-migration-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("latch.sqlite").path
        try SQLiteShell.execute(
            MigrationFixture.schemaScript(through: "007_address_attempts") + "\n" + Self.plaintextRows, on: path)
        #expect(DatabaseFileBytes(database: path).files(containing: "48151623") == [path], "the fixture holds the code")

        var store = try SQLiteStore(path: path)
        let rows = try store.read { try $0.outboxMessages(tenantID: nil, recipient: nil, limit: 10) }
        #expect(rows.map(\.recipient) == ["bob@example.com", "ada@example.com"])
        #expect(rows.allSatisfy { $0.sealedBody == nil && $0.abandonedAt == nil })
        #expect(Set(rows.map(\.messageID)).count == 2)
        #expect(rows[0].deliveredAt == Fixture.date(1_700_000_000_500) && rows[1].createdAt == Fixture.date(1_700_000_000_001))
        #expect(
            try store.read { try $0.pendingOutboxMessages(dueAt: Fixture.now, limit: 10) }.map(\.recipient) == ["ada@example.com"]
        )
        store.close()  // checkpoints the write-ahead log into the file
        let disk = DatabaseFileBytes(database: path)
        for secret in ["48151623", "42424242", "Your verification code is", "Your sign-in code is"] {
            #expect(disk.files(containing: secret) == [], "'\(secret)' survived the migration")
        }

        store = try SQLiteStore(path: path)
        defer { store.close() }
        let transport = MessageSealerTests.RecordingTransport()
        let captured = MessageSealerTests.CapturedLog()
        let worker = OutboxWorker(
            // The clock of the rows: a later one would let the worker's maintenance purge them as a
            // day old before the test reads them.
            store: store, sealer: try MessageSealer(masterKey: SecureRandom.bytes(count: 32)),
            clock: TestClock(start: Fixture.now),
            transport: transport, redactDelivered: true, log: captured.log)
        worker.start()
        worker.stop()
        #expect(transport.messages.isEmpty)
        #expect(try store.read { try $0.pendingOutboxMessages(dueAt: Fixture.now, limit: 10) } == [])
        let abandoned = try store.read { try $0.outboxMessages(tenantID: nil, recipient: "ada@example.com", limit: 1) }
        #expect(abandoned.first?.abandonedAt != nil && abandoned.first?.deliveredAt == nil)
        #expect(
            captured.text.contains { $0.contains("outbox message abandoned") && $0.contains("before message bodies were sealed") }
        )

        let recorded = try SQLiteShell.execute("SELECT name FROM schema_migrations ORDER BY rowid;", on: path)
        #expect(recorded.split(separator: "\n").map(String.init) == SQLiteSchema.migrations.map(\.name))
    }
}
