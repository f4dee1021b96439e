import Foundation
import LatchCrypto
import LatchWire

/// Browserless sign-in (`oauth2/v2.0/initiate`, `challenge`, `token`): with a password, with an
/// e-mail code, or with the continuation token of a finished sign-up or password reset.
public struct SignInService: Sendable {
    let flows: FlowEngine
    let hasher: Argon2idHasher
    let tokens: TokenService
    let clock: any ServerClock
    let observe: @Sendable (SignInOutcome) -> Void

    /// Starts a sign-in for `username`.
    /// - Throws: ``AuthFailure/userNotFound`` (unless the tenant protects against enumeration, in
    ///   which case a decoy flow answers like a real one and fails at the credential step).
    public func initiate(_ context: ClientContext, username: String?, challengeType: String?, capabilities: String?)
        throws -> String
    {
        let types = try ChallengeTypes(challengeType, capabilities: capabilities)
        let email = try NativeAuthInput.username(username)
        guard types.supportsPassword || types.supportsCode else {
            throw AuthFailure.browserRequired("the client supports neither password nor oob")
        }
        let tenant = context.tenant
        let user = try flows.store.read { try $0.user(email: email, tenantID: tenant.id) }
        if user == nil, !tenant.settings.enumerationProtection {
            try recordFailure(context, userID: nil, failure: .userNotFound)
            throw AuthFailure.userNotFound
        }
        if let user, user.disabled {
            try recordFailure(context, userID: user.id, failure: .userDisabled)
            throw AuthFailure.userDisabled
        }
        let token = FlowEngine.newContinuationToken()
        let now = clock.now()
        // Starting a flow need not wait for the disk: a lost flow only means starting again.
        try flows.store.writeRelaxed { tx in
            try tx.insert(
                Flow(
                    id: UUID().uuidString.lowercased(), tenantID: tenant.id, clientID: context.client.id, kind: .signIn,
                    step: .started, tokenHash: token.hash, username: email, userID: user?.id,
                    challengeTypes: types.sorted, capabilities: types.capabilities,
                    expiresAt: now.addingTimeInterval(TimeInterval(tenant.settings.continuationTokenLifetime)),
                    createdAt: now))
        }
        return token.token
    }

    /// Chooses the credential: the password when the account has one and the client can take it,
    /// else an e-mail code (sent now; calling again re-sends and voids the previous code).
    public func challenge(_ context: ClientContext, continuationToken: String?, challengeType: String?) throws
        -> ChallengeOutcome
    {
        let flow = try flows.load(continuationToken, context: context, kinds: [.signIn])
        let types =
            try challengeType.map { try ChallengeTypes($0, capabilities: nil) }
            ?? ChallengeTypes(stored: flow.challengeTypes, capabilities: flow.capabilities)
        let user = try flow.userID.flatMap { id in try flows.store.read { try $0.user(id: id, tenantID: flow.tenantID) } }
        let hasPassword = user.map { $0.passwordHash != nil } ?? true
        if types.supportsPassword, hasPassword {
            let next: String = try flows.store.writeRelaxed { tx in
                var current = try flows.reload(tx, flow)
                current.step = .passwordRequested
                let next = flows.advance(&current, tenant: context.tenant)
                try tx.update(current)
                return next
            }
            return .password(continuationToken: next)
        }
        guard types.supportsCode else {
            return .redirect(reason: "the account has no password and the client cannot take a code")
        }
        return try flows.sendCode(for: flow, tenant: context.tenant, purpose: .signIn)
    }

    /// The native-auth token endpoint (`oauth2/v2.0/token`): grant types `password`, `oob`,
    /// `continuation_token` and `refresh_token`.
    public func token(_ context: ClientContext, request: NativeTokenRequest) throws -> IssuedTokens {
        if request.grantType == "refresh_token" {
            return try tokens.refresh(context: context, refreshToken: request.refreshToken, scope: request.scope)
        }
        let scopes = try ScopeSet(request.scope, client: context.client)
        do {
            switch request.grantType {
            case "password": return try signInWithPassword(context, request: request, scopes: scopes)
            case "oob": return try signInWithCode(context, request: request, scopes: scopes)
            case "continuation_token": return try signInWithContinuation(context, request: request, scopes: scopes)
            case nil, "": throw AuthFailure.invalidRequest("grant_type is required")
            case let other?: throw AuthFailure.unsupportedGrantType(other)
            }
        } catch let failure as AuthFailure {
            switch failure {
            // Code failures are observed where they are audited, in `signInWithCode`.
            case .invalidCredentials, .userDisabled:
                observe(SignInOutcome(failure))
            default: break
            }
            throw failure
        }
    }

