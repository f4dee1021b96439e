import Foundation
import LatchCrypto

/// Administration without a running server: opens the store directly (SQLite in WAL mode lets this
/// run beside a live server; PostgreSQL serves any number of clients) for the `latchd` admin commands.
public enum AdminConsole {
    /// Opens the store `location` names, with the master key under `dataDirectory`, and returns the
    /// admin service and a closer.
    public static func open(dataDirectory path: String, location: StoreLocation = .sqlite) throws -> (
        admin: AdminService, close: @Sendable () -> Void
    ) {
        let directory = try DataDirectory(path: path)
        let store = try location.open(directory: directory, connections: 2)
        let services = try AuthServices(
            store: store, clock: SystemClock(), masterKey: try directory.masterKey(), baseURL: "")
        return (services.admin, { store.close() })
    }
}
