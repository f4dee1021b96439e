import Foundation
import LatchServer
import LatchTesting
import Testing

/// The `refresh_token` grant (RFC 6749 § 6) with rotation and reuse detection (RFC 9700 § 4.14.2).
@Suite("Refresh token grant")
struct RefreshTokenTests {
    /// `error_codes` Latch uses for refresh failures.
    enum Code {
        static let reused = 9_000_002
        static let revoked = 70008
        static let unknown = 9_002_313
        static let invalidParameter = 90100
        static let scopeNotAllowed = 9_000_004
    }

    @Test("a refresh rotates the token; replaying the old one after the grace window revokes the whole family")
    func rotationAndReuseDetection() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let (client, first, original) = try await Self.signedIn(server)

        let rotated = try TokenGrant(try await TokenHelpers.refresh(client, original))
        let successor = rotated.refreshToken
        #expect(successor != original)
        #expect(rotated.accessToken != first.accessToken)

        // The successor works and rotates in turn.
        let next = try TokenGrant(try await TokenHelpers.refresh(client, successor))
        let newest = try #require(next.refreshToken)

        server.clock.advance(by: 6)  // past the default 5 s grace window
        let replay = try await TokenHelpers.refresh(client, original)
        #expect(replay.status == 400)
        #expect(replay.error == "invalid_grant")
        #expect(replay.errorCodes == [Code.reused])

        // The whole family is gone: the newest token fails too, and keeps failing.
        let afterRevoke = try await TokenHelpers.refresh(client, newest)
        #expect(afterRevoke.status == 400)
        #expect(afterRevoke.error == "invalid_grant")
        #expect(afterRevoke.errorCodes == [Code.revoked])
        let againOriginal = try await TokenHelpers.refresh(client, original)
        #expect(againOriginal.errorCodes == [Code.revoked])

