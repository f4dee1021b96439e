import Foundation
import LatchCrypto

/// Browserless sign-up (`signup/v1.0/start`, `challenge`, `continue`): the e-mail is always proven
/// with a one-time code; a password is collected when the client can handle one (or the tenant
/// requires it); the tenant's required attributes are collected last. The finished flow yields a
/// continuation token for the `continuation_token` grant.
public struct SignUpService: Sendable {
    let flows: FlowEngine
    let hasher: Argon2idHasher
    let policy: PasswordPolicy
    let clock: any ServerClock

    /// Starts a sign-up.
    /// - Parameters:
    ///   - attributes: submitted attributes by name; a `nil` value was not a string.
    /// - Returns: the first continuation token.
    /// - Throws: ``AuthFailure`` (user exists, weak password, invalid attributes, unsupported challenge type,
    ///   or ``AuthFailure/browserRequired(_:)`` when the client cannot finish natively).
    public func start(
        _ context: ClientContext, username: String?, password: String?, attributes: [String: String?], challengeType: String?,
        capabilities: String?
    ) throws -> String {
        let types = try ChallengeTypes(challengeType, capabilities: capabilities)
        let email = try NativeAuthInput.username(username)
        guard types.supportsCode else { throw AuthFailure.browserRequired("e-mail verification needs the oob challenge type") }
        let settings = context.tenant.settings
        if settings.passwordRequiredOnSignUp, !types.supportsPassword {
            throw AuthFailure.browserRequired("this tenant requires a password the client cannot collect")
        }
        var passwordHash: String?
        if let password, !password.isEmpty {
            if let violation = policy.violation(of: password, username: email) {
                throw AuthFailure.passwordPolicy(violation)
            }
            passwordHash = try hasher.hash(password)
        }
        let collected = try NativeAuthInput.attributes(attributes, definitions: settings.requiredAttributes)
        let token = FlowEngine.newContinuationToken()
        let now = clock.now()
        // Starting a flow need not wait for the disk: a lost flow only means starting again.
        try flows.store.writeRelaxed { tx in
            // Under enumeration protection only the mailbox owner learns that the account exists:
            // the flow proceeds, and completing it after the code answers user_already_exists.
            if !settings.enumerationProtection, try tx.user(email: email, tenantID: context.tenant.id) != nil {
                throw AuthFailure.userAlreadyExists
            }
            try tx.insert(
                Flow(
                    id: UUID().uuidString.lowercased(), tenantID: context.tenant.id, clientID: context.client.id,
                    kind: .signUp, step: .started, tokenHash: token.hash, username: email, userID: nil,
                    passwordHash: passwordHash, attributes: collected, challengeTypes: types.sorted,
                    capabilities: types.capabilities,
                    expiresAt: now.addingTimeInterval(TimeInterval(settings.continuationTokenLifetime)), createdAt: now))
        }
        return token.token
    }

    /// Sends (or re-sends) the verification code. Calling it again is "resend code": the previous
    /// code stops working.
    public func challenge(_ context: ClientContext, continuationToken: String?, challengeType: String?) throws
        -> ChallengeOutcome
    {
        let flow = try flows.load(continuationToken, context: context, kinds: [.signUp])
        let types =
            try challengeType.map { try ChallengeTypes($0, capabilities: nil) }
            ?? ChallengeTypes(stored: flow.challengeTypes, capabilities: flow.capabilities)
        guard flow.step == .started || flow.step == .codeSent else {
            // Verified already: the next credential is a password.
            guard types.supportsPassword else { return .redirect(reason: "the client cannot collect a password") }
            let next: String = try flows.store.write { tx in
                var current = try flows.reload(tx, flow)
                let next = flows.advance(&current, tenant: context.tenant)
                try tx.update(current)
                return next
            }
            return .password(continuationToken: next)
        }
        guard types.supportsCode else { return .redirect(reason: "e-mail verification needs the oob challenge type") }
        return try flows.sendCode(for: flow, tenant: context.tenant, purpose: .signUp)
    }

