import Foundation
import LatchChildProcess
import LatchCrypto
import LatchLocking
import LatchTesting
import Testing

@testable import LatchServer

/// Outbox bodies and their one-time codes are sealed at rest (``MessageSealer``): never in the
/// database files in the clear, opened only with the data directory's master key, erased once
/// delivered outside `--dev`, shown by the `--dev` outbox, and never delivered when the seal was
/// altered or moved to another row.
@Suite("Outbox bodies sealed at rest")
struct MessageSealerTests {
    /// Refuses every delivery, so messages stay pending (a mail server that is down).
    struct RefusingTransport: MessageTransport {
        struct Refused: Error {}
        func deliver(_ message: OutboxMessage) throws { throw Refused() }
    }

    /// Records what it delivers.
    final class RecordingTransport: MessageTransport {
        let delivered = Locked<[OutboxMessage]>([])
        func deliver(_ message: OutboxMessage) throws { delivered.withLock { $0.append(message) } }
        var messages: [OutboxMessage] { delivered.withLock { $0 } }
    }

    /// Keeps the lines a ``ServerLog`` writes.
    final class CapturedLog: Sendable {
        private let lines = Locked<[String]>([])
        var log: ServerLog { ServerLog { line in self.lines.withLock { $0.append(line) } } }
        var text: [String] { lines.withLock { $0 } }
    }

    static func waitUntil(_ condition: () throws -> Bool) async throws -> Bool {
        for _ in 0..<50 {
            if try condition() { return true }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        return try condition()
    }

    /// A server (outside `--dev` unless `development`) with the tenant `prod` and its client `app`.
    static func server(development: Bool = false, transport: any MessageTransport) throws -> LatchTestServer {
        let server = try LatchTestServer.start(mode: .inProcess) {
            $0.development = development
            $0.transport = transport
        }
        try server.createTenant("prod", settings: TenantSettings(), clientID: "app")
        return server
    }

    /// Starts a sign-up for `email` and asks for its code.
    static func sendCode(_ server: LatchTestServer, to email: String) async throws {
        let client = WireClient(server, tenant: "prod", clientID: "app")
        let start = try await client.post("signup/v1.0/start", ["username": email, "challenge_type": "oob redirect"])
        let challenge = try await client.post(
            "signup/v1.0/challenge", ["continuation_token": try #require(start.continuationToken)])
        try #require(challenge.status == 200, "\(challenge.json)")
    }

    /// The message to `email` as stored.
    static func stored(_ server: LatchTestServer, to email: String) throws -> StoredOutboxMessage {
        try #require(
            try server.app.services.store.read { try $0.outboxMessages(tenantID: nil, recipient: email, limit: 1) }.first)
    }

    @Test("a pending code is in no database file: neither its digits nor its body; the seal opens only with the master key")
    func pendingCodeIsSealed() async throws {
        let server = try Self.server(transport: RefusingTransport())
        defer { server.stop() }
        let email = TokenHelpers.uniqueEmail("sealed")
        try await Self.sendCode(server, to: email)

        let message = try #require(try server.outbox(to: email, tenant: "prod").first)
        let code = try #require(message.code)
        #expect(code.count == 8)
        #expect(message.body.contains(code) && message.deliveredAt == nil)
        let disk = DatabaseFileBytes(database: server.app.dataDirectory.databasePath)
        #expect(!disk.files(containing: email).isEmpty, "the recipient stays in the clear, so the search sees the rows")
        #expect(disk.files(containing: code) == [], "the code is on disk in the clear")
        #expect(disk.files(containing: "It expires in") == [], "the body is on disk in the clear")
        #expect(disk.files(containing: message.body) == [])

        let stored = try Self.stored(server, to: email)
        let sealed = try #require(stored.sealedBody)
        #expect(stored.subject == message.subject && stored.recipient == email)
        let masterKey = try server.app.dataDirectory.masterKey()
        #expect(try MessageSealer(masterKey: masterKey).open(stored) == message)
        #expect(throws: MessageSealer.Unreadable.self) {
            try MessageSealer(masterKey: SecureRandom.bytes(count: 32)).open(stored)
        }
        // Sealed under a key derived for the outbox, not under the master key itself.
        #expect(throws: CryptoError.self) {
            try SecretBox.open(sealed, key: masterKey, associatedData: MessageSealer.associatedData(of: stored))
        }
    }

    @Test("outside --dev a delivered message's sealed body is erased; the transport got it opened")
    func deliveredBodyIsErased() async throws {
        let transport = RecordingTransport()
        let server = try Self.server(transport: transport)
        defer { server.stop() }
        let email = TokenHelpers.uniqueEmail("erased")
        try await Self.sendCode(server, to: email)

        #expect(try await Self.waitUntil { try Self.stored(server, to: email).deliveredAt != nil })
        let delivered = try #require(transport.messages.first)
        let code = try #require(delivered.code)
        #expect(code.count == 8 && delivered.body.contains(code) && delivered.recipient == email)
        let stored = try Self.stored(server, to: email)
        #expect(stored.sealedBody == nil)
        #expect(stored.abandonedAt == nil)
        let listed = try #require(try server.outbox(to: email, tenant: "prod").first)
        #expect(listed.code == nil && listed.body.isEmpty)
        #expect(DatabaseFileBytes(database: server.app.dataDirectory.databasePath).files(containing: code) == [])
    }