    private func signInWithPassword(_ context: ClientContext, request: NativeTokenRequest, scopes: ScopeSet) throws
        -> IssuedTokens
    {
        let flow = try flows.load(request.continuationToken, context: context, kinds: [.signIn])
        guard flow.step == .passwordRequested else { throw AuthFailure.invalidRequest("no password was requested in this flow") }
        guard let password = request.password, !password.isEmpty else {
            throw AuthFailure.invalidRequest("password is required")
        }
        let user = try flow.userID.flatMap { id in try flows.store.read { try $0.user(id: id, tenantID: flow.tenantID) } }
        do {
            // A delayed account is refused before Argon2 runs, so guessing costs the server nothing.
            if let user { try checkDelay(user) }
            guard let user, let stored = user.passwordHash, hasher.verify(password, against: stored) else {
                if user == nil { _ = hasher.verify(password, against: DecoyHash.value(for: hasher)) }
                try flows.store.write { tx in
                    // The per-flow limit only ends this flow; the per-account count below is the real limit.
                    if var current = try? flows.reload(tx, flow) {
                        current.codeAttempts += 1
                        if current.codeAttempts >= context.tenant.settings.codeMaxAttempts {
                            try tx.deleteFlow(id: current.id)
                        } else {
                            try tx.update(current)
                        }
                    }
                    if let user { try countFailure(tx, context: context, userID: user.id) }
                    try tx.insert(failureEvent(context, userID: user?.id, failure: .invalidCredentials))
                }
                throw AuthFailure.invalidCredentials
            }
            if user.disabled { throw AuthFailure.userDisabled }
            let rehashed = hasher.needsRehash(stored) ? try hasher.hash(password) : nil
            return try finish(
                context, flow: flow, scopes: scopes, amr: ["pwd"], enforceDelay: true
            ) { tx, user in
                if let rehashed {
                    user.passwordHash = rehashed
                    try tx.update(user)
                }
            }
        } catch AuthFailure.tooManyAttempts(let retryAfter) {
            let failure = AuthFailure.tooManyAttempts(retryAfter: retryAfter)
            try recordFailure(context, userID: user?.id, failure: failure)
            throw failure
        }
    }

    private func signInWithCode(_ context: ClientContext, request: NativeTokenRequest, scopes: ScopeSet) throws
        -> IssuedTokens
    {
        let flow = try flows.load(request.continuationToken, context: context, kinds: [.signIn])
        guard flow.step == .codeSent else { throw AuthFailure.invalidRequest("no code was sent in this flow") }
        let result: (TokenService.NewSession, User) = try {
            do {
                // Wrong codes count against the account like wrong passwords; the code itself stays
                // limited per code and per send, so a delay does not stop code sign-in.
                return try flows.withVerifiedCode(
                    request.code, flow: flow, tenant: context.tenant,
                    onWrongCode: { tx in
                        if let userID = flow.userID { try countFailure(tx, context: context, userID: userID) }
                    }
                ) { tx, current in
                    try commitSignIn(tx, context: context, flow: current, scopes: scopes, amr: ["otp"])
                }
            } catch let failure as AuthFailure where [.invalidCode, .codeExpired, .codeAttemptsExceeded].contains(failure) {
                try recordFailure(context, userID: flow.userID, failure: failure)
                throw failure
            }
        }()
        observe(.success)
        return try tokens.issue(
            context: context, user: result.1, family: result.0.family, scopes: scopes, refreshToken: result.0.refreshToken)
    }

    private func signInWithContinuation(_ context: ClientContext, request: NativeTokenRequest, scopes: ScopeSet) throws
        -> IssuedTokens
    {
        let flow = try flows.load(request.continuationToken, context: context, kinds: [.signInContinuation])
        if let username = request.username, !username.isEmpty, User.normalizeEmail(username) != flow.username {
            throw AuthFailure.invalidContinuationToken
        }
        let amr = flow.amr.isEmpty ? ["otp"] : flow.amr
        return try finish(context, flow: flow, scopes: scopes, amr: amr) { _, _ in }
    }

    /// Consumes the flow, starts the session and signs the tokens.
    /// - Parameter enforceDelay: refuse when the account's sign-in is delayed (a concurrent failure
    ///   may have started the delay after the caller checked).
    private func finish(
        _ context: ClientContext, flow: Flow, scopes: ScopeSet, amr: [String],
        enforceDelay: Bool = false, extra: (any StoreWriting, inout User) throws -> Void
    ) throws -> IssuedTokens {
        let (session, user) = try flows.store.write { tx in
            let current = try flows.reload(tx, flow)
            let (session, committedUser) = try commitSignIn(
                tx, context: context, flow: current, scopes: scopes, amr: amr, enforceDelay: enforceDelay)
            var updated = committedUser
            try extra(tx, &updated)
            return (session, updated)
        }
        observe(.success)
        return try tokens.issue(
            context: context, user: user, family: session.family, scopes: scopes, refreshToken: session.refreshToken)
    }