        // Reuse is audited.
        let tenant = try server.app.services.admin.tenant(named: "default")
        let events = try server.app.services.admin.auditEvents(tenant: tenant, limit: 50)
        #expect(events.contains { $0.kind == .refreshTokenReuse })
    }

    @Test("inside the grace window, an unused successor is replaced: the old successor stops working, no branch remains")
    func graceReplacesUnusedSuccessor() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let (client, _, original) = try await Self.signedIn(server)
        let grace = TenantSettings().refreshReuseGraceSeconds
        #expect(grace == 5)

        let a = try TokenGrant(try await TokenHelpers.refresh(client, original))
        server.clock.advance(by: TimeInterval(grace) - 2)
        // The answer to `a` was lost: the client presents the original again.
        let b = try TokenGrant(try await TokenHelpers.refresh(client, original))
        let successorA = try #require(a.refreshToken)
        let successorB = try #require(b.refreshToken)
        #expect(successorA != successorB)

        // The replaced successor is gone (not reuse: the family lives on); the new one works.
        let stale = try await TokenHelpers.refresh(client, successorA)
        #expect(stale.status == 400)
        #expect(stale.errorCodes == [Code.unknown])
        let fromB = try TokenGrant(try await TokenHelpers.refresh(client, successorB))
        #expect(fromB.refreshToken != nil)
    }

    @Test("a rotated token whose successor was used is reuse, even inside the grace window")
    func graceRefusesWhenSuccessorUsed() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let (client, _, original) = try await Self.signedIn(server)
        let rotated = try TokenGrant(try await TokenHelpers.refresh(client, original))
        let next = try TokenGrant(try await TokenHelpers.refresh(client, rotated.refreshToken))
        server.clock.advance(by: 1)

        let replay = try await TokenHelpers.refresh(client, original)
        #expect(replay.status == 400)
        #expect(replay.errorCodes == [Code.reused])
        #expect(try await TokenHelpers.refresh(client, next.refreshToken).errorCodes == [Code.revoked])
    }

    @Test("a third use inside the window replaces again; after the window the rotated token is reuse")
    func graceRepeatsInsideTheWindowOnly() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let (client, _, original) = try await Self.signedIn(server)
        var successors: [String] = []
        for _ in 0..<3 {
            successors.append(try #require(try TokenGrant(try await TokenHelpers.refresh(client, original)).refreshToken))
            server.clock.advance(by: 1)
        }
        #expect(Set(successors).count == 3)
        // Only the newest successor is live.
        for stale in successors.dropLast() {
            #expect(try await TokenHelpers.refresh(client, stale).errorCodes == [Code.unknown])
        }
        // The window counts from the first rotation, not from the last use.
        server.clock.advance(by: 3)
        let late = try await TokenHelpers.refresh(client, original)
        #expect(late.errorCodes == [Code.reused])
        #expect(try await TokenHelpers.refresh(client, successors[successors.count - 1]).errorCodes == [Code.revoked])
    }

    /// A signed-in user of the default tenant: a client, the first tokens, and their refresh token.
    static func signedIn(_ server: LatchTestServer) async throws -> (WireClient, TokenGrant, String) {
        let (_, first) = try await TokenHelpers.userWithTokens(server)
        return (WireClient(server), first, try #require(first.refreshToken))
    }

    /// A tenant `strict` with no grace window, a signed-in user there, and their refresh token.
    static func signedInWithoutGrace(_ server: LatchTestServer) async throws -> (WireClient, String) {
        var settings = TenantSettings()
        settings.refreshReuseGraceSeconds = 0
        try server.createTenant("strict", settings: settings)
        let (_, first) = try await TokenHelpers.userWithTokens(server, tenant: "strict")
        return (WireClient(server, tenant: "strict"), try #require(first.refreshToken))
    }

    @Test("with a grace window of 0 the first replay revokes the family")
    func zeroGraceRevokesImmediately() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let (client, original) = try await Self.signedInWithoutGrace(server)

        let rotated = try TokenGrant(try await TokenHelpers.refresh(client, original))
        let replay = try await TokenHelpers.refresh(client, original)
        #expect(replay.status == 400)
        #expect(replay.error == "invalid_grant")
        #expect(replay.errorCodes == [Code.reused])
        let successorToken = rotated.refreshToken
        let successor = try await TokenHelpers.refresh(client, successorToken)
        #expect(successor.errorCodes == [Code.revoked])
    }

    @Test("a refresh token presented by another client is refused and stays usable by its own client")
    func otherClient() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let admin = server.app.services.admin
        try admin.createClient(tenant: try admin.tenant(named: "default"), id: "other-app", name: "Other")
        let (_, first) = try await TokenHelpers.userWithTokens(server)
        let token = try #require(first.refreshToken)

        let foreign = try await TokenHelpers.refresh(WireClient(server, clientID: "other-app"), token)
        #expect(foreign.status == 400)
        #expect(foreign.error == "invalid_grant")
        #expect(foreign.errorCodes == [Code.unknown])

        // Another tenant's token endpoint does not know it either.
        try server.createTenant("elsewhere", settings: TenantSettings())
        let otherTenant = try await TokenHelpers.refresh(WireClient(server, tenant: "elsewhere"), token)
        #expect(otherTenant.status == 400)
        #expect(otherTenant.error == "invalid_grant")

        // Neither attempt rotated or revoked the token.
        let own = try await TokenHelpers.refresh(WireClient(server), token)
        #expect(own.status == 200)
    }

    @Test("the family's lifetime is absolute: refreshing does not extend it")
    func expiredFamily() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let client = WireClient(server)
        let (_, first) = try await TokenHelpers.userWithTokens(server)
        let lifetime = TimeInterval(TenantSettings().refreshTokenLifetime)

        server.clock.advance(by: lifetime - 60)
        let original = try #require(first.refreshToken)
        let late = try TokenGrant(try await TokenHelpers.refresh(client, original))
        server.clock.advance(by: 61)
        let successor = try #require(late.refreshToken)
        let expired = try await TokenHelpers.refresh(client, successor)
        #expect(expired.status == 400)
        #expect(expired.error == "invalid_grant")
        #expect(expired.errorCodes == [Code.revoked])
    }

    /// A refresh token that is not one, described briefly in test output.
    struct Malformed: Sendable, CustomTestStringConvertible {
        let value: String
        let testDescription: String
        init(_ value: String, _ description: String? = nil) {
            self.value = value
            testDescription = description ?? value
        }
    }

    @Test(
        "malformed refresh tokens are invalid_grant, never a server error",
        arguments: [
            Malformed("garbage"), Malformed(String(repeating: "A", count: 513), "513 characters"),
            Malformed(String(repeating: "x", count: 20_000), "20,000 characters"), Malformed("\u{7f}bytes", "DEL"),
            Malformed("😀😀😀"), Malformed("' OR 1=1 --"), Malformed("%00%ff"),
        ])
    func malformedToken(_ token: Malformed) async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let response = try await TokenHelpers.refresh(WireClient(server), token.value)
        #expect(response.status == 400)
        #expect(response.error == "invalid_grant")
        #expect(response.errorCodes == [Code.unknown])
    }

    @Test("a missing or empty refresh_token is invalid_request")
    func missingToken() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        for token in [nil, ""] as [String?] {
            let response = try await TokenHelpers.refresh(WireClient(server), token)
            #expect(response.status == 400)
            #expect(response.error == "invalid_request")
            #expect(response.errorCodes == [Code.invalidParameter])
        }
    }

    @Test("a refresh may narrow the scopes, add standard OIDC scopes, but not add others; a refusal burns nothing")
    func scopes() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let client = WireClient(server)
        let (_, first) = try await TokenHelpers.userWithTokens(server, scope: "openid offline_access email")
        #expect(first.scope == "openid offline_access email")

        let widened = try await TokenHelpers.refresh(client, first.refreshToken, scope: "openid offline_access api.read")
        #expect(widened.status == 400)
        #expect(widened.error == "invalid_scope")
        #expect(widened.errorCodes == [Code.scopeNotAllowed])

        // The refused request neither rotated nor revoked the token: no reuse is detected later.
        server.clock.advance(by: 10)
        let narrowed = try TokenGrant(try await TokenHelpers.refresh(client, first.refreshToken, scope: "openid offline_access"))
        #expect(narrowed.scope == "openid offline_access")
        #expect(try DecodedJWT(narrowed.accessToken).string("scp") == "openid offline_access")

        // MSAL adds `openid profile offline_access` to every refresh, even when sign-in had no `profile`.
        let msal = try TokenGrant(
            try await TokenHelpers.refresh(client, narrowed.refreshToken, scope: "openid profile offline_access"))
        #expect(msal.scope == "openid profile offline_access")

        // Omitting scope gives back everything originally granted (RFC 6749 § 6).
        let full = try TokenGrant(try await TokenHelpers.refresh(client, msal.refreshToken))
        #expect(full.scope == "openid offline_access email")
        #expect(try DecodedJWT(full.accessToken).string("scp") == "openid offline_access email")
    }

    @Test("ten concurrent refreshes of one token: all inside the window, exactly one successor stays live")
    func concurrentRefreshes() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let (client, _, original) = try await Self.signedIn(server)
        let responses = try await withThrowingTaskGroup(of: WireResponse.self) { group in
            for _ in 0..<10 { group.addTask { try await TokenHelpers.refresh(client, original) } }
            var all: [WireResponse] = []
            for try await response in group { all.append(response) }
            return all
        }
        // The first exchange rotates; each later one, inside the window with the successor still
        // unused, replaces that successor. The family never has two live branches.
        #expect(responses.allSatisfy { $0.status == 200 })
        var live = 0
        for successor in responses.compactMap({ $0.string("refresh_token") }) {
            let answer = try await TokenHelpers.refresh(client, successor)
            if answer.status == 200 { live += 1 } else { #expect(answer.errorCodes == [Code.unknown]) }
        }
        #expect(live == 1)
    }

    @Test("with grace 0, of two concurrent refreshes of one token at most one wins and the family ends revoked")
    func concurrentRefreshesWithoutGrace() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let (client, original) = try await Self.signedInWithoutGrace(server)
        async let a = TokenHelpers.refresh(client, original)
        async let b = TokenHelpers.refresh(client, original)
        let responses = try await [a, b]
        #expect(responses.filter { $0.status == 200 }.count == 1)
        #expect(responses.filter { $0.errorCodes == [Code.reused] }.count == 1)
        for successor in responses.compactMap({ $0.string("refresh_token") }) {
            #expect(try await TokenHelpers.refresh(client, successor).errorCodes == [Code.revoked])
        }
    }
}
