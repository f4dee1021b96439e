import Foundation
import LatchCrypto

/// Self-service password reset (`resetpassword/v1.0/start`, `challenge`, `continue`, `submit`,
/// `poll_completion`): prove the e-mail with a code, set a new password (which ends every existing
/// session of the account), then sign in with the returned continuation token.
public struct PasswordResetService: Sendable {
    let flows: FlowEngine
    let hasher: Argon2idHasher
    let policy: PasswordPolicy
    let clock: any ServerClock

    /// The `poll_completion` status values.
    public enum CompletionStatus: String, Sendable {
        case succeeded, inProgress = "in_progress", failed, notStarted = "not_started"
    }

    /// Starts a reset.
    /// - Throws: ``AuthFailure/userNotFound`` unless the tenant protects against enumeration (then a
    ///   decoy flow answers like a real one and no code is ever accepted).
    public func start(_ context: ClientContext, username: String?, challengeType: String?, capabilities: String?)
        throws -> String
    {
        let types = try ChallengeTypes(challengeType, capabilities: capabilities)
        let email = try NativeAuthInput.username(username)
        guard types.supportsCode else { throw AuthFailure.browserRequired("password reset needs the oob challenge type") }
        let tenant = context.tenant
        let user = try flows.store.read { try $0.user(email: email, tenantID: tenant.id) }
        if user == nil, !tenant.settings.enumerationProtection { throw AuthFailure.userNotFound }
        if let user, user.disabled { throw AuthFailure.userDisabled }
        let token = FlowEngine.newContinuationToken()
        let now = clock.now()
        // Starting a flow need not wait for the disk: a lost flow only means starting again.
        try flows.store.writeRelaxed { tx in
            try tx.insert(
                Flow(
                    id: UUID().uuidString.lowercased(), tenantID: tenant.id, clientID: context.client.id,
                    kind: .passwordReset, step: .started, tokenHash: token.hash, username: email, userID: user?.id,
                    challengeTypes: types.sorted, capabilities: types.capabilities,
                    expiresAt: now.addingTimeInterval(TimeInterval(tenant.settings.continuationTokenLifetime)),
                    createdAt: now))
        }
        return token.token
    }

    /// Sends (or re-sends) the reset code; the previous code stops working.
    public func challenge(_ context: ClientContext, continuationToken: String?, challengeType: String?) throws
        -> ChallengeOutcome
    {
        let flow = try flows.load(continuationToken, context: context, kinds: [.passwordReset])
        let types =
            try challengeType.map { try ChallengeTypes($0, capabilities: nil) }
            ?? ChallengeTypes(stored: flow.challengeTypes, capabilities: flow.capabilities)
        guard types.supportsCode else { return .redirect(reason: "password reset needs the oob challenge type") }
        guard flow.step == .started || flow.step == .codeSent else {
            throw AuthFailure.invalidRequest("the code was already verified in this flow")
        }
        return try flows.sendCode(for: flow, tenant: context.tenant, purpose: .passwordReset)
    }

    /// Verifies the code (`grant_type=oob`).
    public func `continue`(_ context: ClientContext, continuationToken: String?, grantType: String?, code: String?)
        throws -> ContinuationGrant
    {
        let flow = try flows.load(continuationToken, context: context, kinds: [.passwordReset])
        guard let grantType, !grantType.isEmpty else { throw AuthFailure.invalidRequest("grant_type is required") }
        guard grantType == "oob" else { throw AuthFailure.unsupportedGrantType(grantType) }
        guard flow.step == .codeSent else { throw AuthFailure.invalidRequest("no code was sent in this flow") }
        return try flows.withVerifiedCode(code, flow: flow, tenant: context.tenant) { tx, current in
            current.step = .verified
            let next = flows.advance(&current, tenant: context.tenant)
            try tx.update(current)
            return ContinuationGrant(continuationToken: next, expiresIn: context.tenant.settings.continuationTokenLifetime)
        }
    }

    /// Sets the new password and revokes every session of the account.
    /// - Returns: the token for `poll_completion` and the poll interval in seconds.
    public func submit(_ context: ClientContext, continuationToken: String?, newPassword: String?) throws
        -> (continuationToken: String, pollInterval: Int)
    {
        let flow = try flows.load(continuationToken, context: context, kinds: [.passwordReset])
        guard flow.step == .verified, let userID = flow.userID else {
            throw AuthFailure.invalidRequest("verify the code first")
        }
        guard let newPassword, !newPassword.isEmpty else { throw AuthFailure.invalidRequest("new_password is required") }
        if let violation = policy.violation(of: newPassword, username: flow.username) {
            throw AuthFailure.passwordPolicy(violation)
        }
        let hash = try hasher.hash(newPassword)
        let next: String = try flows.store.write { tx in
            var current = try flows.reload(tx, flow)
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
            current.step = .passwordSubmitted
            let next = flows.advance(&current, tenant: context.tenant)
            try tx.update(current)
            return next
        }
        return (next, 1)
    }

    /// Reports whether the reset finished; once it has, the returned token signs the user in.
    public func pollCompletion(_ context: ClientContext, continuationToken: String?) throws
        -> (status: CompletionStatus, continuationToken: String)
    {
        let flow = try flows.load(continuationToken, context: context, kinds: [.passwordReset])
        guard flow.step == .passwordSubmitted else {
            throw AuthFailure.invalidRequest("submit the new password first")
        }
        let next: String = try flows.store.write { tx in
            var current = try flows.reload(tx, flow)
            current.kind = .signInContinuation
            current.step = .ready
            current.amr = ["otp", "pwd"]
            let next = flows.advance(&current, tenant: context.tenant)
            try tx.update(current)
            return next
        }
        return (.succeeded, next)
    }
}
