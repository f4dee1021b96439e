import Foundation
import LatchServer
import LatchTesting
import Testing

/// `--admin-listen`: the admin endpoints and `/metrics` leave the public listener for their own.
@Suite("Admin listener")
struct AdminListenerTests {
    @Test("with an admin listener, admin and /metrics answer only there; probes answer on both")
    func separateListener() async throws {
        let server = try LatchTestServer.start { $0.adminListen = ListenAddress(host: "127.0.0.1", port: 0) }
        defer { server.stop() }
        let adminPort = try #require(server.app.adminPort)
        let publicSide = WireClient(server)
        let adminSide = WireClient(baseURL: "http://127.0.0.1:\(adminPort)")
        let bearer = ["Authorization": "Bearer \(server.app.adminToken)"]

        #expect(try await publicSide.raw("GET", "/metrics").status == 404)
        #expect(try await publicSide.raw("GET", "/default/admin/audit", headers: bearer).status == 404)
        #expect(try await publicSide.raw("GET", "/healthz").status == 200)
        #expect(
            try await publicSide.raw("GET", "/default/v2.0/.well-known/openid-configuration").status == 200)

        #expect(try await adminSide.raw("GET", "/metrics").status == 200)
        #expect(try await adminSide.raw("GET", "/default/admin/audit", headers: bearer).status == 200)
        #expect(try await adminSide.raw("GET", "/default/admin/audit").status == 401)
        #expect(try await adminSide.raw("GET", "/healthz").status == 200)
        #expect(try await adminSide.raw("GET", "/default/v2.0/.well-known/openid-configuration").status == 404)
        #expect(server.app.banner().contains("admin:     http://127.0.0.1:\(adminPort)"))
    }

    @Test("--admin-listen takes HOST:PORT")
    func parsing() throws {
        #expect(try ListenAddress(parsing: "[::1]:9090", option: "x") == ListenAddress(host: "::1", port: 9090))
        for bad in ["9090", ":9090", "host:port", "127.0.0.1:70000"] {
            #expect(throws: ConfigurationError.self) { try ListenAddress(parsing: bad, option: "x") }
        }
    }
}
