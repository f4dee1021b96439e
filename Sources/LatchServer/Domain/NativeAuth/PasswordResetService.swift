import Foundation

/// Self-service password reset (`resetpassword/v1.0/start`, `challenge`, `continue`, `submit`,
/// `poll_completion`): prove the e-mail with a code, set a new password (which ends every existing
/// session of the account), then sign in with the returned continuation token.
public struct PasswordResetService: Sendable {
    let flows: FlowEngine
    let hasher: any PasswordHasher
    let policy: PasswordPolicy
    let clock: any ServerClock

    /// The `poll_completion` status values.
    public enum CompletionStatus: Sendable {
        case succeeded, inProgress, failed, notStarted
    }

    /// Starts a reset.
    /// - Throws: ``AuthFailure/userNotFound`` unless the tenant protects against enumeration (then a
    ///   decoy flow answers like a real one and no code is ever accepted).
    public func start(
        _ context: ClientContext, username: String?, support: ChallengeSupport, capabilities: ClientCapabilities
    ) throws -> FlowStart {
        let email = try NativeAuthInput.username(username)
        guard support.contains(.oneTimeCode) else { return .browserRequired(.oneTimeCodeUnsupported) }
        try flows.limiter.admit(.flowStarts, context)
        let tenant = context.tenant
        let user = try flows.store.read { try $0.user(email: email, tenantID: tenant.id) }
        if user == nil, !tenant.settings.enumerationProtection { throw AuthFailure.userNotFound }
        if let user, user.disabled { throw AuthFailure.userDisabled }
        let token = try flows.start(
            context, kind: .passwordReset, username: email, userID: user?.id,
            state: FlowState(support: support, capabilities: capabilities))
        return .started(continuationToken: token)
    }

    /// Sends (or re-sends) the reset code; the previous code stops working.
    public func challenge(_ context: ClientContext, continuationToken: String?, support: ChallengeSupport?) throws
        -> ChallengeOutcome
    {
        let flow = try flows.load(continuationToken, context: context, kinds: [.passwordReset])
        guard (support ?? flow.state.support).contains(.oneTimeCode) else {
            return .browserRequired(.oneTimeCodeUnsupported)
        }
        guard flow.step == .started || flow.step == .codeSent else {
            throw AuthFailure.outOfOrder("the code was already verified in this flow")
        }
        return try flows.sendCode(for: flow, context: context, purpose: .passwordReset)
    }

    /// Verifies the code.
    public func `continue`(_ context: ClientContext, continuationToken: String?, code: String?) throws -> ContinuationGrant {
        let flow = try flows.load(continuationToken, context: context, kinds: [.passwordReset])
        guard flow.step == .codeSent else { throw AuthFailure.outOfOrder("no code was sent in this flow") }
        return try flows.withVerifiedCode(code, flow: flow, tenant: context.tenant) { tx, original, verified in
            verified.step = .verified
            let next = flows.advance(&verified, tenant: context.tenant)
            try flows.save(tx, verified, replacing: original)
            return ContinuationGrant(continuationToken: next, expiresIn: context.tenant.settings.continuationTokenLifetime)
        }
    }

    /// Sets the new password and revokes every session of the account.
    /// - Returns: the token for `poll_completion` and the poll interval in seconds.
    public func submit(_ context: ClientContext, continuationToken: String?, newPassword: String?) throws
        -> (continuationToken: String, pollInterval: Int)
    {
        let flow = try flows.load(continuationToken, context: context, kinds: [.passwordReset])
        guard flow.step == .verified, let userID = flow.userID else { throw AuthFailure.outOfOrder("verify the code first") }
        guard let newPassword, !newPassword.isEmpty else { throw AuthFailure.missingParameter(.newPassword) }
        if let violation = policy.violation(of: newPassword, username: flow.username) {
            throw AuthFailure.passwordPolicy(violation)
        }
        let hash = try hasher.hash(newPassword, for: context.hashingSource)
        let next: String = try flows.store.write { tx in
            let current = try flows.reload(tx, flow)
            guard var user = try tx.user(id: userID, tenantID: context.tenant.id) else {
                throw AuthFailure.invalidContinuationToken
            }
            let now = clock.now()
            user.passwordHash = hash
            user.emailVerified = true
            user.validSince = now
            try tx.update(user)
            try tx.revokeFamilies(userID: user.id, at: now)
            try tx.insert(
                AuditEvent(
                    tenantID: context.tenant.id, at: now, kind: .passwordReset, userID: user.id,
                    clientID: context.client.id, remoteAddress: context.remoteAddress, detail: "sessions_revoked"))
            var updated = current
            updated.step = .passwordSubmitted
            let next = flows.advance(&updated, tenant: context.tenant)
            try flows.save(tx, updated, replacing: current)
            return next
        }
        return (next, 1)
    }

    /// Reports whether the reset finished; once it has, the returned token signs the user in.
    public func pollCompletion(_ context: ClientContext, continuationToken: String?) throws
        -> (status: CompletionStatus, continuationToken: String)
    {
        let flow = try flows.load(continuationToken, context: context, kinds: [.passwordReset])
        guard flow.step == .passwordSubmitted else { throw AuthFailure.outOfOrder("submit the new password first") }
        let next = try flows.step(flow, tenant: context.tenant) { flow in
            flow.kind = .signInContinuation
            flow.step = .ready
            flow.state.amr = ["otp", "pwd"]
        }
        return (.succeeded, next)
    }
}
