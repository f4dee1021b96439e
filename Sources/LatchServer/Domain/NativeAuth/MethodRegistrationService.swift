import Foundation

/// Registration of a strong authentication method during sign-in (`register/v1.0/introspect`,
/// `challenge`, `continue`; "JIT" registration in MSAL): a user who must prove a second factor and
/// has no method yet names an e-mail address or phone number, proves it with a code (or, for the
/// already verified sign-in e-mail, with nothing more: `preverified`), and the sign-in then ends
/// with the `continuation_token` grant. The method is saved, verified, in the step that proves it.
public struct MethodRegistrationService: Sendable {
    let flows: FlowEngine
    let clock: any ServerClock

    /// What `register/v1.0/challenge` answered.
    public enum Challenge: Sendable, Equatable {
        /// A code went to `target` (the contact as registered) over `channel`.
        case oneTimeCode(continuationToken: String, target: String, channel: DeliveryChannel, codeLength: Int, interval: Int)
        /// The contact is the user's verified sign-in e-mail: continue with no code.
        case preverified(continuationToken: String)
        /// The client cannot finish natively.
        case browserRequired(BrowserReason)
    }

    /// What `register/v1.0/continue` proves.
    public enum Proof: Sendable, Equatable {
        /// The code of the last challenge (`grant_type=oob`).
        case oneTimeCode(String?)
        /// Nothing more, after `preverified` (`grant_type=continuation_token`).
        case preverified
    }

    /// `register/v1.0/introspect`: the channels the user may register, as methods to choose (the
    /// e-mail one hinting at the sign-in address).
    public func introspect(_ context: ClientContext, continuationToken: String?) throws -> MethodList {
        let flow = try flows.load(continuationToken, context: context, kinds: [.methodRegistration])
        let channels = SecondFactorMethods.channels(context.tenant.settings.mfa, deliverable: flows.deliverable)
        guard !channels.isEmpty else { throw AuthFailure.outOfOrder("this tenant offers no channel for a method") }
        let next = try flows.step(flow, tenant: context.tenant, relaxed: true) { _ in }
        let methods = channels.map { channel in
            StrongAuthMethod(id: channel.rawValue, channel: channel, target: channel == .email ? flow.username : "")
        }
        return MethodList(continuationToken: next, methods: methods)
    }

    /// `register/v1.0/challenge`: checks the contact and sends it a code, or answers `preverified`.
    /// Calling it again re-sends the code, or changes the contact.
    /// - Throws: ``AuthFailure/invalidVerificationContact`` for a contact that is not an e-mail
    ///   address or E.164 number, or a channel the tenant does not offer;
    ///   ``AuthFailure/verificationContactBlocked`` for a blocked contact;
    ///   ``AuthFailure/unsupportedChallengeType`` for a challenge type other than `oob`.
    public func challenge(
        _ context: ClientContext, continuationToken: String?, challengeType: String?, target: String?, channel: String?
    ) throws -> Challenge {
        let flow = try flows.load(continuationToken, context: context, kinds: [.methodRegistration])
        guard let challengeType, !challengeType.isEmpty else { throw AuthFailure.missingParameter(.challengeType) }
        guard challengeType.split(separator: " ").contains("oob") else {
            return .browserRequired(.oneTimeCodeUnsupported)
        }
        let settings = context.tenant.settings.mfa
        let contact = try Self.contact(
            target: target, channel: channel,
            channels: SecondFactorMethods.channels(settings, deliverable: flows.deliverable))
        guard !settings.isBlocked(contact.target) else { throw AuthFailure.verificationContactBlocked }
        let user = try flows.store.read { reader in
            try flow.userID.flatMap { try reader.user(id: $0, tenantID: flow.tenantID) }
        }
        guard let user else { throw AuthFailure.invalidContinuationToken }
        // The verified sign-in e-mail needs no new code, unless the first factor was a code to it:
        // then a second code to the same inbox would prove nothing more.
        if contact.channel == .email, contact.target == user.email, user.emailVerified, !flow.state.amr.contains("otp") {
            let next = try flows.step(flow, tenant: context.tenant) { flow in
                flow.step = .contactPreverified
                flow.state.registration = contact
                flow.state.code = nil
            }
            return .preverified(continuationToken: next)
        }
        let outcome = try flows.sendCode(for: flow, context: context, purpose: .methodRegistration, to: contact) { flow in
            flow.state.registration = contact
        }
        guard case .oneTimeCode(let next, _, _, let length, let interval) = outcome else {
            throw AuthFailure.outOfOrder("no code could be sent")
        }
        return .oneTimeCode(
            continuationToken: next, target: contact.target, channel: contact.channel, codeLength: length,
            interval: interval)
    }

