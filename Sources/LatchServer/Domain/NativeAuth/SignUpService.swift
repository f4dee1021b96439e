import Foundation

/// The next step of a sign-up after a successful `continue`.
public enum SignUpProgress: Sendable, Equatable {
    /// The account exists; sign in with this grant (`continuation_token`).
    case completed(ContinuationGrant)
    /// A password is needed next; continue with this token.
    case passwordRequired(continuationToken: String)
    /// These attributes are needed next; continue with this token.
    case attributesRequired(continuationToken: String, attributes: [AttributeDefinition])
}

/// What a sign-up `continue` submits, parsed by the adapter from `grant_type` and its parameters.
public enum SignUpSubmission: Sendable, Equatable {
    /// The verification code (`grant_type=oob`).
    case oneTimeCode(String?)
    /// The password (`grant_type=password`).
    case password(String?)
    /// Attributes by name; a `nil` value was not a string (`grant_type=attributes`).
    case attributes([String: String?])
}

/// Browserless sign-up (`signup/v1.0/start`, `challenge`, `continue`): the e-mail is always proven
/// with a one-time code; a password is collected when the client can handle one (or the tenant
/// requires it); the tenant's required attributes are collected last. The finished flow yields a
/// continuation token for the `continuation_token` grant.
public struct SignUpService: Sendable {
    let flows: FlowEngine
    let hasher: any PasswordHasher
    let policy: PasswordPolicy
    let clock: any ServerClock

    /// Starts a sign-up.
    /// - Parameters:
    ///   - attributes: submitted attributes by name; a `nil` value was not a string.
    ///   - support: what the client can collect (`challenge_type`), parsed by the adapter.
    /// - Returns: the first continuation token, or the browser when the client cannot finish natively.
    /// - Throws: ``AuthFailure`` (user exists, weak password, invalid attributes; too many attempts
    ///   when the hasher refuses this source its share of the cores).
    public func start(
        _ context: ClientContext, username: String?, password: String?, attributes: [String: String?],
        support: ChallengeSupport, capabilities: ClientCapabilities
    ) throws -> FlowStart {
        let email = try NativeAuthInput.username(username)
        guard support.contains(.oneTimeCode) else { return .browserRequired(.oneTimeCodeUnsupported) }
        let settings = context.tenant.settings
        if settings.passwordRequiredOnSignUp, !support.contains(.password) {
            return .browserRequired(.passwordRequiredButUnsupported)
        }
        // Every cheap check first (input, policy, attributes, an existing account); Argon2 last,
        // so a request that will be refused never costs a hash.
        if let password, !password.isEmpty, let violation = policy.violation(of: password, username: email) {
            throw AuthFailure.passwordPolicy(violation)
        }
        let collected = try NativeAuthInput.attributes(attributes, definitions: settings.requiredAttributes)
        try flows.limiter.admit(.flowStarts, context)
        // Under enumeration protection only the mailbox owner learns that the account exists:
        // the flow proceeds, and completing it after the code answers user_already_exists.
        if !settings.enumerationProtection,
            try flows.store.read({ try $0.user(email: email, tenantID: context.tenant.id) }) != nil
        {
            throw AuthFailure.userAlreadyExists
        }
        let passwordHash = try password.flatMap {
            $0.isEmpty ? nil : try hasher.hash($0, for: context.hashingSource)
        }
        let token = try flows.start(
            context, kind: .signUp, username: email, userID: nil,
            state: FlowState(
                support: support, capabilities: capabilities, passwordHash: passwordHash, attributes: collected))
        return .started(continuationToken: token)
    }

    /// Sends (or re-sends) the verification code. Calling it again is "resend code": the previous
    /// code stops working. After verification it asks for the password.
    public func challenge(_ context: ClientContext, continuationToken: String?, support: ChallengeSupport?) throws
        -> ChallengeOutcome
    {
        let flow = try flows.load(continuationToken, context: context, kinds: [.signUp])
        let support = support ?? flow.state.support
        guard flow.step == .started || flow.step == .codeSent else {
            // Verified already: the next credential is a password.
            guard support.contains(.password) else { return .browserRequired(.passwordRequiredButUnsupported) }
            return .password(continuationToken: try flows.step(flow, tenant: context.tenant) { _ in })
        }
        guard support.contains(.oneTimeCode) else { return .browserRequired(.oneTimeCodeUnsupported) }
        return try flows.sendCode(for: flow, context: context, purpose: .signUp)
    }

