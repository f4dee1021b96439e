import Foundation
import LatchServer
import LatchTesting
import Testing

/// Speaks the Firebase-shaped family to an in-process ``LatchTestServer``: JSON bodies posted to
/// `/identitytoolkit.googleapis.com/v1/accounts:*`, the v3 `relyingparty/*` aliases and
/// securetoken, with the API key of the default client in `?key=`.
struct FirebaseClient: Sendable {
    let server: LatchTestServer
    let wire: WireClient
    /// The API key sent as `?key=`; `nil` sends none.
    var apiKey: String?

    static let v1 = "/identitytoolkit.googleapis.com/v1/"
    static let v3 = "/www.googleapis.com/identitytoolkit/v3/relyingparty/"
    static let securetoken = "/securetoken.googleapis.com/v1/token"

    init(_ server: LatchTestServer) throws {
        self.server = server
        wire = WireClient(server)
        let tenant = try server.app.services.admin.tenant(named: server.tenant)
        apiKey = try #require(try server.app.services.store.read { try $0.client(id: server.clientID, tenantID: tenant.id) })
            .apiKey
    }

    /// POSTs `body` as JSON to `path` (one of the prefixes above plus the endpoint).
    func post(_ path: String, _ body: [String: Any]) async throws -> WireResponse {
        let data = try JSONSerialization.data(withJSONObject: body)
        return try await wire.raw(
            "POST", path + (apiKey.map { "?key=\(WireClient.encode($0))" } ?? ""), body: data,
            headers: ["Content-Type": "application/json"])
    }

    /// POSTs a form to securetoken.
    func postForm(_ path: String, _ form: [String: String]) async throws -> WireResponse {
        let body = form.sorted { $0.key < $1.key }.map { "\(WireClient.encode($0.key))=\(WireClient.encode($0.value))" }
            .joined(separator: "&")
        return try await wire.raw(
            "POST", path + (apiKey.map { "?key=\(WireClient.encode($0))" } ?? ""), body: Data(body.utf8),
            headers: ["Content-Type": "application/x-www-form-urlencoded"])
    }

    /// The exact error body the family sends for `message`.
    static func errorBody(_ message: String, code: Int = 400, reason: String = "invalid") -> String {
        #"{"error":{"code":\#(code),"message":"\#(message)","errors":[{"message":"\#(message)","domain":"global","reason":"\#(reason)"}]}}"#
    }

    /// The payload of a compact JWS, decoded (not verified).
    static func claims(of token: String) throws -> [String: Any] {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        try #require(parts.count == 3)
        let payload = try #require(base64URL(parts[1]))
        return try #require(try JSONSerialization.jsonObject(with: payload) as? [String: Any])
    }

    /// The protected header of a compact JWS.
    static func header(of token: String) throws -> [String: Any] {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        let header = try #require(base64URL(parts[0]))
        return try #require(try JSONSerialization.jsonObject(with: header) as? [String: Any])
    }

    private static func base64URL(_ text: Substring) -> Data? {
        var base = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base.count % 4 != 0 { base += "=" }
        return Data(base64Encoded: base)
    }
}

/// Runs `body` against a fresh in-process server.
func withFirebaseServer<R>(_ body: (FirebaseClient) async throws -> R) async throws -> R {
    let server = try LatchTestServer.start(mode: .inProcess)
    defer { server.stop() }
    return try await body(try FirebaseClient(server))
}
