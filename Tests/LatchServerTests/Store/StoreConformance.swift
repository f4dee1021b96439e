import Foundation
import LatchPostgres
import LatchServer
import LatchTesting

/// The ``Store`` implementations every conformance test runs against, and the records the tests
/// share. Append a factory here to put another engine through the same test bodies.
enum StoreConformance {
    /// Every implementation; the conformance tests take one of these as their argument.
    /// PostgreSQL joins when the suite runs beside a cluster (`make test` starts one).
    static let implementations: [StoreFactory] = LatchTestStore.clusterURL == nil ? [sqlite] : [sqlite, postgres]

    /// ``SQLiteStore`` on a new file in its own temporary directory, with the production settings.
    static let sqlite = StoreFactory(name: "SQLite") {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("latch-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("latch.sqlite").path
        let store: SQLiteStore
        do {
            store = try SQLiteStore(path: path)
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
        return StoreUnderTest(
            store: store,
            overwriteFlowState: { flowID, text in
                try SQLiteShell.execute(
                    "UPDATE flows SET state = \(SQLiteShell.literal(text)) WHERE id = \(SQLiteShell.literal(flowID));",
                    on: path)
            },
            cleanup: { try? FileManager.default.removeItem(at: directory) })
    }

    /// ``PostgresStore`` on a new database of the test cluster, with the production settings.
    static let postgres = StoreFactory(name: "PostgreSQL") {
        let database = try LatchTestStore.createDatabase()
        let store: PostgresStore
        do {
            store = try PostgresStore(url: database.url)
        } catch {
            database.drop()
            throw error
        }
        return StoreUnderTest(
            store: store,
            overwriteFlowState: { flowID, text in
                try database.execute("UPDATE flows SET state = $1 WHERE id = $2", [.text(text), .text(flowID)])
            },
            cleanup: { database.drop() })
    }
}
