import Foundation
import LatchServer
import LatchTesting
import Testing

/// A test server and the wire steps of the device authorization grant (RFC 8628): the device
/// authorization request and the token polls over HTTP, and the verification page's decisions
/// through the domain API the page calls.
struct DeviceGrantFixture {
    let server: LatchTestServer
    let client: WireClient

    /// The grant type of the polls.
    static let grantType = "urn:ietf:params:oauth:grant-type:device_code"

    init(_ server: LatchTestServer, tenant: String = "default") {
        self.server = server
        client = WireClient(server, tenant: tenant)
    }

    var services: AuthServices { server.app.services }

    /// The tenant named `name`.
    func tenant(_ name: String = "default") throws -> Tenant { try services.directory.tenant(named: name) }

    /// `POST oauth2/v2.0/devicecode` as `latch-dev` (or with `form` as given).
    func start(_ form: [String: String] = [:], headers: [String: String] = [:]) async throws -> WireResponse {
        try await client.post("oauth2/v2.0/devicecode", form, headers: headers)
    }

    /// Starts one and returns its device and user codes.
    func started(scope: String? = nil) async throws -> (deviceCode: String, userCode: String) {
        let reply = try await start(scope.map { ["scope": $0] } ?? [:])
        try #require(reply.status == 200, "\(String(decoding: reply.body, as: UTF8.self))")
        return (try #require(reply.string("device_code")), try #require(reply.string("user_code")))
    }

    /// One poll of the token endpoint with `deviceCode` (omitted when `nil`).
    func poll(_ deviceCode: String?, via client: WireClient? = nil, extra: [String: String] = [:]) async throws
        -> WireResponse
    {
        var form = ["grant_type": Self.grantType]
        if let deviceCode { form["device_code"] = deviceCode }
        return try await (client ?? self.client).post("oauth2/v2.0/token", form.merging(extra) { $1 })
    }

    /// A user of the tenant, and the approval the verification page makes for it.
    func approve(_ userCode: String, user: User, amr: [String] = ["pwd"], tenant: String = "default") throws {
        try services.deviceAuthorizations.approve(
            userCode: userCode, tenant: try self.tenant(tenant), userID: user.id, authTime: server.clock.now(), amr: amr)
    }

    /// A new verified user.
    func user() throws -> User {
        try server.createUser(email: TokenHelpers.uniqueEmail("device"), password: TokenHelpers.password)
    }

    /// The failure `body` throws, if it is an ``AuthFailure``.
    static func failure(_ body: () throws -> Void) -> AuthFailure? {
        do {
            try body()
            return nil
        } catch let failure as AuthFailure {
            return failure
        } catch {
            return nil
        }
    }
}
