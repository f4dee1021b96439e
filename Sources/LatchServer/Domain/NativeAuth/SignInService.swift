import Foundation

/// Browserless sign-in (`oauth2/v2.0/initiate`, `challenge`, `token`): with a password, with an
/// e-mail code, or with the continuation token of a finished sign-up or password reset. Passwords
/// go through ``PasswordVerifier`` and every success through ``SessionIssuer``.
public struct SignInService: Sendable {
    let flows: FlowEngine
    let passwords: PasswordVerifier
    let sessions: SessionIssuer
    let tokens: TokenService
    let decoys: DecoyCredential
    let clock: any ServerClock

    /// Starts a sign-in for `username`.
    /// - Parameters:
    ///   - support: what the client can collect (`challenge_type`), parsed by the adapter.
    /// - Throws: ``AuthFailure/userNotFound`` (unless the tenant protects against enumeration, in
    ///   which case a decoy flow answers like a real one and fails at the credential step).
    public func initiate(
        _ context: ClientContext, username: String?, support: ChallengeSupport, capabilities: ClientCapabilities
    ) throws -> FlowStart {
        let email = try NativeAuthInput.username(username)
        guard support.contains(.password) || support.contains(.oneTimeCode) else {
            return .browserRequired(.noNativeCredential)
        }
        try flows.limiter.admit(.flowStarts, context)
        let user = try passwords.signInAccount(email: email, context: context)
        let token = try flows.start(
            context, kind: .signIn, username: email, userID: user?.id,
            state: FlowState(support: support, capabilities: capabilities))
        return .started(continuationToken: token)
    }

    /// Chooses the credential: the password when the account has one and the client can take it,
    /// else an e-mail code (sent now; calling again re-sends and voids the previous code). An
    /// unknown address under enumeration protection is answered as ``DecoyCredential`` decides.
    /// - Parameter support: a narrower `challenge_type` sent with this call, else the flow's.
    /// In a second-factor flow it sends the code to the method `methodID` names (the first method
    /// when `nil`); calling it again re-sends, or switches method.
    public func challenge(
        _ context: ClientContext, continuationToken: String?, support: ChallengeSupport?, methodID: String? = nil
    ) throws -> ChallengeOutcome {
        let flow = try flows.load(continuationToken, context: context, kinds: [.signIn, .secondFactor])
        if flow.kind == .secondFactor {
            return try secondFactorChallenge(context, flow: flow, methodID: methodID, support: support)
        }
        let support = support ?? flow.state.support
        let user = try flow.userID.flatMap { id in try flows.store.read { try $0.user(id: id, tenantID: flow.tenantID) } }
        // An address without an account (a decoy flow under enumeration protection) answers as
        // the kind of account it was given, so the answer does not tell whether it exists.
        let hasPassword =
            try user.map { $0.passwordHash != nil }
            ?? decoys.hasPassword(address: flow.username, tenant: context.tenant)
        if support.contains(.password), hasPassword {
            let next = try flows.step(flow, tenant: context.tenant, relaxed: true) { $0.step = .passwordRequested }
            return .password(continuationToken: next)
        }
        guard support.contains(.oneTimeCode) else { return .browserRequired(.noUsableCredentialForAccount) }
        return try flows.sendCode(for: flow, context: context, purpose: .signIn)
    }

