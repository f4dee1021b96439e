import Foundation
import LatchServer
import LatchTesting
import Testing

/// The device authorization grant over HTTP (RFC 8628): the device authorization response
/// (§ 3.2), each poll outcome (§ 3.5: `authorization_pending`, `slow_down`, `expired_token`,
/// `access_denied`), tokens once approved, single use, binding to the client, and the user-code
/// rules of the verification page (§ 5.1, § 6.1).
@Suite("Device authorization grant")
struct DeviceGrantTests {
    @Test("start → pending → slow_down → approve → tokens → the second poll is invalid_grant")
    func fullFlow() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let fixture = DeviceGrantFixture(server)
        let reply = try await fixture.start()
        #expect(reply.status == 200, "\(String(decoding: reply.body, as: UTF8.self))")
        #expect(reply.headers["cache-control"] == "no-store")
        let deviceCode = try #require(reply.string("device_code"))
        let userCode = try #require(reply.string("user_code"))
        let uri = "\(server.baseURL)/default/oauth2/v2.0/devicelogin"
        #expect(deviceCode.utf8.count == 43)
        #expect(reply.string("verification_uri") == uri)
        #expect(reply.string("verification_uri_complete") == "\(uri)?user_code=\(userCode)")
        #expect((reply["expires_in"] as? NSNumber)?.intValue == 600)
        #expect((reply["interval"] as? NSNumber)?.intValue == 5)
        #expect(reply.string("message")?.contains(userCode) == true)
        #expect(reply.string("message")?.contains(uri) == true)

        let first = try await fixture.poll(deviceCode)
        #expect(first.status == 400)
        #expect(first.error == "authorization_pending")
        #expect(first.errorCodes == [70016])
        let tooSoon = try await fixture.poll(deviceCode)
        #expect(tooSoon.status == 400)
        #expect(tooSoon.error == "slow_down")
        server.clock.advance(by: 6)  // the interval is 10 s now
        #expect(try await fixture.poll(deviceCode).error == "slow_down")
        server.clock.advance(by: 16)
        #expect(try await fixture.poll(deviceCode).error == "authorization_pending")

