import Foundation
import LatchCrypto

/// Administration without a running server: opens the data directory's store directly (SQLite in
/// WAL mode lets this run beside a live server) for the `latchd` admin commands.
public enum AdminConsole {
    /// Opens the store under `dataDirectory` and returns the admin service and a closer.
    public static func open(dataDirectory path: String) throws -> (admin: AdminService, close: @Sendable () -> Void) {
        let directory = try DataDirectory(path: path)
        let store = try SQLiteStore(path: directory.databasePath)
        let services = try AuthServices(
            store: store, clock: SystemClock(), masterKey: try directory.masterKey(), baseURL: "")
        return (services.admin, { store.close() })
    }
}
