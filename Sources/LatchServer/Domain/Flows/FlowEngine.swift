import Foundation
import LatchCrypto

/// The mechanics every native-auth flow shares: opaque single-use continuation tokens bound to a
/// tenant and client, one-time codes (CSPRNG digits, hashed, expiring, attempt-limited) and the
/// transactional outbox that carries them.
///
/// Every change to a flow is a compare-and-set on the token hash it was loaded with
/// (``FlowWriting/replace(_:expectingTokenHash:)``, ``FlowWriting/consumeFlow(id:tokenHash:)``), so
/// of two requests racing with one continuation token exactly one advances it, on any store.
struct FlowEngine: Sendable {
    let store: any Store
    let clock: any ServerClock
    /// Per-source rate limits: flow starts are taken by each service before its own work, code
    /// sends here.
    let limiter: RateLimiter
    /// Seals each message's body and code before it reaches the store.
    let sealer: MessageSealer
    /// The channels a delivery transport serves; a flow that must send a code on another is refused.
    let deliverable: Set<DeliveryChannel>
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

    /// A new flow of `kind` for `username`, with its first continuation token, stored without
    /// waiting for the disk (a lost flow only means starting again).
    func start(
        _ context: ClientContext, kind: Flow.Kind, username: String, userID: String?, state: FlowState
    ) throws -> String {
        // Sign-up and reset always need a code; refusing them up front beats codes nobody receives.
        if kind == .signUp || kind == .passwordReset { try requireDelivery() }
        return try store.writeRelaxed { tx in
            try insertFlow(tx, context: context, kind: kind, username: username, userID: userID, state: state)
        }
    }

    /// A new flow of `kind` for `username` in the caller's transaction, with its first continuation
    /// token.
    func insertFlow(
        _ tx: any StoreWriting, context: ClientContext, kind: Flow.Kind, username: String, userID: String?,
        state: FlowState
    ) throws -> String {
        let token = Self.newContinuationToken()
        let now = clock.now()
        let flow = Flow(
            id: UUID().uuidString.lowercased(), tenantID: context.tenant.id, clientID: context.client.id, kind: kind,
            step: .started, tokenHash: token.hash, username: username, userID: userID, state: state,
            expiresAt: now.addingTimeInterval(TimeInterval(context.tenant.settings.continuationTokenLifetime)),
            createdAt: now)
        try tx.insert(flow)
        return token.token
    }