    /// Continues a sign-up with a code, a password or attributes, and creates the account when
    /// nothing else is needed.
    /// - Returns: the finished sign-up, or what it needs next.
    /// - Throws: the code, password and attribute failures.
    public func `continue`(_ context: ClientContext, continuationToken: String?, submission: SignUpSubmission) throws
        -> SignUpProgress
    {
        let flow = try flows.load(continuationToken, context: context, kinds: [.signUp])
        switch submission {
        case .oneTimeCode(let code):
            guard flow.step == .codeSent else { throw AuthFailure.outOfOrder("no code was sent in this flow") }
            return try flows.withVerifiedCode(code, flow: flow, tenant: context.tenant) { tx, original, verified in
                try finishOrAsk(tx, flow: verified, replacing: original, context: context)
            }
        case .password(let password):
            guard flow.step == .verified else { throw AuthFailure.outOfOrder("verify the e-mail address first") }
            guard let password, !password.isEmpty else { throw AuthFailure.missingParameter(.password) }
            if let violation = policy.violation(of: password, username: flow.username) {
                throw AuthFailure.passwordPolicy(violation)
            }
            let hash = try hasher.hash(password, for: context.hashingSource)
            return try flows.store.write { tx in
                let current = try flows.reload(tx, flow)
                var updated = current
                updated.state.passwordHash = hash
                return try finishOrAsk(tx, flow: updated, replacing: current, context: context)
            }
        case .attributes(let submitted):
            guard flow.step == .verified else { throw AuthFailure.outOfOrder("verify the e-mail address first") }
            let added = try NativeAuthInput.attributes(submitted, definitions: context.tenant.settings.requiredAttributes)
            guard !added.isEmpty else { throw AuthFailure.missingParameter(.attributes) }
            return try flows.store.write { tx in
                let current = try flows.reload(tx, flow)
                var updated = current
                updated.state.attributes.merge(added) { _, new in new }
                return try finishOrAsk(tx, flow: updated, replacing: current, context: context)
            }
        }
    }

    /// After a successful step: asks for what is still missing (the flow update commits), or
    /// creates the account.
    private func finishOrAsk(_ tx: any StoreWriting, flow original: Flow, replacing stored: Flow, context: ClientContext)
        throws -> SignUpProgress
    {
        let settings = context.tenant.settings
        var flow = original
        flow.step = .verified
        let needsPassword =
            flow.state.passwordHash == nil && (settings.passwordRequiredOnSignUp || flow.state.support.contains(.password))
        let missing = settings.requiredAttributes.filter { $0.required && flow.state.attributes[$0.name] == nil }
        if needsPassword || !missing.isEmpty {
            let next = flows.advance(&flow, tenant: context.tenant)
            try flows.save(tx, flow, replacing: stored)
            if needsPassword { return .passwordRequired(continuationToken: next) }
            return .attributesRequired(continuationToken: next, attributes: missing)
        }
        let now = clock.now()
        var attributes = flow.state.attributes
        let displayName = attributes.removeValue(forKey: "displayName")
        let user = User(
            id: UUID().uuidString.lowercased(), tenantID: context.tenant.id, email: flow.username,
            emailVerified: true, passwordHash: flow.state.passwordHash, displayName: displayName, attributes: attributes,
            createdAt: now, validSince: now)
        do {
            try tx.insert(user)
        } catch StoreError.conflict {
            throw AuthFailure.userAlreadyExists
        }
        try tx.insert(
            AuditEvent(
                tenantID: context.tenant.id, at: now, kind: .signUp, userID: user.id, clientID: context.client.id,
                remoteAddress: context.remoteAddress,
                detail: flow.state.passwordHash == nil ? "method=email_code" : "method=email_password"))
        flow.kind = .signInContinuation
        flow.step = .ready
        flow.userID = user.id
        flow.state.passwordHash = nil
        if flow.state.amr.isEmpty { flow.state.amr = ["otp"] }
        let next = flows.advance(&flow, tenant: context.tenant)
        try flows.save(tx, flow, replacing: stored)
        return .completed(ContinuationGrant(continuationToken: next, expiresIn: settings.continuationTokenLifetime))
    }
}
