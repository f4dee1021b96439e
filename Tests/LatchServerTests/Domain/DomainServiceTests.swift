import Foundation
import LatchCrypto
import LatchServer
import LatchTesting
import Testing

/// The domain services any wire calls, tested without HTTP.
@Suite("Domain services")
struct DomainServiceTests {
    static let password = "Correct-Horse-Battery-42"

    @Test("password verification: a wrong password counts atomically and delays; a delayed account is refused unhashed")
    func passwordVerification() throws {
        var settings = TenantSettings()
        settings.signInFailuresBeforeDelay = 3
        let fixture = try DomainFixture(settings: settings)
        let user = try fixture.services.admin.createUser(
            tenant: fixture.context.tenant, email: "ada@example.com", password: Self.password)
        let verifier = fixture.services.passwords

        for attempt in 1...3 {
            #expect(throws: AuthFailure.invalidCredentials) {
                try verifier.verify(
                    "wrong-\(attempt)", for: try fixture.reload(user), address: user.email, context: fixture.context)
            }
            #expect(try fixture.reload(user).failedSignIns == attempt)
        }
        let delayed = try fixture.reload(user)
        #expect(delayed.signInBlockedUntil != nil)
        // Even the right password is refused while delayed, and the refusal does not count.
        #expect(throws: AuthFailure.tooManyAttempts(retryAfter: 60)) {
            try verifier.verify(Self.password, for: delayed, address: user.email, context: fixture.context)
        }
        #expect(try fixture.reload(user).failedSignIns == 3)

        fixture.clock.advance(by: 61)
        let verified = try verifier.verify(
            Self.password, for: try fixture.reload(user), address: user.email, context: fixture.context)
        #expect(verified.rehashed == nil)
        let audit = try fixture.services.admin.auditEvents(tenant: fixture.context.tenant)
        #expect(audit.filter { $0.kind == .signInFailed }.count == 4)
        #expect(audit.contains { $0.kind == .signInBlocked })
    }

    @Test("an unknown account costs a decoy verification and counts nothing")
    func unknownAccount() throws {
        let fixture = try DomainFixture()
        #expect(throws: AuthFailure.invalidCredentials) {
            try fixture.services.passwords.verify(Self.password, for: nil, address: "ghost@example.com", context: fixture.context)
        }
        // No row per request: the failure is counted and written as one summary row when flushed.
        #expect(try fixture.services.admin.auditEvents(tenant: fixture.context.tenant).isEmpty)
        for _ in 0..<9 {
            _ = try? fixture.services.passwords.verify(
                Self.password, for: nil, address: "ghost@example.com", context: fixture.context)
        }
        try fixture.services.store.write { try fixture.services.auditAggregator.flush(into: $0, at: fixture.clock.now()) }
        let audit = try fixture.services.admin.auditEvents(tenant: fixture.context.tenant)
        #expect(audit.map(\.detail) == ["reason=invalid_credentials count=10 unknown_account"])
        #expect(audit.first?.userID == nil)
    }

    @Test("a hash made with older parameters is replaced at the next successful sign-in")
    func rehash() throws {
        let fixture = try DomainFixture()
        var user = try fixture.services.admin.createUser(
            tenant: fixture.context.tenant, email: "old@example.com", password: Self.password)
        let weaker = try Argon2idHasher(parameters: .init(memoryKiB: 512, iterations: 1, parallelism: 1)).hash(Self.password)
        user.passwordHash = weaker
        try fixture.services.store.write { try $0.update(user) }
        let token = try fixture.passwordFlowToken(for: user)
        let outcome = try fixture.services.signIn.token(
            fixture.context,
            request: TokenRequest(
                grant: .password(continuationToken: token, username: nil, password: Self.password), scope: nil))
        guard case .issued = outcome else {
            Issue.record("expected tokens, got \(outcome)")
            return
        }
        let stored = try fixture.reload(user).passwordHash
        #expect(stored != weaker)
        #expect(stored?.contains("m=1024") == true)
    }

    @Test("50 concurrent redemptions of one continuation token: exactly one session")
    func concurrentRedemptions() async throws {
        let fixture = try DomainFixture()
        let user = try fixture.services.admin.createUser(
            tenant: fixture.context.tenant, email: "race@example.com", password: Self.password)
        let token = try fixture.passwordFlowToken(for: user)
        let request = TokenRequest(
            grant: .password(continuationToken: token, username: nil, password: Self.password), scope: nil)
        let results = await withTaskGroup(of: Result<SessionOutcome, AuthFailure>.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    do {
                        return .success(try fixture.services.signIn.token(fixture.context, request: request))
                    } catch let failure as AuthFailure {
                        return .failure(failure)
                    } catch {
                        return .failure(.outOfOrder("unexpected error: \(error)"))
                    }
                }
            }
            var all: [Result<SessionOutcome, AuthFailure>] = []
            for await result in group { all.append(result) }
            return all
        }
        let successes = results.filter { if case .success = $0 { true } else { false } }
        #expect(successes.count == 1)
        for case .failure(let failure) in results {
            #expect(failure == .invalidContinuationToken)
        }
    }

    @Test("userinfo: a live session's token gives the claims; a revoked session's does not")
    func userinfoRules() throws {
        let fixture = try DomainFixture()
        let user = try fixture.services.admin.createUser(
            tenant: fixture.context.tenant, email: "info@example.com", password: Self.password, displayName: "Info")
        let token = try fixture.passwordFlowToken(for: user)
        guard
            case .issued(let tokens) = try fixture.services.signIn.token(
                fixture.context,
                request: TokenRequest(
                    grant: .password(continuationToken: token, username: nil, password: Self.password), scope: nil))
        else {
            Issue.record("no tokens")
            return
        }
        let claims = try fixture.services.userinfo.claims(accessToken: tokens.accessToken, tenant: fixture.context.tenant)
        #expect(claims.subject == user.id)
        #expect(claims.name == "Info")
        #expect(throws: AuthFailure.invalidAccessToken) {
            try fixture.services.userinfo.claims(accessToken: nil, tenant: fixture.context.tenant)
        }
        try fixture.services.store.write { try $0.revokeFamilies(userID: user.id, at: fixture.clock.now()) }
        #expect(throws: AuthFailure.invalidAccessToken) {
            try fixture.services.userinfo.claims(accessToken: tokens.accessToken, tenant: fixture.context.tenant)
        }
    }

    @Test("next steps are results: sign-up asks for the password, then for attributes, then completes")
    func signUpSteps() throws {
        var settings = TenantSettings()
        settings.requiredAttributes = [AttributeDefinition(name: "displayName")]
        let fixture = try DomainFixture(settings: settings)
        let signUp = fixture.services.signUp
        guard
            case .started(let token) = try signUp.start(
                fixture.context, username: "new@example.com", password: nil, attributes: [:],
                support: [.oneTimeCode, .password, .browser], capabilities: [])
        else {
            Issue.record("no start")
            return
        }
        guard
            case .oneTimeCode(let sent, _, _, _, _) = try signUp.challenge(
                fixture.context, continuationToken: token, support: nil)
        else {
            Issue.record("no code sent")
            return
        }
        let code = try require(
            try fixture.services.admin.outbox(tenant: fixture.context.tenant, recipient: "new@example.com").first?.code)
        let afterCode = try signUp.continue(fixture.context, continuationToken: sent, submission: .oneTimeCode(code))
        guard case .passwordRequired(let needPassword) = afterCode else {
            Issue.record("expected passwordRequired, got \(afterCode)")
            return
        }
        let afterPassword = try signUp.continue(
            fixture.context, continuationToken: needPassword, submission: .password(Self.password))
        guard case .attributesRequired(let needAttributes, let attributes) = afterPassword else {
            Issue.record("expected attributesRequired, got \(afterPassword)")
            return
        }
        #expect(attributes.map(\.name) == ["displayName"])
        let done = try signUp.continue(
            fixture.context, continuationToken: needAttributes, submission: .attributes(["displayName": "New"]))
        guard case .completed = done else {
            Issue.record("expected completed, got \(done)")
            return
        }
        #expect(
            try fixture.services.store.read { try $0.user(email: "new@example.com", tenantID: fixture.context.tenant.id) }?
                .displayName == "New")
    }

    @Test("a client that cannot take a code is sent to the browser, as a result, not a failure")
    func browserRequired() throws {
        let fixture = try DomainFixture()
        let start = try fixture.services.signUp.start(
            fixture.context, username: "b@example.com", password: nil, attributes: [:], support: [.password, .browser],
            capabilities: [])
        #expect(start == .browserRequired(.oneTimeCodeUnsupported))
    }
}
