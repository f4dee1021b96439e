import Foundation
import LatchServer
import LatchTesting
import Testing

/// A confidential client registered in a test server, and form posts that add nothing of their
/// own (no default `client_id`), for the client-authentication suites.
struct ConfidentialClientFixture {
    let server: LatchTestServer
    let clientID: String
    let secret: String

    /// Registers `clientID` in `tenant` as a confidential client allowed `scopes`.
    init(
        _ server: LatchTestServer, clientID: String = "svc", tenant: String = "default",
        scopes: [String] = ["orders.read", "orders.write"]
    ) throws {
        let admin = server.app.services.admin
        let created = try admin.createConfidentialClient(
            tenant: try admin.tenant(named: tenant), id: clientID, name: clientID, allowedScopes: scopes)
        self.server = server
        self.clientID = clientID
        self.secret = created.secret
    }

    /// `Authorization: Basic` for `id` and `secret` (RFC 6749 § 2.3.1).
    static func basic(_ id: String, _ secret: String) -> String {
        "Basic " + Data("\(WireClient.encode(id)):\(WireClient.encode(secret))".utf8).base64EncodedString()
    }

    /// This client's Basic header.
    var basicHeader: String { Self.basic(clientID, secret) }

    /// POSTs exactly `form` to `/{tenant}/{path}`.
    func post(
        _ path: String, _ form: [String: String], headers: [String: String] = [:], tenant: String = "default"
    ) async throws -> WireResponse {
        try await Self.post(server, path, form, headers: headers, tenant: tenant)
    }

    /// POSTs exactly `form` to `/{tenant}/{path}` of `server`.
    static func post(
        _ server: LatchTestServer, _ path: String, _ form: [String: String], headers: [String: String] = [:],
        tenant: String = "default"
    ) async throws -> WireResponse {
        let body = form.sorted { $0.key < $1.key }
            .map { "\(WireClient.encode($0.key))=\(WireClient.encode($0.value))" }.joined(separator: "&")
        return try await WireClient(server).raw(
            "POST", "/\(tenant)/\(path)", body: Data(body.utf8),
            headers: ["Content-Type": "application/x-www-form-urlencoded"].merging(headers) { $1 })
    }

    /// A `client_credentials` token request authenticated with Basic.
    func token(scope: String? = nil) async throws -> WireResponse {
        var form = ["grant_type": "client_credentials"]
        if let scope { form["scope"] = scope }
        return try await post("oauth2/v2.0/token", form, headers: ["Authorization": basicHeader])
    }

    /// An introspection request (RFC 7662 § 2.1) authenticated with `client_secret_post`.
    func introspect(_ token: String, hint: String? = nil, tenant: String = "default") async throws -> WireResponse {
        var form = ["token": token, "client_id": clientID, "client_secret": secret]
        if let hint { form["token_type_hint"] = hint }
        return try await post("oauth2/v2.0/introspect", form, tenant: tenant)
    }
}
