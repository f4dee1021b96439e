import Foundation
import LatchServer
import LatchTesting
import Testing

/// Speaks firebase-admin's calls to an in-process ``LatchTestServer``: JSON under
/// `/identitytoolkit.googleapis.com/v1/projects/{project}/…` with `Authorization: Bearer <token>`
/// (`reference/firebase-auth-protocol.md` § 6).
struct FirebaseAdminClient: Sendable {
    let server: LatchTestServer
    let wire: WireClient
    /// The bearer credential; `nil` sends none.
    var bearer: String?
    /// The project (tenant name) in the path.
    var project: String
    /// A `tenants/{tenant}` segment, when set.
    var tenantSegment: String?

    static let base = "/identitytoolkit.googleapis.com/v1/projects/"

    init(_ server: LatchTestServer, bearer: String? = "owner") {
        self.server = server
        wire = WireClient(server)
        self.bearer = bearer
        project = server.tenant
    }

    /// The path of the administration call `name` (`accounts:lookup`).
    func path(_ name: String) -> String {
        Self.base + project + (tenantSegment.map { "/tenants/\($0)" } ?? "") + "/" + name
    }

    private var headers: [String: String] {
        var headers = ["Content-Type": "application/json"]
        if let bearer { headers["Authorization"] = "Bearer \(bearer)" }
        return headers
    }

    /// POSTs `body` to the call `name`.
    func post(_ name: String, _ body: [String: Any]) async throws -> WireResponse {
        try await raw("POST", path(name), body: body)
    }

    /// Sends `body` (when given) to `path`.
    func raw(_ method: String, _ path: String, body: [String: Any]? = nil) async throws -> WireResponse {
        let data = try body.map { try JSONSerialization.data(withJSONObject: $0) }
        return try await wire.raw(method, path, body: data, headers: headers)
    }

    /// Creates an account and answers its id.
    @discardableResult
    func create(_ body: [String: Any]) async throws -> String {
        let reply = try await post("accounts", body)
        try #require(reply.status == 200, "\(String(decoding: reply.body, as: UTF8.self))")
        return try #require(reply.string("localId"))
    }

    /// The record of the account `id`.
    func user(_ id: String) async throws -> [String: Any] {
        let reply = try await post("accounts:lookup", ["localId": [id]])
        let users = try #require(reply["users"] as? [[String: Any]])
        return try #require(users.first)
    }
}

/// Runs `body` against a fresh in-process server in emulator mode (or not).
func withFirebaseAdminServer<R>(emulator: Bool = true, _ body: (FirebaseAdminClient) async throws -> R) async throws -> R {
    let server = try LatchTestServer.start(mode: .inProcess) { $0.emulator = emulator }
    defer { server.stop() }
    return try await body(FirebaseAdminClient(server, bearer: emulator ? "owner" : server.app.adminToken))
}
