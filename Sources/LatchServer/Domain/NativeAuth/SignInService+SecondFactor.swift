import Foundation

/// The second factor of a sign-in (Entra native-auth MFA): `oauth2/v2.0/introspect` lists the
/// user's methods, `oauth2/v2.0/challenge` with `id` sends a code to one, and the `mfa_oob` grant
/// proves it. The flow starts where ``SessionIssuer`` decided a second factor is needed.
extension SignInService {
    /// `oauth2/v2.0/introspect`: the user's methods, each with its masked contact, and the next
    /// continuation token.
    public func introspect(_ context: ClientContext, continuationToken: String?) throws -> MethodList {
        let flow = try flows.load(continuationToken, context: context, kinds: [.secondFactor])
        let methods = try currentMethods(of: flow, context: context)
        guard !methods.isEmpty else { throw AuthFailure.invalidContinuationToken }
        let next = try flows.step(flow, tenant: context.tenant, relaxed: true) { _ in }
        return MethodList(continuationToken: next, methods: methods)
    }

    /// Sends a second-factor code to the method `methodID` (the first when `nil`).
    func secondFactorChallenge(_ context: ClientContext, flow: Flow, methodID: String?, support: ChallengeSupport?)
        throws -> ChallengeOutcome
    {
        let support = support ?? flow.state.support
        guard support.contains(.oneTimeCode) else { return .browserRequired(.oneTimeCodeUnsupported) }
        let methods = try currentMethods(of: flow, context: context)
        let chosen: StrongAuthMethod
        if let methodID, !methodID.isEmpty {
            guard let method = methods.first(where: { $0.id == methodID }) else {
                // A method of the user that the tenant now blocks answers as blocked; any other id is unknown.
                let known = try flows.store.read { reader in
                    try flow.userID.map { try reader.authMethods(userID: $0, tenantID: flow.tenantID) } ?? []
                }
                throw known.contains { $0.id == methodID }
                    ? AuthFailure.verificationContactBlocked : AuthFailure.invalidParameter(.authMethodID)
            }
            chosen = method
        } else {
            guard let first = methods.first else { throw AuthFailure.invalidContinuationToken }
            chosen = first
        }
        let contact = FlowState.PendingContact(channel: chosen.channel, target: chosen.target)
        return try flows.sendCode(for: flow, context: context, purpose: .secondFactor, to: contact) { flow in
            flow.state.methodID = chosen.id
        }
    }

    /// The `mfa_oob` grant: the code of the last second-factor challenge, checked as a sign-in code
    /// is (``withSignInCode(_:flow:context:_:)``).
    func signInWithSecondFactor(
        _ context: ClientContext, continuationToken: String?, code: String?, scopes: ScopeSet,
        device presented: PresentedDeviceToken?
    ) throws -> SessionOutcome {
        let flow = try flows.load(continuationToken, context: context, kinds: [.secondFactor])
        guard flow.step == .codeSent, let methodID = flow.state.methodID else {
            throw AuthFailure.outOfOrder("no second-factor code was sent in this flow")
        }
        let channel = try currentMethods(of: flow, context: context).first { $0.id == methodID }?.channel
        guard let channel else { throw AuthFailure.verificationContactBlocked }
        let device = trustedDevice(presented, flow: flow, context: context) ?? carriedDevice(of: flow, context: context)
        let amr = Self.amr(flow.state.amr, proving: channel)
        // A step-up keeps the scopes of the refresh it raises.
        let granted = flow.state.stepUp == nil ? scopes.adding(flow.state.scopes) : ScopeSet(stored: flow.state.scopes)
        enum Finished {
            case signIn(SessionIssuer.Decision)
            case stepUp(TokenFamily, User, refreshToken: String)
        }
        let finished: Finished = try withSignInCode(code, flow: flow, context: context) { tx, original in
            guard let stepUp = original.state.stepUp else {
                return .signIn(try commitSignIn(tx, context: context, flow: original, scopes: granted, amr: amr, device: device))
            }
            guard let userID = original.userID, let user = try tx.user(id: userID, tenantID: context.tenant.id),
                !user.disabled
            else { throw AuthFailure.refreshTokenRevoked }
            try flows.consume(tx, original)
            let raised = try tokens.completeStepUp(
                tx, context: context, familyID: stepUp.familyID, presentedHash: stepUp.refreshTokenHash, amr: amr)
            try tx.insert(
                AuditEvent(
                    tenantID: context.tenant.id, at: clock.now(), kind: .signInSucceeded, userID: user.id,
                    clientID: context.client.id, remoteAddress: context.remoteAddress,
                    detail: "step-up amr=\(amr.joined(separator: ",")) session=\(stepUp.familyID)"))
            return .stepUp(raised.family, user, refreshToken: raised.refreshToken)
        }
        passwords.observe(.success)
        switch finished {
        case .signIn(let decision):
            return try sessions.complete(decision, context: context)
        case .stepUp(let family, let user, let refreshToken):
            return .issued(
                try tokens.issue(context: context, user: user, family: family, scopes: granted, refreshToken: refreshToken))
        }
    }

