import Foundation
import LatchCrypto
import LatchServer
import LatchTesting
import LatchWire
import Testing

/// Admin tokens scoped to one tenant: they open that tenant's `/{tenant}/admin/*` endpoints only,
/// are refused per RFC 6750 § 3.1 everywhere else (401 `invalid_token`, 403 `insufficient_scope`),
/// and stop the moment they are revoked. The root `admin.token` still opens every tenant.
@Suite("Scoped admin tokens")
struct ScopedAdminTokenTests {
    /// An in-process server with a second tenant `acme`, and a scoped token for `acme`.
    static func serverWithAcmeToken(label: String = "acme deploy") throws -> (LatchTestServer, AdminToken, String) {
        let server = try LatchTestServer.start(mode: .inProcess)
        try server.createTenant("acme", settings: TenantSettings())
        let admin = server.app.services.admin
        let (token, secret) = try admin.createAdminToken(tenant: try admin.tenant(named: "acme"), label: label)
        return (server, token, secret)
    }

    static func bearer(_ token: String) -> [String: String] { ["Authorization": "Bearer \(token)"] }

    @Test("a scoped token opens its own tenant's outbox and audit; the root token still opens every tenant")
    func ownTenant() async throws {
        let (server, token, secret) = try Self.serverWithAcmeToken()
        defer { server.stop() }
        let client = WireClient(server)
        let outbox = try await client.raw("GET", "/acme/admin/outbox", headers: Self.bearer(secret))
        #expect(outbox.status == 200)
        #expect(outbox["messages"] is [Any])
        let audit = try await client.raw("GET", "/acme/admin/audit", headers: Self.bearer(secret))
        #expect(audit.status == 200)
        let events = try #require(audit["events"] as? [[String: Any]])
        #expect(events.contains { $0["kind"] as? String == "admin_token_created" && $0["detail"] as? String == "id=\(token.id)" })

        for tenant in ["acme", "default"] {
            let root = try await client.raw("GET", "/\(tenant)/admin/audit", headers: Self.bearer(server.app.adminToken))
            #expect(root.status == 200, "\(tenant)")
        }
    }

    @Test("a scoped token gets the same 403 insufficient_scope on another tenant's paths, whether that tenant exists or not")
    func wrongTenant() async throws {
        let (server, _, secret) = try Self.serverWithAcmeToken()
        defer { server.stop() }
        let client = WireClient(server)
        var bodies: Set<Data> = []
        for path in ["/default/admin/audit", "/default/admin/outbox", "/nosuch/admin/audit", "/ACME/admin/audit"] {
            let response = try await client.raw("GET", path, headers: Self.bearer(secret))
            #expect(response.status == 403, "\(path)")
            #expect(response.error == "insufficient_scope", "\(path)")
            #expect(response.headers["www-authenticate"] == #"Bearer realm="latch-admin", error="insufficient_scope""#)
            #expect(response.json["events"] == nil && response.json["messages"] == nil)
            bodies.insert(response.body)
        }
        #expect(bodies.count == 1, "the answer must not tell an existing tenant from a missing one")
        // The root token is the one that can tell: a missing tenant is 404 for it.
        let root = try await client.raw("GET", "/nosuch/admin/audit", headers: Self.bearer(server.app.adminToken))
        #expect(root.status == 404)
    }

    @Test("a revoked token gets 401 invalid_token on the next request, also when another process revoked it")
    func revoked() async throws {
        let (server, token, secret) = try Self.serverWithAcmeToken()
        defer { server.stop() }
        let client = WireClient(server)
        let admin = server.app.services.admin
        let (second, secondSecret) = try admin.createAdminToken(tenant: try admin.tenant(named: "acme"), label: "")
        for credential in [secret, secondSecret] {
            #expect(try await client.raw("GET", "/acme/admin/audit", headers: Self.bearer(credential)).status == 200)
        }

        // Revoked in this process.
        let (stored, revokedNow) = try admin.revokeAdminToken(id: token.id)
        #expect(revokedNow && stored.revokedAt == server.clock.now())
        #expect(try !admin.revokeAdminToken(id: token.id).revokedNow)
        // Revoked through a store of its own on the same data directory, as `latchd admin-token revoke` does.
        let (console, close) = try AdminConsole.open(
            dataDirectory: server.dataDirectory, location: LatchTestStore.location(dataDirectory: server.dataDirectory))
        defer { close() }
        #expect(try console.revokeAdminToken(id: second.id).revokedNow)

        for credential in [secret, secondSecret] {
            let response = try await client.raw("GET", "/acme/admin/audit", headers: Self.bearer(credential))
            #expect(response.status == 401)
            #expect(response.error == "invalid_token")
            #expect(response.headers["www-authenticate"] == #"Bearer realm="latch-admin", error="invalid_token""#)
        }
        let kinds = try admin.auditEvents(tenant: try admin.tenant(named: "acme")).map(\.kind)
        #expect(kinds.filter { $0 == .adminTokenRevoked }.count == 2)
        #expect(throws: AuthFailure.invalidParameter(.adminTokenID)) { try admin.revokeAdminToken(id: "0123456789abcdef") }
    }

    /// Bearer values no token has: oversized, not base64url, or empty.
    static let malformed: [String] = [
        "", AdminToken.secretPrefix + String(repeating: "A", count: 300), String(repeating: "x", count: 4096),
        AdminToken.secretPrefix + "abc$def", AdminToken.secretPrefix + "abc def", "latch_admin_abc=", "abc/def+ghi",
        "t\u{F6}ken", "abc\tdef",
    ]