    @Test("under --dev the admin endpoint and `latchd outbox --dev` open the seal; the code stays sealed on disk")
    func developmentOutboxShowsTheCode() async throws {
        let transport = RecordingTransport()
        let server = try Self.server(development: true, transport: transport)
        defer { server.stop() }
        let email = TokenHelpers.uniqueEmail("dev")
        try await Self.sendCode(server, to: email)
        #expect(try await Self.waitUntil { try Self.stored(server, to: email).deliveredAt != nil })
        let code = try #require(transport.messages.first?.code)

        let client = WireClient(server, tenant: "prod", clientID: "app")
        let listed = try await client.raw(
            "GET", "/prod/admin/outbox?to=\(WireClient.encode(email))",
            headers: ["Authorization": "Bearer \(server.app.adminToken)"])
        let messages = try #require(listed["messages"] as? [[String: Any]])
        #expect(messages.first?["code"] as? String == code)
        #expect((messages.first?["body"] as? String)?.contains(code) == true)
        #expect(try Self.stored(server, to: email).sealedBody != nil, "kept sealed for the development reader")
        #expect(DatabaseFileBytes(database: server.app.dataDirectory.databasePath).files(containing: code) == [])

        let revealed = try Self.latchd(["outbox", "--dev", "--to", email, "--data-dir", server.dataDirectory])
        #expect(revealed.contains("code=\(code)"), "\(revealed)")
        let blanked = try Self.latchd(["outbox", "--to", email, "--data-dir", server.dataDirectory])
        #expect(blanked.contains("code=-") && !blanked.contains(code), "\(blanked)")
    }

    @Test("an altered, moved, foreign-key or missing sealed body is abandoned, never delivered; the rest go out")
    func unreadableBodiesAreNotDelivered() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("latch-seal-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try SQLiteStore(path: directory + "/latch.db")
        defer { store.close() }
        let clock = TestClock()
        let services = try AuthServices(
            store: store, clock: clock, masterKey: SecureRandom.bytes(count: 32), baseURL: "http://seal.test")
        let sealer = services.messageSealer
        func message(to recipient: String, tenantID: String = "tid-a", code: String) -> OutboxMessage {
            OutboxMessage(
                tenantID: tenantID, recipient: recipient, subject: "Your sign-in code",
                body: "Your sign-in code is \(code)", code: code, createdAt: clock.now())
        }

        let intact = try sealer.seal(message(to: "ada@example.com", code: "11111111"))
        var altered = try sealer.seal(message(to: "ada@example.com", code: "22222222"))
        altered.sealedBody?[20] ^= 0x01
        // Two rows with their sealed bodies exchanged.
        var toAda = try sealer.seal(message(to: "ada@example.com", code: "33333333"))
        var toBob = try sealer.seal(message(to: "bob@example.com", code: "44444444"))
        (toAda.sealedBody, toBob.sealedBody) = (toBob.sealedBody, toAda.sealedBody)
        // A body sealed for another tenant's row, copied with its message id into this tenant.
        var otherTenant = try sealer.seal(message(to: "ada@example.com", tenantID: "tid-b", code: "55555555"))
        otherTenant.tenantID = "tid-a"
        let foreignKey = try MessageSealer(masterKey: SecureRandom.bytes(count: 32)).seal(
            message(to: "ada@example.com", code: "66666666"))
        var missing = try sealer.seal(message(to: "ada@example.com", code: "77777777"))
        missing.sealedBody = nil
        let unreadable = [altered, toAda, toBob, otherTenant, foreignKey, missing]
        try store.write { tx in
            for stored in [intact] + unreadable { try tx.insert(stored) }
        }

        // The development reader shows the intact code and blanks the rest, without failing.
        let listed = try services.admin.outbox(tenant: nil, recipient: nil, limit: 50, revealCodes: true)
        #expect(listed.count == 7)
        #expect(listed.compactMap(\.code) == ["11111111"])
        #expect(listed.filter { $0.code == nil }.allSatisfy { $0.body.isEmpty })

        let transport = RecordingTransport()
        let captured = CapturedLog()
        let worker = OutboxWorker(
            store: store, sealer: sealer, clock: clock, transport: transport, redactDelivered: true, log: captured.log)
        worker.start()
        worker.stop()

        #expect(transport.messages.map(\.code) == ["11111111"])
        #expect(transport.messages.first?.body == "Your sign-in code is 11111111")
        let rows = try store.read { try $0.outboxMessages(tenantID: nil, recipient: nil, limit: 50) }
        let byMessageID = Dictionary(uniqueKeysWithValues: rows.map { ($0.messageID, $0) })
        #expect(byMessageID[intact.messageID]?.deliveredAt != nil)
        for stored in unreadable {
            let row = try #require(byMessageID[stored.messageID])
            #expect(row.deliveredAt == nil && row.abandonedAt != nil && row.sealedBody == nil, "\(row)")
        }
        #expect(try store.read { try $0.pendingOutboxMessages(dueAt: clock.now(), limit: 50) } == [])
        let warnings = captured.text.filter { $0.contains("outbox message abandoned") }
        #expect(warnings.count == unreadable.count, "\(captured.text)")
        for code in ["22222222", "33333333", "44444444", "55555555", "66666666", "77777777"] {
            #expect(!captured.text.contains { $0.contains(code) })
        }
    }

    /// Runs the built `latchd` with `arguments` and returns its standard output.
    static func latchd(_ arguments: [String]) throws -> String {
        let output = Pipe()
        let process = try ChildProcess(
            executable: try LatchdProcess.executable().path, arguments: arguments,
            environment: ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("LATCH_") },
            standardInput: .null, standardOutput: .descriptor(output.fileHandleForWriting.fileDescriptor),
            standardError: .null)
        try output.fileHandleForWriting.close()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "latchd \(arguments.joined(separator: " ")): \(printed)")
        return printed
    }
}
