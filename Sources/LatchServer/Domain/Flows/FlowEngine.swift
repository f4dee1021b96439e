import Foundation
import LatchCrypto

/// The mechanics every native-auth flow shares: opaque single-use continuation tokens bound to a
/// tenant and client, one-time codes (CSPRNG digits, hashed, expiring, attempt-limited) and the
/// transactional outbox that carries them.
struct FlowEngine: Sendable {
    let store: any Store
    let clock: any ServerClock
    /// Called after a commit that queued outbox messages, to wake the delivery worker.
    let outboxChanged: @Sendable () -> Void

    /// The outcome of checking a submitted code.
    enum CodeCheck: Equatable {
        case accepted, wrong, expired, exhausted
    }

    /// A fresh continuation token and the hash the store keeps.
    static func newContinuationToken() -> (token: String, hash: String) {
        let token = SecureRandom.token(byteCount: 32)
        return (token, hash(token))
    }

    /// Hex SHA-256 of a token.
    static func hash(_ token: String) -> String { Digest.sha256Hex(token) }

    /// Loads and checks the flow a continuation token points to.
    /// - Throws: ``AuthFailure/invalidRequest(_:)`` when absent, ``AuthFailure/invalidContinuationToken``
    ///   when unknown, used, or bound elsewhere, ``AuthFailure/continuationTokenExpired`` when expired.
    func load(_ token: String?, context: ClientContext, kinds: Set<Flow.Kind>) throws -> Flow {
        guard let token, !token.isEmpty else { throw AuthFailure.invalidRequest("continuation_token is required") }
        guard token.utf8.count <= 256 else { throw AuthFailure.invalidContinuationToken }
        let hash = Self.hash(token)
        guard let flow = try store.read({ try $0.flow(tokenHash: hash) }) else {
            throw AuthFailure.invalidContinuationToken
        }
        guard flow.tenantID == context.tenant.id, flow.clientID == context.client.id, kinds.contains(flow.kind) else {
            throw AuthFailure.invalidContinuationToken
        }
        guard flow.expiresAt > clock.now() else { throw AuthFailure.continuationTokenExpired }
        return flow
    }

    /// Re-reads `flow` inside a write and insists it is unchanged, so two requests racing with one
    /// token cannot both advance it.
    func reload(_ tx: any StoreWriting, _ flow: Flow) throws -> Flow {
        guard let current = try tx.flow(tokenHash: flow.tokenHash), current.id == flow.id, current.step == flow.step
        else { throw AuthFailure.invalidContinuationToken }
        return current
    }

    /// Gives `flow` a fresh continuation token and expiry; the old token stops working on commit.
    func advance(_ flow: inout Flow, tenant: Tenant) -> String {
        let fresh = Self.newContinuationToken()
        flow.tokenHash = fresh.hash
        flow.expiresAt = clock.now().addingTimeInterval(TimeInterval(tenant.settings.continuationTokenLifetime))
        return fresh.token
    }

    /// Whether codes of `flow` are mailed: not for a decoy flow (unknown user under enumeration
    /// protection), whose codes nobody receives.
    static func mailsCodes(_ flow: Flow) -> Bool { flow.kind == .signUp || flow.userID != nil }

    /// Issues a new one-time code for `flow` (the previous one stops working) and queues its message
    /// in the outbox, in the caller's transaction. A decoy flow (unknown user under enumeration
    /// protection) gets a code nobody receives.
    func issueCode(_ tx: any StoreWriting, flow: inout Flow, tenant: Tenant, purpose: CodePurpose) throws {
        let settings = tenant.settings
        let code = SecureRandom.digits(settings.codeLength)
        flow.codeHash = codeHash(flowID: flow.id, code: code)
        flow.codeExpiresAt = clock.now().addingTimeInterval(TimeInterval(settings.codeLifetime))
        flow.codeAttempts = 0
        flow.codeSends += 1
        flow.step = .codeSent
        guard Self.mailsCodes(flow) else { return }
        let minutes = max(1, settings.codeLifetime / 60)
        try tx.insert(
            OutboxMessage(
                tenantID: tenant.id, recipient: flow.username, subject: purpose.subject,
                body: "\(purpose.sentence) \(code)\n\nIt expires in \(minutes) minutes. "
                    + "If you did not ask for it, ignore this message.",
                code: code, createdAt: clock.now()))
    }

    /// The `challenge` step that sends a code: issues it with its outbox message, gives the flow a
    /// fresh token, commits, wakes the outbox worker and describes the delivery. Calling it again is
    /// "resend code": the previous code stops working.
    func sendCode(for flow: Flow, tenant: Tenant, purpose: CodePurpose) throws -> ChallengeOutcome {
        let next: String = try store.write { tx in
            var current = try reload(tx, flow)
            try checkSendLimits(tx, flow: current, tenant: tenant)
            try issueCode(tx, flow: &current, tenant: tenant, purpose: purpose)
            let next = advance(&current, tenant: tenant)
            try tx.update(current)
            return next
        }
        outboxChanged()
        return .oob(
            continuationToken: next, channel: "email", targetLabel: ContactLabel.mask(flow.username),
            codeLength: tenant.settings.codeLength, interval: 300)
    }