    /// The native-auth token endpoint (`oauth2/v2.0/token`): the `password`, `oob`,
    /// `continuation_token` and `refresh_token` grants.
    ///
    /// A sign-in grant that presents a trusted device token of the flow's account (``DeviceTrust``)
    /// is counted on that device instead of the account (see ``PasswordVerifier``) and renews the
    /// token; any other presented token is ignored.
    public func token(_ context: ClientContext, request: TokenRequest) throws -> SessionOutcome {
        if case .refreshToken(let refreshToken) = request.grant {
            // The refresh takes its token-request allowance inside its own write.
            let result = try tokens.refresh(
                context: context, refreshToken: refreshToken, scope: request.scope, claims: request.claims,
                canStepUp: request.capabilities.contains(.mfa))
            switch result {
            case .issued(let issued):
                return .issued(issued)
            case .stepUp(let family, let user, let presentedHash, let scopes):
                return try startStepUp(context, family: family, user: user, presentedHash: presentedHash, scopes: scopes)
            }
        }
        try flows.limiter.admit(.tokenRequests, context)
        let scopes = try ScopeSet(request.scope, client: context.client)
        let presented = request.device
        // `claims` asking for the `mfa` class (a claims challenge passed back) needs a second factor
        // whatever the tenant's policy says.
        let asked = request.claims.map(ClaimsRequest.asksForSecondFactor) ?? false
        switch request.grant {
        case .password(let token, _, let password):
            return try signInWithPassword(
                context, continuationToken: token, password: password, scopes: scopes, device: presented,
                secondFactorAsked: asked)
        case .oneTimeCode(let token, let code):
            return try signInWithCode(
                context, continuationToken: token, code: code, scopes: scopes, device: presented, secondFactorAsked: asked)
        case .continuationToken(let token, let username):
            return try signInWithContinuation(
                context, continuationToken: token, username: username, scopes: scopes, device: presented,
                secondFactorAsked: asked)
        case .secondFactorCode(let token, let code):
            return try signInWithSecondFactor(
                context, continuationToken: token, code: code, scopes: scopes, device: presented)
        case .refreshToken:
            preconditionFailure("handled above")
        }
    }

    /// The device `presented` names, when it is a trusted device of the flow's account; else `nil`.
    func trustedDevice(_ presented: PresentedDeviceToken?, flow: Flow, context: ClientContext) -> DeviceToken? {
        sessions.devices.trusted(presented, tenant: context.tenant, userID: flow.userID, at: clock.now())
    }

    private func signInWithPassword(
        _ context: ClientContext, continuationToken: String?, password: String?, scopes: ScopeSet,
        device presented: PresentedDeviceToken?, secondFactorAsked: Bool
    ) throws -> SessionOutcome {
        let flow = try flows.load(continuationToken, context: context, kinds: [.signIn])
        guard flow.step == .passwordRequested else { throw AuthFailure.outOfOrder("no password was requested in this flow") }
        guard let password, !password.isEmpty else { throw AuthFailure.missingParameter(.password) }
        let user = try flow.userID.flatMap { id in try flows.store.read { try $0.user(id: id, tenantID: flow.tenantID) } }
        let device = trustedDevice(presented, flow: flow, context: context)
        let verified = try passwords.verify(
            password, for: user, address: flow.username, device: device, context: context
        ) { tx in
            // The per-flow limit only ends this flow; the per-account count is the real limit.
            guard let current = try? flows.reload(tx, flow) else { return }
            var counted = current
            counted.state.passwordAttempts += 1
            if counted.state.passwordAttempts >= context.tenant.settings.codeMaxAttempts {
                _ = try tx.consumeFlow(id: current.id, tokenHash: current.tokenHash)
            } else {
                _ = try tx.replace(counted, expectingTokenHash: current.tokenHash)
            }
        }
        // The attempt was admitted atomically before the password was checked; its reservation is
        // cleared with the sign-in.
        return try finish(
            context, flow: flow, scopes: scopes, amr: ["pwd"], device: device, secondFactorAsked: secondFactorAsked
        ) { tx, user in
            if let rehashed = verified.rehashed {
                user.passwordHash = rehashed
                try tx.update(user)
            }
        }
    }

    private func signInWithCode(
        _ context: ClientContext, continuationToken: String?, code: String?, scopes: ScopeSet,
        device presented: PresentedDeviceToken?, secondFactorAsked: Bool
    ) throws -> SessionOutcome {
        let flow = try flows.load(continuationToken, context: context, kinds: [.signIn])
        guard flow.step == .codeSent else { throw AuthFailure.outOfOrder("no code was sent in this flow") }
        let device = trustedDevice(presented, flow: flow, context: context)
        let decision = try withSignInCode(code, flow: flow, context: context) { tx, original in
            try commitSignIn(
                tx, context: context, flow: original, scopes: scopes, amr: ["otp"], device: device,
                secondFactorAsked: secondFactorAsked)
        }
        passwords.observe(.success)
        return try sessions.complete(decision, context: context)
    }