    /// `register/v1.0/continue`: saves the proven method, verified, and ends the flow with a token
    /// for the `continuation_token` grant, whose sign-in then counts the second factor.
    public func `continue`(_ context: ClientContext, continuationToken: String?, proof: Proof) throws -> ContinuationGrant {
        let flow = try flows.load(continuationToken, context: context, kinds: [.methodRegistration])
        let next: String
        switch proof {
        case .preverified:
            guard flow.step == .contactPreverified, let contact = flow.state.registration else {
                throw AuthFailure.outOfOrder("the contact was not preverified in this flow")
            }
            next = try flows.store.write { tx in
                let current = try flows.reload(tx, flow)
                return try finish(tx, context: context, flow: current, contact: contact, proven: "pwd")
            }
        case .oneTimeCode(let code):
            guard flow.step == .codeSent, let contact = flow.state.registration else {
                throw AuthFailure.outOfOrder("no code was sent in this flow")
            }
            next = try flows.withVerifiedCode(code, flow: flow, tenant: context.tenant) { tx, original, _ in
                try finish(tx, context: context, flow: original, contact: contact, proven: nil)
            }
        }
        return ContinuationGrant(continuationToken: next, expiresIn: context.tenant.settings.continuationTokenLifetime)
    }

    /// Saves the method and turns the flow into a sign-in continuation with the second factor in
    /// its `amr`; returns the continuation token.
    /// - Parameter proven: for a preverified contact, the factor that stands for it (the first one
    ///   was a password, so the sign-in e-mail is a second factor); `nil` after a code.
    private func finish(
        _ tx: any StoreWriting, context: ClientContext, flow stored: Flow, contact: FlowState.PendingContact,
        proven: String?
    ) throws -> String {
        guard let userID = stored.userID else { throw AuthFailure.invalidContinuationToken }
        let now = clock.now()
        let existing = try tx.authMethods(userID: userID, tenantID: stored.tenantID)
        if !existing.contains(where: { $0.channel == contact.channel && $0.target == contact.target }) {
            try tx.insert(
                AuthMethod(
                    id: UUID().uuidString.lowercased(), tenantID: stored.tenantID, userID: userID,
                    channel: contact.channel, target: contact.target, verified: true, createdAt: now))
        }
        try tx.insert(
            AuditEvent(
                tenantID: stored.tenantID, at: now, kind: .authMethodRegistered, userID: userID,
                clientID: context.client.id, remoteAddress: context.remoteAddress,
                detail: "channel=\(contact.channel.rawValue)" + (proven == nil ? "" : " preverified")))
        var flow = stored
        flow.kind = .signInContinuation
        flow.step = .ready
        flow.state.code = nil
        flow.state.registration = nil
        flow.state.amr = SignInService.amr(stored.state.amr, proving: contact.channel)
        let next = flows.advance(&flow, tenant: context.tenant)
        try flows.save(tx, flow, replacing: stored)
        return next
    }

    /// The contact the client named, normalized: an e-mail address, or an E.164 phone number.
    static func contact(target: String?, channel: String?, channels: [DeliveryChannel]) throws -> FlowState.PendingContact {
        guard let target, !target.isEmpty else { throw AuthFailure.invalidVerificationContact }
        let channel = channel.flatMap(DeliveryChannel.init(rawValue:)) ?? (target.contains("@") ? .email : .sms)
        guard channels.contains(channel) else { throw AuthFailure.invalidVerificationContact }
        switch channel {
        case .email:
            let email = User.normalizeEmail(target)
            guard email.utf8.count <= 254, User.isPlausibleEmail(email) else { throw AuthFailure.invalidVerificationContact }
            return FlowState.PendingContact(channel: .email, target: email)
        case .sms:
            guard let number = PhoneNumber.normalize(target) else { throw AuthFailure.invalidVerificationContact }
            return FlowState.PendingContact(channel: .sms, target: number)
        }
    }
}