    /// Refuses a code send (e-mail bombing protection) when the tenant already sent
    /// ``TenantSettings/codeSendsPerWindow`` messages to the address within the last
    /// ``TenantSettings/codeSendWindowSeconds``, or when the flow itself sent that many codes. A decoy
    /// flow mails nothing, so only the per-flow cap applies to it, answering as a real flow would.
    /// - Throws: ``AuthFailure/tooManyAttempts(retryAfter:)`` with the seconds until a send is allowed
    ///   again: until the message that fills the window leaves it, or (per flow) until the flow is
    ///   one window old.
    private func checkSendLimits(_ tx: any StoreWriting, flow: Flow, tenant: Tenant) throws {
        let limit = max(1, tenant.settings.codeSendsPerWindow)
        let window = TimeInterval(max(1, tenant.settings.codeSendWindowSeconds))
        let now = clock.now()
        if Self.mailsCodes(flow) {
            let sent = try tx.outboxCount(tenantID: tenant.id, recipient: flow.username, since: now - window)
            if sent >= limit {
                // The `limit` newest messages: once the oldest of them leaves the window, fewer than
                // `limit` remain in it.
                let newest = try tx.outboxMessages(tenantID: tenant.id, recipient: flow.username, limit: limit)
                let filling = newest.map(\.createdAt).min() ?? now
                throw AuthFailure.tooManyAttempts(retryAfter: Self.seconds(from: now, until: filling + window))
            }
        }
        if flow.codeSends >= limit {
            throw AuthFailure.tooManyAttempts(retryAfter: Self.seconds(from: now, until: flow.createdAt + window))
        }
    }

    /// Whole seconds from `now` until `date`, rounded up, at least 1 (a `Retry-After` value).
    static func seconds(from now: Date, until date: Date) -> Int {
        let interval = date.timeIntervalSince(now).rounded(.up)
        guard interval.isFinite, interval >= 1 else { return 1 }
        return interval >= Double(Int32.max) ? Int(Int32.max) : Int(interval)
    }

    /// Checks a submitted code against the flow's current one.
    func check(_ submitted: String, flow: Flow, tenant: Tenant) -> CodeCheck {
        guard let stored = flow.codeHash, let expiresAt = flow.codeExpiresAt else { return .expired }
        if flow.codeAttempts >= tenant.settings.codeMaxAttempts { return .exhausted }
        if expiresAt <= clock.now() { return .expired }
        let candidate = codeHash(flowID: flow.id, code: submitted)
        return ConstantTime.equals(Array(candidate.utf8), Array(stored.utf8)) ? .accepted : .wrong
    }

    /// Verifies `code` for `flow` and, when it is right, runs `body` in the same transaction with the
    /// flow marked verified. A wrong code is counted and committed before the failure is thrown; the
    /// attempt that reaches the limit burns the code.
    /// - Parameter onWrongCode: runs in the transaction that counts a wrong code (not for a code that
    ///   was burnt or expired already), e.g. to count the failure against the account too.
    func withVerifiedCode<R>(
        _ code: String?, flow: Flow, tenant: Tenant, onWrongCode: (any StoreWriting) throws -> Void = { _ in },
        then body: (any StoreWriting, inout Flow) throws -> R
    ) throws -> R {
        guard let code, !code.isEmpty else { throw AuthFailure.invalidRequest("oob is required") }
        guard code.utf8.count <= 32 else { throw AuthFailure.invalidCode }
        let outcome: Result<R, AuthFailure> = try store.write { tx in
            var current = try reload(tx, flow)
            switch check(code, flow: current, tenant: tenant) {
            case .accepted:
                current.codeHash = nil
                current.codeExpiresAt = nil
                current.codeAttempts = 0
                current.emailVerified = true
                if !current.amr.contains("otp") { current.amr.append("otp") }
                return .success(try body(tx, &current))
            case .wrong:
                current.codeAttempts += 1
                try tx.update(current)
                try onWrongCode(tx)
                let exhausted = current.codeAttempts >= tenant.settings.codeMaxAttempts
                return .failure(exhausted ? .codeAttemptsExceeded : .invalidCode)
            case .expired:
                return .failure(.codeExpired)
            case .exhausted:
                return .failure(.codeAttemptsExceeded)
            }
        }
        return try outcome.get()
    }

    private func codeHash(flowID: String, code: String) -> String {
        Digest.sha256Hex(flowID + ":" + code)
    }
}

/// Why a one-time code is being sent; decides the message wording.
enum CodePurpose {
    case signUp, signIn, passwordReset

    var subject: String {
        switch self {
        case .signUp: "Verify your e-mail address"
        case .signIn: "Your sign-in code"
        case .passwordReset: "Reset your password"
        }
    }

    var sentence: String {
        switch self {
        case .signUp: "Your verification code is"
        case .signIn: "Your sign-in code is"
        case .passwordReset: "Your password reset code is"
        }
    }
}