        let shown = try fixture.services.deviceAuthorizations.pending(
            userCode: userCode.lowercased(), tenant: try fixture.tenant(), remoteAddress: "198.51.100.7")
        #expect(shown.clientID == "latch-dev")
        #expect(shown.scopes == ["openid", "offline_access"])
        #expect(shown.userCode == userCode)
        let user = try fixture.user()
        let authTime = server.clock.now()
        try fixture.approve(userCode, user: user, amr: ["pwd", "mfa"])
        #expect(
            DeviceGrantFixture.failure {
                _ = try fixture.services.deviceAuthorizations.pending(
                    userCode: userCode, tenant: try fixture.tenant(), remoteAddress: "198.51.100.7")
            } == .deviceAuthorization(.invalidUserCode))

        server.clock.advance(by: 20)
        let tokens = try await fixture.poll(deviceCode)
        #expect(tokens.status == 200, "\(String(decoding: tokens.body, as: UTF8.self))")
        #expect(tokens.headers["cache-control"] == "no-store")
        #expect(tokens.string("token_type") == "Bearer")
        #expect(tokens.string("refresh_token") != nil)
        let idToken = try DecodedJWT(try #require(tokens.string("id_token")))
        #expect(idToken.string("sub") == user.id)
        #expect(idToken.int("auth_time") == Int(authTime.timeIntervalSince1970))
        #expect(idToken.claims["amr"] as? [String] == ["pwd", "mfa"])
        _ = try DecodedJWT(try #require(tokens.string("access_token")))

        let audit = try fixture.services.store.read { tx in try tx.auditEvents(tenantID: try fixture.tenant().id, limit: 50) }
        #expect(audit.contains { $0.kind == .deviceAuthorizationApproved && $0.userID == user.id && $0.detail == "amr=pwd,mfa" })
        #expect(audit.contains { $0.kind == .signInSucceeded && $0.userID == user.id })

        let again = try await fixture.poll(deviceCode)
        #expect(again.status == 400)
        #expect(again.error == "invalid_grant")

        // The refresh token works like any other.
        let refreshed = try await fixture.client.post(
            "oauth2/v2.0/token", ["grant_type": "refresh_token", "refresh_token": try #require(tokens.string("refresh_token"))])
        #expect(refreshed.status == 200)
    }

    @Test("a denied request answers access_denied, and can no longer be approved")
    func denied() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let fixture = DeviceGrantFixture(server)
        let (deviceCode, userCode) = try await fixture.started()
        try fixture.services.deviceAuthorizations.deny(userCode: userCode, tenant: try fixture.tenant())
        let reply = try await fixture.poll(deviceCode)
        #expect(reply.status == 400)
        #expect(reply.error == "access_denied")
        let user = try fixture.user()
        #expect(
            DeviceGrantFixture.failure { try fixture.approve(userCode, user: user) } == .deviceAuthorization(.invalidUserCode))
        #expect(
            DeviceGrantFixture.failure {
                try fixture.services.deviceAuthorizations.deny(userCode: userCode, tenant: try fixture.tenant())
            } == .deviceAuthorization(.invalidUserCode))
        server.clock.advance(by: 10)
        #expect(try await fixture.poll(deviceCode).error == "access_denied")
        let kinds = try fixture.services.store.read { tx in
            try tx.auditEvents(tenantID: try fixture.tenant().id, limit: 50).map(\.kind)
        }
        #expect(kinds.filter { $0 == .deviceAuthorizationDenied }.count == 1)
    }

    @Test("after expires_in the poll answers expired_token and the user code is gone")
    func expired() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let fixture = DeviceGrantFixture(server)
        let (deviceCode, userCode) = try await fixture.started()
        server.clock.advance(by: 601)
        let reply = try await fixture.poll(deviceCode)
        #expect(reply.status == 400)
        #expect(reply.error == "expired_token")
        let user = try fixture.user()
        #expect(
            DeviceGrantFixture.failure { try fixture.approve(userCode, user: user) } == .deviceAuthorization(.invalidUserCode))
        #expect(
            DeviceGrantFixture.failure {
                _ = try fixture.services.deviceAuthorizations.pending(
                    userCode: userCode, tenant: try fixture.tenant(), remoteAddress: "198.51.100.7")
            } == .deviceAuthorization(.invalidUserCode))

        // Approved, but polled only after expiry: still expired.
        let (late, lateUser) = try await fixture.started()
        try fixture.approve(lateUser, user: user)
        server.clock.advance(by: 601)
        #expect(try await fixture.poll(late).error == "expired_token")
    }

    @Test("another client, or the same client in another tenant, gets invalid_grant")
    func wrongClient() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let fixture = DeviceGrantFixture(server)
        let confidential = try ConfidentialClientFixture(server)
        _ = try server.createTenant("other", settings: TenantSettings())
        let (deviceCode, userCode) = try await fixture.started()
        try fixture.approve(userCode, user: try fixture.user())
        let other = try await confidential.post(
            "oauth2/v2.0/token", ["grant_type": DeviceGrantFixture.grantType, "device_code": deviceCode],
            headers: ["Authorization": confidential.basicHeader])
        #expect(other.status == 400)
        #expect(other.error == "invalid_grant")
        let elsewhere = try await fixture.poll(deviceCode, via: WireClient(server, tenant: "other"))
        #expect(elsewhere.status == 400)
        #expect(elsewhere.error == "invalid_grant")
        // The rightful client still gets its tokens.
        #expect(try await fixture.poll(deviceCode).status == 200)
    }

    @Test("a missing device_code is invalid_request; a malformed or unknown one invalid_grant; never 500")
    func malformedDeviceCode() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let fixture = DeviceGrantFixture(server)
        let missing = try await fixture.poll(nil)
        #expect(missing.status == 400)
        #expect(missing.error == "invalid_request")
        #expect(missing.string("error_description") == "device_code parameter is empty or not valid")
        #expect(try await fixture.poll("").error == "invalid_request")
        for code in [
            "abc", String(repeating: "A", count: 43), String(repeating: "!", count: 43), String(repeating: "x", count: 5000),
        ] {
            let reply = try await fixture.poll(code)
            #expect(reply.status == 400, "\(code.prefix(8))")
            #expect(reply.error == "invalid_grant", "\(code.prefix(8))")
        }
    }

    @Test("under an MFA policy, an approval without a second factor is a claims challenge; with one it applies")
    func secondFactorPolicy() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        try server.updateTenant { $0.mfa.policy = .required }
        let fixture = DeviceGrantFixture(server)
        let (deviceCode, userCode) = try await fixture.started()
        let user = try fixture.user()
        guard case .claimsChallenge(let claims) = DeviceGrantFixture.failure({ try fixture.approve(userCode, user: user) })
        else {
            Issue.record("expected a claims challenge")
            return
        }
        #expect(claims.contains("mfa"))
        #expect(try await fixture.poll(deviceCode).error == "authorization_pending")
        try fixture.approve(userCode, user: user, amr: ["pwd", "otp", "mfa"])
        server.clock.advance(by: 5)
        #expect(try await fixture.poll(deviceCode).status == 200)
    }

    @Test("a disabled account at poll time gets invalid_grant")
    func disabledUser() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let fixture = DeviceGrantFixture(server)
        let (deviceCode, userCode) = try await fixture.started()
        var user = try fixture.user()
        try fixture.approve(userCode, user: user)
        user.disabled = true
        try fixture.services.store.write { tx in try tx.update(user) }
        let reply = try await fixture.poll(deviceCode)
        #expect(reply.status == 400)
        #expect(reply.error == "invalid_grant")
    }

    @Test("device authorization requests: confidential clients authenticate, scopes are checked, unknown clients refused")
    func startFailures() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let fixture = DeviceGrantFixture(server)
        let confidential = try ConfidentialClientFixture(server)
        let unauthenticated = try await confidential.post("oauth2/v2.0/devicecode", ["client_id": "svc"])
        #expect(unauthenticated.status == 401)
        #expect(unauthenticated.error == "invalid_client")
        let authenticated = try await confidential.post(
            "oauth2/v2.0/devicecode", ["scope": "orders.read"], headers: ["Authorization": confidential.basicHeader])
        #expect(authenticated.status == 200)
        let unknown = try await fixture.start(["client_id": "nobody"])
        #expect(unknown.status == 401)
        #expect(unknown.error == "invalid_client")
        let badScope = try await fixture.start(["scope": "bad\\scope"])
        #expect(badScope.status == 400)
        #expect(badScope.error == "invalid_scope")
        let json = try await fixture.client.raw(
            "POST", "/default/oauth2/v2.0/devicecode", body: Data("{}".utf8), headers: ["Content-Type": "application/json"])
        #expect(json.status == 400 || json.status == 415)
        #expect(json.error != nil)
        let get = try await fixture.client.raw("GET", "/default/oauth2/v2.0/devicecode")
        #expect(get.status == 405)
        let noTenant = try await WireClient(server, tenant: "nowhere").post("oauth2/v2.0/devicecode", [:])
        #expect(noTenant.status == 404)
        #expect(noTenant.error == "invalid_tenant")
    }

    @Test("device authorization requests and polls from one source are rate limited with 429 and Retry-After")
    func rateLimited() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        try server.updateTenant {
            $0.rateLimits.flowStarts = RateLimit(count: 2, periodSeconds: 60)
            $0.rateLimits.tokenRequests = RateLimit(count: 2, periodSeconds: 60)
        }
        let fixture = DeviceGrantFixture(server)
        let (deviceCode, _) = try await fixture.started()
        #expect(try await fixture.start().status == 200)
        let refused = try await fixture.start()
        #expect(refused.status == 429)
        #expect(refused.error == "too_many_requests")
        #expect(Int(refused.headers["retry-after"] ?? "") ?? 0 >= 1)
        for _ in 0..<2 { #expect(try await fixture.poll(deviceCode).status == 400) }
        let polled = try await fixture.poll(deviceCode)
        #expect(polled.status == 429)
        #expect(Int(polled.headers["retry-after"] ?? "") ?? 0 >= 1)
    }

    @Test("discovery advertises the device authorization endpoint and the grant")
    func discovery() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let reply = try await WireClient(server).raw("GET", "/default/v2.0/.well-known/openid-configuration")
        #expect(reply.string("device_authorization_endpoint") == "\(server.baseURL)/default/oauth2/v2.0/devicecode")
        #expect((reply["grant_types_supported"] as? [String])?.contains(DeviceGrantFixture.grantType) == true)
        // The advertised endpoint answers.
        let endpoint = try #require(reply.string("device_authorization_endpoint"))
        let path = String(endpoint.dropFirst(server.baseURL.count))
        let started = try await WireClient(server).raw(
            "POST", path, body: Data("client_id=latch-dev".utf8),
            headers: ["Content-Type": "application/x-www-form-urlencoded"])
        #expect(started.status == 200)
    }
}
