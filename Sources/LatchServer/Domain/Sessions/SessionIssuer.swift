import Foundation
import LatchCrypto

/// What a proven identity gets at the end of any sign-in, on any wire.
public enum SessionOutcome: Sendable, Equatable {
    /// Signed tokens.
    case issued(IssuedTokens)
    /// A second factor must be proven first; continue with this token and one of these methods.
    case secondFactorRequired(continuationToken: String, methods: [StrongAuthMethod])
    /// A second factor is required and the user has no method yet: register one with this token.
    case methodRegistrationRequired(continuationToken: String)
    /// A second factor (or a method registration) is required and the client cannot run it
    /// natively.
    case browserRequired(BrowserReason)
    /// A hosted-page sign-in finished: the browser is signed in with this session.
    case browserSignedIn(BrowserSession)
}

/// A strong authentication method a user can prove as a second factor.
public struct StrongAuthMethod: Sendable, Equatable {
    /// Stable id, sent back by the client to choose it.
    public var id: String
    /// How its code travels.
    public var channel: DeliveryChannel
    /// The contact (never sent unmasked).
    var target: String

    /// The contact, masked for display (`login_hint`).
    public var maskedTarget: String { ContactLabel.mask(FlowState.PendingContact(channel: channel, target: target)) }
}

/// The one decision point of session issuing: inside the sign-in's transaction it answers "tokens"
/// (starting the session) or "a second factor is required, with these methods". Every wire's
/// sign-in ends here, so the tenant's MFA policy is enforced in one place.
///
/// Every sign-in that ends in tokens also gets a device token (``DeviceTrust``) unless the tenant
/// turned them off, renewed with the same device id when the sign-in came through a trusted one.
public struct SessionIssuer: Sendable {
    let tokens: TokenService
    let devices: DeviceTrust
    let flows: FlowEngine
    let clock: any ServerClock

    /// The decision, made in the sign-in's transaction.
    enum Decision {
        /// The session was added to the transaction; sign its tokens after commit, with a device
        /// token renewing `device` (or naming a new device when `nil`).
        case tokens(TokenService.NewSession, User, ScopeSet, device: DeviceToken?)
        /// A second-factor flow was added to the transaction.
        case secondFactor(continuationToken: String, methods: [StrongAuthMethod])
        /// A method-registration flow was added to the transaction.
        case methodRegistration(continuationToken: String)
        /// A second factor is required and the client cannot run it.
        case browser(BrowserReason)
        /// A browser session was added to the transaction.
        case browserSession(BrowserSession)
    }

    /// Clears the failure count the sign-in was counted on, starts the session and audits the
    /// sign-in, in `tx`. When the tenant's MFA policy requires a second factor that `amr` does not
    /// hold yet, it starts the second-factor flow instead (or, for a user without a method, the
    /// method-registration flow), or answers "browser" when the client did not declare it can run
    /// that flow (`capabilities`, Entra native auth). `secondFactorAsked` (the request's `claims`
    /// asked for the `mfa` class) requires a second factor whatever the policy.
    ///
    /// Through a trusted `device`, only that device's count is cleared: the account's count holds
    /// the failures of every other source, and clearing it whenever the real user signs in on a
    /// trusted device would hand a guesser a fresh allowance each time (OWASP "Slow Down Online
    /// Guessing Attacks with Device Cookies" keeps the untrusted sources' lockout apart). A sign-in
    /// without one clears the account's count, as it always has.
    func decide(
        _ tx: any StoreWriting, context: ClientContext, user: User, scopes: ScopeSet, amr: [String],
        device: DeviceToken? = nil, flow: FlowState? = nil, secondFactorAsked: Bool = false
    ) throws -> Decision {
        let device = device?.userID == user.id ? device : nil
        if let device {
            try tx.clearAddressAttempts(tenantID: context.tenant.id, addressKey: device.counterKey)
        } else {
            try tx.clearSignInFailures(userID: user.id)
        }
        let mfa = context.tenant.settings.mfa
        if !amr.contains("mfa"),
            secondFactorAsked || mfa.requiresSecondFactor(clientID: context.client.id, scopes: scopes.values)
        {
            return try requireSecondFactor(
                tx, context: context, user: user, scopes: scopes, amr: amr, flow: flow, device: device)
        }
        let now = clock.now()
        if let cookie = context.browserCookie {
            let session = BrowserSession(
                id: SecureIdentifier.make(), tenantID: context.tenant.id, browserHash: Digest.sha256Hex(cookie),
                userID: user.id, amr: amr, authTime: now, createdAt: now,
                expiresAt: now.addingTimeInterval(TimeInterval(max(60, context.tenant.settings.browserSessionLifetime))))
            // One session per account per browser: a new sign-in (a second factor, a fresh
            // `max_age`) replaces the account's earlier one.
            try tx.deleteBrowserSessions(browserHash: session.browserHash, tenantID: session.tenantID, userID: user.id)
            try tx.insert(session)
            try tx.insert(
                AuditEvent(
                    tenantID: context.tenant.id, at: now, kind: .signInSucceeded, userID: user.id,
                    clientID: context.client.id, remoteAddress: context.remoteAddress,
                    detail: "amr=\(amr.joined(separator: ",")) browser"))
            return .browserSession(session)
        }
        let session = try tokens.startSession(tx, context: context, user: user, scopes: scopes, amr: amr, authTime: now)
        try tx.insert(
            AuditEvent(
                tenantID: context.tenant.id, at: now, kind: .signInSucceeded, userID: user.id,
                clientID: context.client.id, remoteAddress: context.remoteAddress,
                detail: "amr=\(amr.joined(separator: ","))" + (device == nil ? "" : " device=trusted")))
        return .tokens(session, user, scopes, device: device)
    }