    /// Loads and checks the flow a continuation token points to.
    /// - Throws: ``AuthFailure/missingParameter(_:)`` when absent, ``AuthFailure/invalidContinuationToken``
    ///   when unknown, used, or bound elsewhere, ``AuthFailure/continuationTokenExpired`` when expired.
    func load(_ token: String?, context: ClientContext, kinds: Set<Flow.Kind>) throws -> Flow {
        guard let token, !token.isEmpty else { throw AuthFailure.missingParameter(.continuationToken) }
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

    /// Re-reads `flow` inside a write and insists it is at the same step, so counters (wrong codes)
    /// start from the committed value.
    func reload(_ tx: any StoreWriting, _ flow: Flow) throws -> Flow {
        guard let current = try tx.flow(tokenHash: flow.tokenHash), current.id == flow.id, current.step == flow.step
        else { throw AuthFailure.invalidContinuationToken }
        return current
    }

    /// Stores `updated` in place of `original` if nobody changed the flow since it was read.
    /// - Throws: ``AuthFailure/invalidContinuationToken`` when another request got there first.
    func save(_ tx: any StoreWriting, _ updated: Flow, replacing original: Flow) throws {
        guard try tx.replace(updated, expectingTokenHash: original.tokenHash) else {
            throw AuthFailure.invalidContinuationToken
        }
    }

    /// Deletes `flow`, the last use of its token.
    /// - Throws: ``AuthFailure/invalidContinuationToken`` when another request consumed it first.
    func consume(_ tx: any StoreWriting, _ flow: Flow) throws {
        guard try tx.consumeFlow(id: flow.id, tokenHash: flow.tokenHash) else {
            throw AuthFailure.invalidContinuationToken
        }
    }

    /// Gives `flow` a fresh continuation token and expiry; the old token stops working on commit.
    func advance(_ flow: inout Flow, tenant: Tenant) -> String {
        let fresh = Self.newContinuationToken()
        flow.tokenHash = fresh.hash
        flow.expiresAt = clock.now().addingTimeInterval(TimeInterval(tenant.settings.continuationTokenLifetime))
        return fresh.token
    }

    /// In one write: re-reads `flow`, lets `change` modify it, gives it a fresh token and saves it.
    /// - Returns: the new continuation token.
    func step(_ flow: Flow, tenant: Tenant, relaxed: Bool = false, _ change: (inout Flow) throws -> Void) throws -> String {
        let body: (any StoreWriting) throws -> String = { tx in
            let current = try reload(tx, flow)
            var updated = current
            try change(&updated)
            let next = advance(&updated, tenant: tenant)
            try save(tx, updated, replacing: current)
            return next
        }
        return relaxed ? try store.writeRelaxed(body) : try store.write(body)
    }

    /// Throws ``AuthFailure/deliveryUnavailable`` when no transport can deliver codes (decoy flows
    /// included, so the refusal tells nothing about the address).
    private func requireDelivery(_ channel: DeliveryChannel = .email) throws {
        guard deliverable.contains(channel) else { throw AuthFailure.deliveryUnavailable }
    }

    /// Whether codes of `flow` are mailed: not for a decoy flow (unknown user under enumeration
    /// protection), whose codes nobody receives.
    static func mailsCodes(_ flow: Flow) -> Bool { flow.kind == .signUp || flow.userID != nil }

    /// Issues a new one-time code for `flow` (the previous one stops working) and queues its message
    /// in the outbox, sealed, in the caller's transaction. A decoy flow (unknown user under enumeration
    /// protection) gets a code nobody receives.
    /// - Parameter contact: where the code goes; the flow's username by e-mail when `nil`.
    func issueCode(
        _ tx: any StoreWriting, flow: inout Flow, tenant: Tenant, purpose: CodePurpose,
        to contact: FlowState.PendingContact? = nil
    ) throws {
        let settings = tenant.settings
        let code = SecureRandom.digits(settings.codeLength)
        flow.state.code = FlowState.PendingCode(
            hash: codeHash(flowID: flow.id, code: code),
            expiresAt: clock.now().addingTimeInterval(TimeInterval(settings.codeLifetime)))
        flow.state.codeSends += 1
        flow.step = .codeSent
        guard Self.mailsCodes(flow) else { return }
        let minutes = max(1, settings.codeLifetime / 60)
        let contact = contact ?? FlowState.PendingContact(channel: .email, target: flow.username)
        let body =
            contact.channel == .sms
            ? "\(purpose.sentence) \(code). It expires in \(minutes) minutes."
            : "\(purpose.sentence) \(code)\n\nIt expires in \(minutes) minutes. "
                + "If you did not ask for it, ignore this message."
        let message = OutboxMessage(
            tenantID: tenant.id, channel: contact.channel.rawValue, recipient: contact.target,
            subject: contact.channel == .sms ? "" : purpose.subject, body: body, code: code, createdAt: clock.now(),
            kind: purpose.messageKind, validMinutes: minutes)
        try tx.insert(try sealer.seal(message))
    }

    /// The `challenge` step that sends a code: issues it with its outbox message, gives the flow a
    /// fresh token, commits, wakes the outbox worker and describes the delivery. Calling it again is
    /// "resend code": the previous code stops working.
    /// - Parameters:
    ///   - contact: where the code goes; the flow's username by e-mail when `nil`.
    ///   - change: further changes to the flow in the same write.
    func sendCode(
        for flow: Flow, context: ClientContext, purpose: CodePurpose, to contact: FlowState.PendingContact? = nil,
        _ change: (inout Flow) throws -> Void = { _ in }
    ) throws -> ChallengeOutcome {
        let contact = contact ?? FlowState.PendingContact(channel: .email, target: flow.username)
        try requireDelivery(contact.channel)
        try limiter.admit(.codeSends, context)
        let tenant = context.tenant
        let next: String = try store.write { tx in
            let current = try reload(tx, flow)
            try checkSendLimits(
                tx, flow: current, recipient: contact.target, tenant: tenant, purpose: purpose,
                source: context.remoteAddress)
            try tx.recordCodeSend(
                tenantID: tenant.id, recipient: contact.target, purpose: purpose.rawValue, source: context.remoteAddress,
                at: clock.now())
            var updated = current
            try change(&updated)
            try issueCode(tx, flow: &updated, tenant: tenant, purpose: purpose, to: contact)
            let next = advance(&updated, tenant: tenant)
            try save(tx, updated, replacing: current)
            return next
        }
        outboxChanged()
        return .oneTimeCode(
            continuationToken: next, channel: contact.channel, targetLabel: ContactLabel.mask(contact),
            codeLength: tenant.settings.codeLength, interval: 300)
    }

    /// Refuses a code send (e-mail bombing protection) beyond three caps, each over the sliding
    /// ``TenantSettings/codeSendWindowSeconds``, for codes of this `purpose` only (so sign-in codes
    /// never use up reset codes):
    /// - ``TenantSettings/codeSendsPerWindow`` to the address from this `source`;
    /// - ``TenantSettings/codeSendsPerAddressPerWindow`` to the address from all sources, higher, so
    ///   one source cannot use up the real user's sends;
    /// - ``TenantSettings/codeSendsPerWindow`` in this flow.
    ///
    /// The ledger counts decoy flows' sends too, so an unknown address under enumeration protection
    /// meets exactly the limits a real one does.
    /// - Throws: ``AuthFailure/tooManyAttempts(retryAfter:)`` with the seconds until a send is allowed
    ///   again: until the send that fills the window leaves it, or (per flow) until the flow is one
    ///   window old.
    private func checkSendLimits(
        _ tx: any StoreWriting, flow: Flow, recipient: String, tenant: Tenant, purpose: CodePurpose, source: String
    ) throws {
        let perSource = max(1, tenant.settings.codeSendsPerWindow)
        let perAddress = max(perSource, tenant.settings.codeSendsPerAddressPerWindow)
        let window = TimeInterval(max(1, tenant.settings.codeSendWindowSeconds))
        let now = clock.now()
        // A second factor after a first factor through a trusted device is the real user: the
        // per-address cap, which strangers from many sources can fill, does not hold it back.
        let caps: [(Int, String?)] =
            flow.state.trustedDevice ? [(perSource, source)] : [(perSource, source), (perAddress, nil)]
        for (limit, from) in caps {
            // The `limit` newest sends: once the oldest of them leaves the window, fewer remain.
            let sends = try tx.codeSendTimes(
                tenantID: tenant.id, recipient: recipient, purpose: purpose.rawValue, source: from, since: now - window,
                limit: limit)
            if sends.count >= limit {
                let filling = sends.min() ?? now
                throw AuthFailure.tooManyAttempts(retryAfter: Self.seconds(from: now, until: filling + window))
            }
        }
        if flow.state.codeSends >= perSource {
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
        guard let pending = flow.state.code else { return .expired }
        if pending.attempts >= tenant.settings.codeMaxAttempts { return .exhausted }
        if pending.expiresAt <= clock.now() { return .expired }
        let candidate = codeHash(flowID: flow.id, code: submitted)
        return ConstantTime.equals(Array(candidate.utf8), Array(pending.hash.utf8)) ? .accepted : .wrong
    }

    /// Verifies `code` for `flow` and, when it is right, runs `body` in the same transaction with the
    /// flow marked verified; `body` saves or consumes the flow. A wrong code is counted and committed
    /// before the failure is thrown; the attempt that reaches the limit burns the code.
    /// - Parameter onWrongCode: runs in the transaction that counts a wrong code (not for a code that
    ///   was burnt or expired already), e.g. to count the failure against the account too.
    func withVerifiedCode<R>(
        _ code: String?, flow: Flow, tenant: Tenant, onWrongCode: (any StoreWriting) throws -> Void = { _ in },
        then body: (any StoreWriting, _ original: Flow, _ verified: inout Flow) throws -> R
    ) throws -> R {
        guard let code, !code.isEmpty else { throw AuthFailure.missingParameter(.oneTimeCode) }
        guard code.utf8.count <= 32 else { throw AuthFailure.invalidCode }
        let outcome: Result<R, AuthFailure> = try store.write { tx in
            let current = try reload(tx, flow)
            switch check(code, flow: current, tenant: tenant) {
            case .accepted:
                var verified = current
                verified.state.code = nil
                verified.state.emailVerified = true
                if !verified.state.amr.contains("otp") { verified.state.amr.append("otp") }
                return .success(try body(tx, current, &verified))
            case .wrong:
                var counted = current
                counted.state.code?.attempts += 1
                try save(tx, counted, replacing: current)
                try onWrongCode(tx)
                let exhausted = (counted.state.code?.attempts ?? 0) >= tenant.settings.codeMaxAttempts
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
enum CodePurpose: String {
    case signUp = "sign_up", signIn = "sign_in", passwordReset = "password_reset"
    /// A second factor at sign-in.
    case secondFactor = "second_factor"
    /// Proving a strong authentication method being registered.
    case methodRegistration = "method_registration"

    var subject: String {
        switch self {
        case .signUp: "Verify your e-mail address"
        case .signIn: "Your sign-in code"
        case .passwordReset: "Reset your password"
        case .secondFactor: "Your verification code"
        case .methodRegistration: "Confirm your verification method"
        }
    }

    /// The e-mail template of the message.
    var messageKind: MessageKind { MessageKind(rawValue: rawValue) }

    var sentence: String {
        switch self {
        case .signUp: "Your verification code is"
        case .signIn: "Your sign-in code is"
        case .passwordReset: "Your password reset code is"
        case .secondFactor: "Your verification code is"
        case .methodRegistration: "Your code to confirm this verification method is"
        }
    }
}
