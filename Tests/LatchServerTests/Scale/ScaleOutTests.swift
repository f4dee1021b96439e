import Foundation
import LatchCrypto
import LatchLocking
import LatchServer
import LatchTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Two `latchd` processes on one PostgreSQL: nothing correctness needs lives in one process, so a
/// flow, a refresh family, a limit or a key made through one instance holds on the other.
@Suite("Scale-out: two latchd on one PostgreSQL", .serialized, .enabled(if: LatchTestStore.clusterURL != nil))
struct ScaleOutTests {
    @Test("a sign-up started on A continues on B and signs in on A")
    func flowAcrossInstances() async throws {
        let fixture = try await ScaleOutFixture.start()
        defer { fixture.stop() }
        let tenant = try fixture.tenant()
        let (onA, onB) = (fixture.client(fixture.a, tenant: tenant), fixture.client(fixture.b, tenant: tenant))
        let email = TokenHelpers.uniqueEmail("across")
        let start = try await onA.post(
            "signup/v1.0/start",
            ["username": email, "challenge_type": "oob password redirect", "password": TokenHelpers.password])
        try #require(start.status == 200, "\(start.json)")
        let challenge = try await onB.post(
            "signup/v1.0/challenge", ["continuation_token": try #require(start.continuationToken)])
        try #require(challenge.string("challenge_type") == "oob", "\(challenge.json)")
        let code = try #require(try fixture.latestCode(to: email, tenant: tenant))
        let proceed = try await onB.post(
            "signup/v1.0/continue",
            ["continuation_token": try #require(challenge.continuationToken), "grant_type": "oob", "oob": code])
        try #require(proceed.status == 200, "\(proceed.json)")
        let grant = try TokenGrant(
            try await onA.post(
                "oauth2/v2.0/token",
                ["grant_type": "continuation_token", "continuation_token": try #require(proceed.continuationToken)]))
        // The account exists for both: a password sign-in on B finds it.
        let signIn = try await TokenHelpers.passwordSignIn(onB, email: email)
        #expect(signIn.status == 200, "\(signIn.json)")
        #expect(try DecodedJWT(grant.accessToken).string("sub") == (try DecodedJWT(TokenGrant(signIn).accessToken).string("sub")))
    }

    @Test("a refresh on A, then the old refresh token presented on B, revokes the family everywhere")
    func refreshReuseAcrossInstances() async throws {
        let fixture = try await ScaleOutFixture.start()
        defer { fixture.stop() }
        var settings = TenantSettings()
        settings.refreshReuseGraceSeconds = 0
        let tenant = try fixture.tenant(settings)
        let (onA, onB) = (fixture.client(fixture.a, tenant: tenant), fixture.client(fixture.b, tenant: tenant))
        let email = TokenHelpers.uniqueEmail("family")
        _ = try fixture.admin.createUser(
            tenant: try fixture.admin.tenant(named: tenant), email: email, password: TokenHelpers.password)
        let first = try TokenGrant(try await TokenHelpers.passwordSignIn(onA, email: email))
        let old = first.refreshToken
        let rotated = try TokenGrant(try await TokenHelpers.refresh(onA, old))
        let reuse = try await TokenHelpers.refresh(onB, old)
        #expect(reuse.status == 400)
        #expect(reuse.error == "invalid_grant")
        let afterReuse = try await TokenHelpers.refresh(onA, rotated.refreshToken)
        #expect(afterReuse.status == 400)
        #expect(afterReuse.error == "invalid_grant")
    }

    @Test("50 concurrent sign-ups of one address, split across A and B, end with exactly one account")
    func concurrentSignUpsAcrossInstances() async throws {
        let fixture = try await ScaleOutFixture.start()
        defer { fixture.stop() }
        var settings = TenantSettings()
        settings.codeSendsPerWindow = 50
        settings.rateLimits = .off
        let tenant = try fixture.tenant(settings)
        let clients = [fixture.client(fixture.a, tenant: tenant), fixture.client(fixture.b, tenant: tenant)]
        let email = TokenHelpers.uniqueEmail("race")
        var tokens: [String] = []
        for index in 0..<50 {
            let client = clients[index % 2]
            let start = try await client.post("signup/v1.0/start", ["username": email, "challenge_type": "oob redirect"])
            try #require(start.status == 200, "\(start.json)")
            let challenge = try await client.post(
                "signup/v1.0/challenge", ["continuation_token": try #require(start.continuationToken)])
            tokens.append(try #require(challenge.continuationToken))
        }
        let messages = try fixture.admin.outbox(
            tenant: try fixture.admin.tenant(named: tenant), recipient: email, limit: 100)
        try #require(messages.count == 50)
        let codes = messages.reversed().map { $0.code ?? "" }
        let statuses = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
            for (index, (token, code)) in zip(tokens, codes).enumerated() {
                group.addTask {
                    let answer = try await clients[(index + 1) % 2].post(
                        "signup/v1.0/continue", ["continuation_token": token, "grant_type": "oob", "oob": code])
                    return (answer.status, answer.error)
                }
            }
            var all: [(Int, String?)] = []
            for try await answer in group { all.append(answer) }
            return all
        }
        #expect(statuses.filter { $0.0 == 200 }.count == 1)
        #expect(statuses.filter { $0.0 == 400 && $0.1 == "user_already_exists" }.count == 49)
        let accounts = try fixture.admin.users(tenant: try fixture.admin.tenant(named: tenant)).filter { $0.email == email }
        #expect(accounts.count == 1)
    }

    @Test("a rate limit and a sign-in delay count requests to both instances together")
    func limitsAcrossInstances() async throws {
        let fixture = try await ScaleOutFixture.start()
        defer { fixture.stop() }
        var settings = TenantSettings()
        settings.rateLimits.flowStarts = RateLimit(count: 10, periodSeconds: 3600)
        let tenant = try fixture.tenant(settings)
        let clients = [fixture.client(fixture.a, tenant: tenant), fixture.client(fixture.b, tenant: tenant)]
        var statuses: [Int] = []
        for index in 0..<20 {
            let answer = try await clients[index % 2].post(
                "signup/v1.0/start", ["username": "limit-\(index)@example.com", "challenge_type": "oob redirect"])
            statuses.append(answer.status)
        }
        #expect(statuses.filter { $0 == 200 }.count == 10, "\(statuses)")
        #expect(statuses.filter { $0 == 429 }.count == 10, "\(statuses)")

        // Wrong passwords alternate between A and B; the account's failure count is one, shared.
        var open = TenantSettings()
        open.rateLimits = .off
        let other = try fixture.tenant(open)
        let email = TokenHelpers.uniqueEmail("delay")
        let account = try fixture.admin.createUser(
            tenant: try fixture.admin.tenant(named: other), email: email, password: TokenHelpers.password)
        let both = [fixture.client(fixture.a, tenant: other), fixture.client(fixture.b, tenant: other)]
        for index in 0..<6 {
            _ = try await TokenHelpers.passwordSignIn(both[index % 2], email: email, password: "wrong-password-\(index)")
        }
        let stored = try #require(
            try fixture.admin.users(tenant: try fixture.admin.tenant(named: other)).first { $0.id == account.id })
        #expect(stored.failedSignIns == 6 || stored.signInBlockedUntil != nil, "failed: \(stored.failedSignIns)")
    }

    @Test("kill -9 of A during sign-ups loses no acknowledged account, and B keeps serving")
    func killOneInstance() async throws {
        let fixture = try await ScaleOutFixture.start()
        defer { fixture.stop() }
        var settings = TenantSettings()
        settings.rateLimits = .off
        let tenant = try fixture.tenant(settings)
        let onA = fixture.client(fixture.a, tenant: tenant)
        let ledger = SignUpLedger()
        let workers = Task {
            await withTaskGroup(of: Void.self) { group in
                for worker in 0..<6 {
                    group.addTask {
                        for round in 0..<1000 {
                            let email = "kill-\(worker)-\(round)@example.com"
                            guard (try? await Self.signUp(onA, email: email, fixture: fixture, tenant: tenant)) != nil
                            else { return }  // A is gone
                            ledger.acknowledged.withLock { $0.append(email) }
                        }
                    }
                }
            }
        }
        while ledger.acknowledged.withLock({ $0.count }) < 30 { try await Task.sleep(for: .milliseconds(20)) }
        fixture.a.send(SIGKILL)
        await workers.value
        let accounts = Set(try fixture.admin.users(tenant: try fixture.admin.tenant(named: tenant), limit: 10_000).map(\.email))
        let missing = ledger.acknowledged.withLock { $0 }.filter { !accounts.contains($0) }
        #expect(missing.isEmpty, "acknowledged but missing: \(missing)")
        // B serves a whole sign-up on its own.
        try await Self.signUp(
            fixture.client(fixture.b, tenant: tenant), email: TokenHelpers.uniqueEmail("after-kill"), fixture: fixture,
            tenant: tenant)
    }

    @Test("a key rotated while A and B run signs on both, and its tokens verify on both")
    func keyRotationAcrossInstances() async throws {
        let fixture = try await ScaleOutFixture.start()
        defer { fixture.stop() }
        let tenant = try fixture.tenant()
        let (onA, onB) = (fixture.client(fixture.a, tenant: tenant), fixture.client(fixture.b, tenant: tenant))
        let email = TokenHelpers.uniqueEmail("keys")
        _ = try fixture.admin.createUser(
            tenant: try fixture.admin.tenant(named: tenant), email: email, password: TokenHelpers.password)
        // Both instances cache the old keys; B's cache is the younger one, by four seconds.
        _ = try TokenGrant(try await TokenHelpers.passwordSignIn(onA, email: email))
        try await Task.sleep(for: .seconds(4))
        _ = try TokenGrant(try await TokenHelpers.passwordSignIn(onB, email: email))
        let rotated = try fixture.admin.rotateKey(
            tenant: try fixture.admin.tenant(named: tenant), algorithm: .rs256, immediately: true)

        // A signs with the new key once its key cache (5 s) reloads, about a second from now. B's
        // cache still holds only the old keys then, and B verifies the token all the same: an
        // unknown kid reloads them.
        let fromA = try await Self.tokenSigned(by: rotated.id, on: onA, email: email)
        let infoOnB = try await TokenHelpers.userinfo(onB, authorization: "Bearer \(fromA.accessToken)")
        #expect(infoOnB.status == 200, "\(infoOnB.status) \(String(decoding: infoOnB.body, as: UTF8.self))")
        let fromB = try await Self.tokenSigned(by: rotated.id, on: onB, email: email)
        #expect(try await TokenHelpers.userinfo(onA, authorization: "Bearer \(fromB.accessToken)").status == 200)
        for client in [onA, onB] {
            let jwks = try await TokenHelpers.jwks(client)
            #expect(jwks.keys.contains { $0.kid == rotated.id })
            _ = try TokenHelpers.verify(fromA.accessToken, with: jwks)
            _ = try TokenHelpers.verify(fromB.accessToken, with: jwks)
        }
    }

    // MARK: - Helpers

    /// A whole code sign-up on `client`; throws when the server is gone or refuses.
    @discardableResult
    static func signUp(_ client: WireClient, email: String, fixture: ScaleOutFixture, tenant: String) async throws -> String {
        let start = try await client.post("signup/v1.0/start", ["username": email, "challenge_type": "oob redirect"])
        let challenge = try await client.post(
            "signup/v1.0/challenge", ["continuation_token": try #require(start.continuationToken)])
        let code = try #require(try fixture.latestCode(to: email, tenant: tenant))
        let proceed = try await client.post(
            "signup/v1.0/continue",
            ["continuation_token": try #require(challenge.continuationToken), "grant_type": "oob", "oob": code])
        guard proceed.status == 200 else { throw LatchdProcessError("sign-up refused: \(proceed.json)") }
        return email
    }

    /// Signs in on `client` until the access token is signed by `kid` (at most 10 s: the key cache
    /// reloads every 5 s).
    static func tokenSigned(by kid: String, on client: WireClient, email: String) async throws -> TokenGrant {
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            let grant = try TokenGrant(try await TokenHelpers.passwordSignIn(client, email: email))
            if try DecodedJWT(grant.accessToken).kid == kid { return grant }
            try #require(ContinuousClock.now < deadline, "still not signing with \(kid)")
            try await Task.sleep(for: .milliseconds(250))
        }
    }
}