    private func signInWithContinuation(
        _ context: ClientContext, continuationToken: String?, username: String?, scopes: ScopeSet,
        device presented: PresentedDeviceToken?, secondFactorAsked: Bool
    ) throws -> SessionOutcome {
        let flow = try flows.load(continuationToken, context: context, kinds: [.signInContinuation])
        if let username, !username.isEmpty, User.normalizeEmail(username) != flow.username {
            throw AuthFailure.invalidContinuationToken
        }
        let amr = flow.state.amr.isEmpty ? ["otp"] : flow.state.amr
        let device = trustedDevice(presented, flow: flow, context: context)
        // After a method registration MSAL asks only for `openid profile offline_access`: the
        // scopes of the sign-in that needed the registration are granted too.
        let granted = flow.state.scopes.isEmpty ? scopes : scopes.adding(flow.state.scopes)
        return try finish(
            context, flow: flow, scopes: granted, amr: amr, device: device, secondFactorAsked: secondFactorAsked
        ) { _, _ in }
    }

    /// Checks a sign-in or second-factor `code` of `flow` and runs `body` in the transaction of a
    /// right one. Wrong codes count against the account like wrong passwords; the code itself stays
    /// limited per code and per send, so a delay does not stop code sign-in. Every code failure is
    /// recorded.
    func withSignInCode<R>(
        _ code: String?, flow: Flow, context: ClientContext, _ body: (any StoreWriting, Flow) throws -> R
    ) throws -> R {
        do {
            return try flows.withVerifiedCode(
                code, flow: flow, tenant: context.tenant,
                onWrongCode: { tx in
                    if let userID = flow.userID { try passwords.countFailure(tx, context: context, userID: userID) }
                }
            ) { tx, original, _ in try body(tx, original) }
        } catch let failure as AuthFailure where [.invalidCode, .codeExpired, .codeAttemptsExceeded].contains(failure) {
            try passwords.record(failure, context: context, userID: flow.userID)
            throw failure
        }
    }

    /// Consumes the flow, lets the session issuer decide, and signs the tokens after commit.
    func finish(
        _ context: ClientContext, flow: Flow, scopes: ScopeSet, amr: [String], device: DeviceToken?,
        secondFactorAsked: Bool, extra: (any StoreWriting, inout User) throws -> Void
    ) throws -> SessionOutcome {
        let decision = try flows.store.write { tx in
            let current = try flows.reload(tx, flow)
            return try commitSignIn(
                tx, context: context, flow: current, scopes: scopes, amr: amr, device: device,
                secondFactorAsked: secondFactorAsked, extra: extra)
        }
        passwords.observe(.success)
        return try sessions.complete(decision, context: context)
    }

    /// In a transaction: consumes the flow, loads the user and hands it to the session issuer,
    /// with the trusted device the sign-in came through, if any.
    /// - Parameter secondFactorAsked: the request's `claims` asked for the `mfa` class.
    func commitSignIn(
        _ tx: any StoreWriting, context: ClientContext, flow: Flow, scopes: ScopeSet, amr: [String],
        device: DeviceToken?, secondFactorAsked: Bool = false,
        extra: (any StoreWriting, inout User) throws -> Void = { _, _ in }
    ) throws -> SessionIssuer.Decision {
        guard let userID = flow.userID, var user = try tx.user(id: userID, tenantID: context.tenant.id) else {
            throw AuthFailure.invalidContinuationToken
        }
        guard !user.disabled else { throw AuthFailure.userDisabled }
        try flows.consume(tx, flow)
        try extra(tx, &user)
        return try sessions.decide(
            tx, context: context, user: user, scopes: scopes, amr: amr, device: device, flow: flow.state,
            secondFactorAsked: secondFactorAsked)
    }
}