    @Test("a malformed token is refused with 401 invalid_token before the store is asked", arguments: malformed)
    func malformedToken(_ value: String) async throws {
        let authenticator = AdminAuthenticator(store: UnreadableStore(), clock: SystemClock(), rootToken: "root")
        #expect(try authenticator.access(bearer: value, tenantName: "acme") == .invalidToken(.malformed))

        let (server, _, _) = try Self.serverWithAcmeToken()
        defer { server.stop() }
        let response = try await WireClient(server).raw("GET", "/acme/admin/audit", headers: Self.bearer(value))
        #expect(response.status == 401)
        #expect(response.error == "invalid_token")
        #expect(response.json["events"] == nil)
    }

    @Test("a well-formed token nobody made is unknown; the challenge names invalid_token only when a token was sent")
    func unknownAndMissing() async throws {
        let (server, _, secret) = try Self.serverWithAcmeToken()
        defer { server.stop() }
        let client = WireClient(server)
        let forged = AdminToken.secretPrefix + SecureRandom.token(byteCount: 32)
        let authenticator = AdminAuthenticator(
            store: server.app.services.store, clock: server.clock, rootToken: server.app.adminToken)
        #expect(try authenticator.access(bearer: forged, tenantName: "acme") == .invalidToken(.unknown))
        #expect(try authenticator.access(bearer: String(secret.dropLast()), tenantName: "acme") == .invalidToken(.unknown))
        #expect(try authenticator.access(bearer: nil, tenantName: "acme") == .missingToken)
        #expect(try authenticator.access(bearer: server.app.adminToken, tenantName: "nosuch") == .everyTenant)

        let wrong = try await client.raw("GET", "/acme/admin/audit", headers: Self.bearer(forged))
        #expect(wrong.status == 401)
        #expect(wrong.headers["www-authenticate"] == #"Bearer realm="latch-admin", error="invalid_token""#)
        // RFC 6750 § 3.1: no error code for a request that carries no token (or another scheme).
        for headers in [[:], ["Authorization": "Basic \(secret)"]] {
            let missing = try await client.raw("GET", "/acme/admin/audit", headers: headers)
            #expect(missing.status == 401)
            #expect(missing.headers["www-authenticate"] == #"Bearer realm="latch-admin""#)
        }
    }

    @Test("the secret is shown once: prefixed base64url of 32 bytes, stored only as its SHA-256")
    func onlyTheHashIsStored() throws {
        let (server, token, secret) = try Self.serverWithAcmeToken()
        defer { server.stop() }
        #expect(secret.hasPrefix(AdminToken.secretPrefix))
        let random = secret.dropFirst(AdminToken.secretPrefix.count)
        #expect(Base64URL.decode(random)?.count == 32)
        #expect(token.secretHash == Digest.sha256Hex(secret))
        #expect(try server.app.services.admin.adminTokens(tenant: nil) == [token])
        server.app.shutdown(timeout: 5)
        for file in ["latch.db", "latch.db-wal"] {
            let bytes = FileManager.default.contents(atPath: server.dataDirectory + "/" + file) ?? Data()
            #expect(bytes.range(of: Data(random.utf8)) == nil, "\(file) holds the secret")
        }
    }

    @Test("a token's last use is stamped, at most once a minute")
    func lastUse() async throws {
        let (server, token, secret) = try Self.serverWithAcmeToken()
        defer { server.stop() }
        let client = WireClient(server)
        let admin = server.app.services.admin
        func lastUsed() throws -> Date? { try admin.adminTokens(tenant: nil).first { $0.id == token.id }?.lastUsedAt }
        #expect(try lastUsed() == nil)
        _ = try await client.raw("GET", "/default/admin/audit", headers: Self.bearer(secret))
        #expect(try lastUsed() == nil, "a refused request is no use")

        let first = server.clock.now()
        _ = try await client.raw("GET", "/acme/admin/audit", headers: Self.bearer(secret))
        #expect(try lastUsed() == first)
        server.clock.advance(by: 30)
        _ = try await client.raw("GET", "/acme/admin/audit", headers: Self.bearer(secret))
        #expect(try lastUsed() == first)
        server.clock.advance(by: 31)
        _ = try await client.raw("GET", "/acme/admin/audit", headers: Self.bearer(secret))
        #expect(try lastUsed() == server.clock.now())
    }

    @Test("a label longer than 100 characters is refused")
    func longLabel() throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let admin = server.app.services.admin
        let tenant = try admin.tenant(named: "default")
        #expect(throws: AuthFailure.invalidParameter(.adminTokenLabel)) {
            try admin.createAdminToken(tenant: tenant, label: String(repeating: "l", count: 101))
        }
        #expect(try admin.createAdminToken(tenant: tenant, label: String(repeating: "l", count: 100)).token.label.count == 100)
    }
}

/// A store every call to which fails: proof that a decision was made without asking it.
private struct UnreadableStore: Store {
    func read<T>(_ body: (any StoreReading) throws -> T) throws -> T { throw StoreError.unavailable("not to be read") }
    func write<T>(_ body: (any StoreWriting) throws -> T) throws -> T { throw StoreError.unavailable("not to be written") }
    func writeRelaxed<T>(_ body: (any StoreWriting) throws -> T) throws -> T {
        throw StoreError.unavailable("not to be written")
    }
    func close() {}
}