    /// Continues a sign-up with a code (`grant_type=oob`), a password (`password`) or attributes
    /// (`attributes`). Finishes the sign-up when nothing else is needed.
    /// - Throws: ``AuthFailure/credentialRequired(continuationToken:)`` or
    ///   ``AuthFailure/attributesRequired(continuationToken:attributes:)`` when more is needed, and the
    ///   code, password and attribute failures.
    public func `continue`(
        _ context: ClientContext, continuationToken: String?, grantType: String?, code: String?, password: String?,
        attributes: [String: String?]
    ) throws -> ContinuationGrant {
        let flow = try flows.load(continuationToken, context: context, kinds: [.signUp])
        switch grantType {
        case "oob":
            guard flow.step == .codeSent else { throw AuthFailure.invalidRequest("no code was sent in this flow") }
            return try flows.withVerifiedCode(code, flow: flow, tenant: context.tenant) { tx, current in
                try finishOrAsk(tx, flow: &current, context: context)
            }.get()
        case "password":
            guard flow.step == .verified else { throw AuthFailure.invalidRequest("verify the e-mail address first") }
            guard let password, !password.isEmpty else { throw AuthFailure.invalidRequest("password is required") }
            if let violation = policy.violation(of: password, username: flow.username) {
                throw AuthFailure.passwordPolicy(violation)
            }
            let hash = try hasher.hash(password)
            return try flows.store.write { tx in
                var current = try flows.reload(tx, flow)
                current.passwordHash = hash
                return try finishOrAsk(tx, flow: &current, context: context)
            }.get()
        case "attributes":
            guard flow.step == .verified else { throw AuthFailure.invalidRequest("verify the e-mail address first") }
            let definitions = context.tenant.settings.requiredAttributes
            let added = try NativeAuthInput.attributes(attributes, definitions: definitions)
            guard !added.isEmpty else { throw AuthFailure.invalidRequest("attributes is required") }
            return try flows.store.write { tx in
                var current = try flows.reload(tx, flow)
                current.attributes.merge(added) { _, new in new }
                return try finishOrAsk(tx, flow: &current, context: context)
            }.get()
        case nil, "":
            throw AuthFailure.invalidRequest("grant_type is required")
        case let other?:
            throw AuthFailure.unsupportedGrantType(other)
        }
    }

    /// After a successful step: asks for what is still missing (a failure whose flow update still
    /// commits, hence a `Result`), or creates the account.
    private func finishOrAsk(_ tx: any StoreWriting, flow: inout Flow, context: ClientContext) throws
        -> Result<ContinuationGrant, AuthFailure>
    {
        let settings = context.tenant.settings
        let types = ChallengeTypes(stored: flow.challengeTypes, capabilities: flow.capabilities)
        flow.step = .verified
        let needsPassword = flow.passwordHash == nil && (settings.passwordRequiredOnSignUp || types.supportsPassword)
        let missing = settings.requiredAttributes.filter { $0.required && flow.attributes[$0.name] == nil }
        if needsPassword || !missing.isEmpty {
            let next = flows.advance(&flow, tenant: context.tenant)
            try tx.update(flow)
            if needsPassword { return .failure(.credentialRequired(continuationToken: next)) }
            return .failure(.attributesRequired(continuationToken: next, attributes: missing))
        }
        let now = clock.now()
        var attributes = flow.attributes
        let displayName = attributes.removeValue(forKey: "displayName")
        let user = User(
            id: UUID().uuidString.lowercased(), tenantID: context.tenant.id, email: flow.username,
            emailVerified: true, passwordHash: flow.passwordHash, displayName: displayName, attributes: attributes,
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
                detail: flow.passwordHash == nil ? "method=email_code" : "method=email_password"))
        flow.kind = .signInContinuation
        flow.step = .ready
        flow.userID = user.id
        flow.passwordHash = nil
        flow.amr = flow.amr.isEmpty ? ["otp"] : flow.amr
        let next = flows.advance(&flow, tenant: context.tenant)
        try tx.update(flow)
        return .success(ContinuationGrant(continuationToken: next, expiresIn: settings.continuationTokenLifetime))
    }
}
