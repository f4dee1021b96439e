import Foundation
import LatchServer
import LatchTesting
import Testing

/// Scopes a client may not have are declined, not refused: the token response's `scope` lists
/// what was granted, so the client can tell what was declined.
@Suite("Declined scopes")
struct DeclinedScopeTests {
    @Test("a scope outside the client's allowed ones is left out of the grant; the OIDC scopes are always granted")
    func declinedNotRefused() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let tenant = try server.app.services.directory.tenant(named: "default")
        _ = try server.app.services.admin.createClient(
            tenant: tenant, id: "files-app", name: "Files", allowedScopes: ["files.read"])
        let email = TokenHelpers.uniqueEmail("scopes")
        _ = try server.createUser(email: email, password: TokenHelpers.password)
        let client = WireClient(server, clientID: "files-app")
        let reply = try await TokenHelpers.passwordSignIn(
            client, email: email, scope: "openid profile offline_access files.read files.admin")
        #expect(reply.status == 200, "\(reply.json)")
        let granted = Set((reply.string("scope") ?? "").split(separator: " ").map(String.init))
        #expect(granted == ["openid", "profile", "offline_access", "files.read"])
        let access = try SecondFactorTests.claims(of: reply.string("access_token"))
        #expect((access["scp"] as? String)?.contains("files.admin") == false)

        let onlyDeclined = try await TokenHelpers.passwordSignIn(client, email: email, scope: "files.admin")
        #expect(onlyDeclined.status == 400)
        #expect(onlyDeclined.error == "invalid_scope")
    }
}
