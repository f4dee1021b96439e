import Foundation
import LatchServer
import LatchTesting
import Testing

/// What the delivery tests share: a secret file, messages queued straight into a test server's
/// outbox (SMS before any flow sends one), and waiting for the worker without sleeping through
/// backoffs (the test clock moves instead).
enum OutboxFixture {
    /// The phone number the SMS tests send to.
    static let phone = "+14155550123"

    /// A fresh random webhook secret, written with a trailing newline (as `echo` writes it) to a
    /// new file; `cleanup` removes it.
    static func secretFile() throws -> (secret: String, path: String, cleanup: @Sendable () -> Void) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("latch-secret-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let secret = "whsec-" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let path = directory.appendingPathComponent("sms-webhook.secret").path
        try Data((secret + "\n").utf8).write(to: URL(fileURLWithPath: path))
        return (secret, path, { try? FileManager.default.removeItem(at: directory) })
    }

    /// Queues a message to `recipient` in the default tenant, sealed as a flow would, and wakes
    /// the worker; returns it as stored (with its row id).
    @discardableResult
    static func queue(
        _ server: LatchTestServer, channel: String = "sms", to recipient: String = phone, code: String = "48151623"
    ) throws -> StoredOutboxMessage {
        let tenant = try server.app.services.admin.tenant(named: "default")
        let message = OutboxMessage(
            tenantID: tenant.id, channel: channel, recipient: recipient,
            subject: channel == "sms" ? "" : "Your sign-in code", body: "Your Latch code is \(code)", code: code,
            createdAt: server.clock.now())
        var stored = try server.app.services.messageSealer.seal(message)
        let store = server.app.services.store
        try store.write { try $0.insert(stored) }
        let rows = try store.read { try $0.outboxMessages(tenantID: tenant.id, recipient: recipient, limit: 20) }
        stored.id = try #require(rows.first { $0.messageID == stored.messageID }).id
        server.app.deliverDueMessages()
        return stored
    }

    /// The row `id` as stored now.
    static func row(_ server: LatchTestServer, _ id: Int64) throws -> StoredOutboxMessage {
        let rows = try server.app.services.store.read { try $0.outboxMessages(tenantID: nil, recipient: nil, limit: 500) }
        return try #require(rows.first { $0.id == id })
    }

    /// Whether `condition` holds within `seconds` of real time, polled every 20 ms.
    static func eventually(within seconds: Double = 10, _ condition: () throws -> Bool) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return try condition()
    }

    /// Gives the worker a moment (woken at once) to do what it should not: for checks that
    /// nothing happens.
    static func settle(_ server: LatchTestServer) async throws {
        server.app.deliverDueMessages()
        try await Task.sleep(for: .milliseconds(300))
    }
}
