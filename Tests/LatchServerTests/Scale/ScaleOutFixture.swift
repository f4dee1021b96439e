import Foundation
import LatchServer
import LatchTesting
import Testing

/// Two `latchd` processes, A and B, on one PostgreSQL database, one data directory (one master
/// key) and one public origin, with an admin console on the same database; tenants a test makes through the console reach
/// both servers on first use.
struct ScaleOutFixture {
    let directory: String
    let a: LatchdProcess
    let b: LatchdProcess
    let admin: AdminService
    private let closeConsole: @Sendable () -> Void

    static func start() async throws -> ScaleOutFixture {
        let directory = LatchdProcess.temporaryDataDirectory()
        let location = try LatchTestStore.preparePostgres(dataDirectory: directory)
        // Behind one load balancer, instances share one public origin: the `iss` of every token.
        let origin = ["--public-url", "https://auth.scale.test"]
        let (portA, portB) = (try PrivatePostgresCluster.freePort(), try PrivatePostgresCluster.freePort())
        let a = try await LatchdProcess.start(
            dataDirectory: directory, arguments: origin, listen: "127.0.0.1:\(portA)", reachAt: "http://127.0.0.1:\(portA)")
        let b = try await LatchdProcess.start(
            dataDirectory: directory, arguments: origin, listen: "127.0.0.1:\(portB)", reachAt: "http://127.0.0.1:\(portB)")
        let (admin, close) = try AdminConsole.open(dataDirectory: directory, location: location)
        return ScaleOutFixture(directory: directory, a: a, b: b, admin: admin, closeConsole: close)
    }

    /// Stops both servers and drops the database.
    func stop() {
        a.forceStop()
        b.forceStop()
        closeConsole()
        LatchdProcess.removeData(directory)
    }

    /// A new tenant with `settings` and the `latch-dev` public client; returns its name.
    func tenant(_ settings: TenantSettings = TenantSettings()) throws -> String {
        let name = "scale" + UUID().uuidString.prefix(8).lowercased()
        let tenant = try admin.createTenant(name: name, settings: settings)
        try admin.createClient(tenant: tenant, id: "latch-dev", name: "latch-dev")
        return name
    }

    /// A native-auth client of `tenant` on `server`.
    func client(_ server: LatchdProcess, tenant: String) -> WireClient {
        var client = WireClient(baseURL: server.baseURL)
        client.tenant = tenant
        return client
    }

    /// The newest one-time code sent to `email` in `tenant`.
    func latestCode(to email: String, tenant: String) throws -> String? {
        try admin.outbox(tenant: try admin.tenant(named: tenant), recipient: email, limit: 1).first?.code
    }
}
