import Foundation
import LatchSQLite
import Testing

@testable import LatchServer

/// Migration `014_client_api_keys` on a database an older server left at `013`: every client gets
/// its own random API key, by which it is then found.
@Suite("SQLite client API key migration")
struct ClientAPIKeyMigrationTests {
    @Test("clients from before get distinct keys that find them")
    func carriedOver() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("latch-migration-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("latch.sqlite").path
        try SQLiteShell.execute(
            MigrationFixture.schemaScript(through: "013_client_attestation") + "\n"
                + """
                INSERT INTO tenants (id, name, settings, created_at) VALUES ('tid-acme', 'acme', '{}', 1700000000000);
                INSERT INTO clients (tenant_id, id, name, is_public, allowed_scopes, created_at)
                VALUES ('tid-acme', 'web', 'Web', 1, '', 1700000000001), ('tid-acme', 'app', 'App', 1, '', 1700000000002);
                """, on: path)

        let store = try SQLiteStore(path: path)
        defer { store.close() }
        let clients = try store.read { try $0.clients(tenantID: "tid-acme") }
        #expect(clients.count == 2)
        #expect(Set(clients.map(\.apiKey)).count == 2)
        #expect(clients.allSatisfy { $0.apiKey.count >= 32 })
        for client in clients {
            #expect(try store.read { try $0.client(apiKey: client.apiKey) }?.id == client.id)
        }
    }
}
