import Foundation
import LatchServer
import LatchTesting
import Testing

/// Shared steps of the out-of-band code suites: accounts to send codes for, the codes read back
/// from the outbox, a client of another tenant, and the exact error check.
enum OobFixtures {
    static let password = NativeAuthFixture.password
    static let send = FirebaseClient.v1 + "accounts:sendOobCode"
    static let sendV3 = FirebaseClient.v3 + "getOobConfirmationCode"
    static let reset = FirebaseClient.v1 + "accounts:resetPassword"
    static let resetV3 = FirebaseClient.v3 + "resetPassword"
    static let update = FirebaseClient.v1 + "accounts:update"
    static let updateV3 = FirebaseClient.v3 + "setAccountInfo"
    static let emailLink = FirebaseClient.v1 + "accounts:signInWithEmailLink"
    static let emailLinkV3 = FirebaseClient.v3 + "emailLinkSignin"

    /// Expects the family's exact error body for `message`.
    static func expectError(
        _ reply: WireResponse, _ message: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(reply.status == 400, sourceLocation: sourceLocation)
        #expect(
            String(decoding: reply.body, as: UTF8.self) == FirebaseClient.errorBody(message),
            sourceLocation: sourceLocation)
    }

    /// Signs up `email` with the fixture password; the answer's ID token and local id.
    static func signUp(_ client: FirebaseClient, _ email: String) async throws -> (idToken: String, localID: String) {
        let reply = try await client.post(
            FirebaseClient.v1 + "accounts:signUp", ["email": email, "password": password, "returnSecureToken": true])
        #expect(reply.status == 200, "\(reply.json)")
        return (try #require(reply.string("idToken")), try #require(reply.string("localId")))
    }

    /// The code of the newest message to `recipient`, which must exist.
    static func code(_ client: FirebaseClient, to recipient: String, tenant: String = "default") throws -> String {
        try #require(try client.server.latestCode(to: recipient, tenant: tenant))
    }

    /// The newest message to `recipient`.
    static func message(_ client: FirebaseClient, to recipient: String) throws -> OutboxMessage {
        try #require(try client.server.outbox(to: recipient).first)
    }

    /// Sends a code of `requestType` and returns it, read from the outbox of `recipient`.
    static func sendCode(
        _ client: FirebaseClient, _ requestType: String, to recipient: String, body: [String: Any] = [:],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String {
        var request = body
        request["requestType"] = requestType
        if request["email"] == nil, request["idToken"] == nil { request["email"] = recipient }
        let reply = try await client.post(send, request)
        #expect(reply.status == 200, "\(reply.json)", sourceLocation: sourceLocation)
        return try code(client, to: recipient)
    }

    /// A client of a second tenant `other` on the same server.
    static func otherTenant(_ client: FirebaseClient, settings: TenantSettings = TenantSettings()) throws
        -> FirebaseClient
    {
        let server = client.server
        try server.createTenant("other", settings: settings)
        let tenant = try server.app.services.admin.tenant(named: "other")
        var other = client
        other.apiKey = try #require(try server.app.services.store.read { try $0.client(id: "latch-dev", tenantID: tenant.id) })
            .apiKey
        return other
    }

    /// The account of `email` in the default tenant.
    static func user(_ client: FirebaseClient, _ email: String) throws -> User? {
        let services = client.server.app.services
        let tenant = try services.admin.tenant(named: client.server.tenant)
        return try services.store.read { try $0.user(email: email, tenantID: tenant.id) }
    }
}
