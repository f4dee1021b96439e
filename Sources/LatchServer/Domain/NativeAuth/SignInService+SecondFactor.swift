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

    /// The `mfa_oob` grant: the code of the last second-factor challenge. A wrong code counts
    /// against the account as a wrong sign-in code does; the code itself is limited per code and
    /// per send.
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
        let device = trustedDevice(presented, flow: flow, context: context)
        let amr = Self.amr(flow.state.amr, proving: channel)
        let granted = scopes.adding(flow.state.scopes)
        let decision: SessionIssuer.Decision
        do {
            decision = try flows.withVerifiedCode(
                code, flow: flow, tenant: context.tenant,
                onWrongCode: { tx in
                    if let userID = flow.userID { try passwords.countFailure(tx, context: context, userID: userID) }
                }
            ) { tx, original, _ in
                try commitSignIn(tx, context: context, flow: original, scopes: granted, amr: amr, device: device)
            }
        } catch let failure as AuthFailure where [.invalidCode, .codeExpired, .codeAttemptsExceeded].contains(failure) {
            try passwords.record(failure, context: context, userID: flow.userID)
            throw failure
        }
        passwords.observe(.success)
        return try sessions.complete(decision, context: context)
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