    /// The second-factor (or method-registration) flow of a sign-in whose first factor passed.
    private func requireSecondFactor(
        _ tx: any StoreWriting, context: ClientContext, user: User, scopes: ScopeSet, amr: [String], flow: FlowState?,
        device: DeviceToken?
    ) throws -> Decision {
        let capabilities = flow?.capabilities ?? []
        let methods = try SecondFactorMethods.methods(
            of: user, settings: context.tenant.settings.mfa, deliverable: flows.deliverable, in: tx)
        var state = FlowState(
            support: flow?.support ?? [.password, .oneTimeCode, .browser], capabilities: capabilities, amr: amr)
        state.scopes = scopes.values
        state.trustedDevice = device != nil
        state.trustedDevicePayload = device?.payload
        let audit = AuditEvent(
            tenantID: context.tenant.id, at: clock.now(), kind: .secondFactorRequired, userID: user.id,
            clientID: context.client.id, remoteAddress: context.remoteAddress,
            detail: methods.isEmpty ? "registration" : "methods=\(methods.count)")
        if methods.isEmpty {
            let channels = SecondFactorMethods.channels(context.tenant.settings.mfa, deliverable: flows.deliverable)
            guard capabilities.contains(.registration), !channels.isEmpty else {
                return .browser(.methodRegistrationUnsupported)
            }
            try tx.insert(audit)
            let token = try flows.insertFlow(
                tx, context: context, kind: .methodRegistration, username: user.email, userID: user.id, state: state)
            return .methodRegistration(continuationToken: token)
        }
        guard capabilities.contains(.mfa) else { return .browser(.secondFactorUnsupported) }
        try tx.insert(audit)
        let token = try flows.insertFlow(
            tx, context: context, kind: .secondFactor, username: user.email, userID: user.id, state: state)
        return .secondFactor(continuationToken: token, methods: methods)
    }

    /// After commit: signs what the decision granted, and the device token.
    func complete(_ decision: Decision, context: ClientContext) throws -> SessionOutcome {
        switch decision {
        case .tokens(let session, let user, let scopes, let device):
            var issued = try tokens.issue(
                context: context, user: user, family: session.family, scopes: scopes, refreshToken: session.refreshToken)
            issued.deviceToken = devices.issue(for: user.id, tenant: context.tenant, renewing: device, at: clock.now())
            return .issued(issued)
        case .secondFactor(let token, let methods):
            return .secondFactorRequired(continuationToken: token, methods: methods)
        case .methodRegistration(let token):
            return .methodRegistrationRequired(continuationToken: token)
        case .browser(let reason):
            return .browserRequired(reason)
        case .browserSession(let session):
            return .browserSignedIn(session)
        }
    }
}
