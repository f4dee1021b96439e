import Foundation
import Latch
import LatchServer
import LatchTesting
import Testing

/// A real server (in process) and an SDK client with the development client's API key, for the
/// seed's Firebase method tables: each test asserts the code number and the `ERROR_…` name.
struct FirebaseSeedHarness {
    let server: LatchTestServer
    let client: LatchClient

    /// Starts the server (its tenant changed by `tenant`) and a client for it.
    static func start(tenant change: ((inout TenantSettings) -> Void)? = nil) throws -> FirebaseSeedHarness {
        let server = try LatchTestServer.start(mode: .inProcess)
        if let change { try server.updateTenant("default", change) }
        let tenant = try server.app.services.directory.tenant(named: "default")
        let apiKey = try #require(try server.app.services.admin.clients(tenant: tenant).first { $0.id == "latch-dev" }?.apiKey)
        return FirebaseSeedHarness(server: server, client: try server.makeClient { $0.apiKey = apiKey })
    }

    var auth: LatchFirebaseAuth { client.firebase }

    /// A fresh e-mail and password user, signed in through the Firebase surface.
    func signedInUser(_ label: String) async throws -> (LatchUser, email: String) {
        let email = SDKTest.email(label)
        return (try await auth.createUser(email: email, password: SDKTest.password), email)
    }

    /// Changes the stored user `email` (to disable it, say) directly in the store.
    func changeUser(_ email: String, _ change: (inout User) -> Void) throws {
        let tenant = try server.app.services.admin.tenant(named: "default")
        try server.app.services.store.write { tx in
            guard var user = try tx.user(email: email, tenantID: tenant.id) else { return }
            change(&user)
            try tx.update(user)
        }
    }

    /// Moves the server's clock past the recent-sign-in window.
    func outlastRecentSignIn() {
        server.clock.advance(by: 301)
    }

    func stop() { server.stop() }
}

/// Expects `body` to fail with `code`, whose name is `name`, as a ``LatchError``.
func expectLatchError<T>(
    _ code: LatchError.Code, _ name: String, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> T
) async {
    do {
        _ = try await body()
        Issue.record("expected \(name) (\(code.rawValue)), but it succeeded", sourceLocation: sourceLocation)
    } catch let error as LatchError {
        #expect(error.code == code, "got \(error.code) for \(error.message)", sourceLocation: sourceLocation)
        #expect(error.code.rawValue == code.rawValue, sourceLocation: sourceLocation)
        #expect(error.name == name, sourceLocation: sourceLocation)
    } catch {
        Issue.record("expected \(name), got \(error)", sourceLocation: sourceLocation)
    }
}