    /// In a transaction: deletes the flow, loads the user, clears its failure count, starts a
    /// session and audits the success.
    private func commitSignIn(
        _ tx: any StoreWriting, context: ClientContext, flow: Flow, scopes: ScopeSet, amr: [String],
        enforceDelay: Bool = false
    ) throws -> (TokenService.NewSession, User) {
        guard let userID = flow.userID, var user = try tx.user(id: userID, tenantID: context.tenant.id) else {
            throw AuthFailure.invalidContinuationToken
        }
        guard !user.disabled else { throw AuthFailure.userDisabled }
        if enforceDelay { try checkDelay(user) }
        if user.failedSignIns != 0 || user.signInBlockedUntil != nil {
            user.failedSignIns = 0
            user.signInBlockedUntil = nil
            try tx.update(user)
        }
        try tx.deleteFlow(id: flow.id)
        let now = clock.now()
        let session = try tokens.startSession(tx, context: context, user: user, scopes: scopes, amr: amr, authTime: now)
        try tx.insert(
            AuditEvent(
                tenantID: context.tenant.id, at: now, kind: .signInSucceeded, userID: user.id,
                clientID: context.client.id, remoteAddress: context.remoteAddress, detail: "amr=\(amr.joined(separator: ","))"))
        return (session, user)
    }

    /// Throws ``AuthFailure/tooManyAttempts(retryAfter:)`` while `user`'s sign-in is delayed.
    private func checkDelay(_ user: User) throws {
        let now = clock.now()
        guard let until = user.signInBlockedUntil, until > now else { return }
        throw AuthFailure.tooManyAttempts(retryAfter: FlowEngine.seconds(from: now, until: until))
    }

    /// In the failure's transaction: counts a wrong password or code against the account and, from
    /// the tenant's threshold on, delays its next sign-in (doubling per failure up to the maximum)
    /// and audits the delay. Re-reads the user so concurrent failures are all counted.
    private func countFailure(_ tx: any StoreWriting, context: ClientContext, userID: String) throws {
        guard var user = try tx.user(id: userID, tenantID: context.tenant.id) else { return }
        let now = clock.now()
        user.failedSignIns += 1
        if let delay = context.tenant.settings.signInDelay(afterFailures: user.failedSignIns) {
            let until = now.addingTimeInterval(TimeInterval(delay))
            user.signInBlockedUntil = max(until, user.signInBlockedUntil ?? until)
            try tx.insert(
                AuditEvent(
                    tenantID: context.tenant.id, at: now, kind: .signInBlocked, userID: user.id,
                    clientID: context.client.id, remoteAddress: context.remoteAddress,
                    detail: "failures=\(user.failedSignIns) delay=\(delay)s"))
        }
        try tx.update(user)
    }

    private func failureEvent(_ context: ClientContext, userID: String?, failure: AuthFailure) -> AuditEvent {
        let reason: String
        if case .tooManyAttempts = failure {
            reason = "too_many_attempts"
        } else {
            reason = SignInOutcome(failure).rawValue
        }
        return AuditEvent(
            tenantID: context.tenant.id, at: clock.now(), kind: .signInFailed, userID: userID,
            clientID: context.client.id, remoteAddress: context.remoteAddress, detail: "reason=\(reason)")
    }

    private func recordFailure(_ context: ClientContext, userID: String?, failure: AuthFailure) throws {
        observe(SignInOutcome(failure))
        try flows.store.write { tx in try tx.insert(failureEvent(context, userID: userID, failure: failure)) }
    }
}

/// A hash verified when the account does not exist, so an unknown user costs the same time as a
/// wrong password.
enum DecoyHash {
    private static let cache = ReadMostly<[String: String]>([:])

    /// A hash made with `hasher`'s own parameters, so it costs what a real account's hash costs.
    static func value(for hasher: Argon2idHasher) -> String {
        let parameters = hasher.parameters
        let key = "\(parameters.memoryKiB),\(parameters.iterations),\(parameters.parallelism)"
        if let cached = cache.read({ $0[key] }) { return cached }
        let made = (try? hasher.hash(SecureRandom.token())) ?? ""
        cache.write { $0[key] = made }
        return made
    }
}