    /// A refresh that needs a second factor, from a client that can run it (`mfa_required`): a
    /// second-factor flow for the session's user, which raises that same session when it finishes
    /// (a native step-up: no password again). A user without a method gets the claims challenge,
    /// for a browser.
    func startStepUp(
        _ context: ClientContext, family: TokenFamily, user: User, presentedHash: String, scopes: ScopeSet
    ) throws -> SessionOutcome {
        let methods = try flows.store.read { reader in
            try SecondFactorMethods.methods(
                of: user, settings: context.tenant.settings.mfa, deliverable: flows.deliverable, in: reader)
        }
        guard !methods.isEmpty else { throw AuthFailure.claimsChallenge(TokenService.secondFactorClaims) }
        var state = FlowState(support: [.oneTimeCode, .browser], capabilities: [.mfa], amr: family.amr)
        state.scopes = scopes.values
        state.stepUp = FlowState.StepUp(familyID: family.id, refreshTokenHash: presentedHash)
        let token = try flows.start(context, kind: .secondFactor, username: user.email, userID: user.id, state: state)
        return .secondFactorRequired(continuationToken: token, methods: methods)
    }

    /// The trusted device the flow's first factor came through, as the flow keeps it: still of the
    /// flow's user and tenant, and not expired.
    private func carriedDevice(of flow: Flow, context: ClientContext) -> DeviceToken? {
        guard let payload = flow.state.trustedDevicePayload, let device = DeviceToken(payload: payload),
            device.userID == flow.userID, device.tenantID == context.tenant.id, device.expiresAt > clock.now()
        else { return nil }
        return device
    }

    /// The methods the flow's user can prove now.
    private func currentMethods(of flow: Flow, context: ClientContext) throws -> [StrongAuthMethod] {
        try flows.store.read { reader in
            guard let userID = flow.userID, let user = try reader.user(id: userID, tenantID: flow.tenantID) else {
                throw AuthFailure.invalidContinuationToken
            }
            return try SecondFactorMethods.methods(
                of: user, settings: context.tenant.settings.mfa, deliverable: flows.deliverable, in: reader)
        }
    }

    /// `first` with the second factor proven over `channel` (RFC 8176: `otp` for an e-mail code,
    /// `sms` for a text message, and `mfa`).
    static func amr(_ first: [String], proving channel: DeliveryChannel) -> [String] {
        var amr = first
        for value in [channel == .sms ? "sms" : "otp", "mfa"] where !amr.contains(value) { amr.append(value) }
        return amr
    }
}

/// The answer of an introspect step: the next token and the methods to choose from.
public struct MethodList: Sendable, Equatable {
    /// The next continuation token.
    public var continuationToken: String
    /// The methods.
    public var methods: [StrongAuthMethod]
}
