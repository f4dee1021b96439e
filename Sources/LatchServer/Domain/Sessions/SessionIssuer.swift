import Foundation

/// What a proven identity gets at the end of any sign-in, on any wire.
public enum SessionOutcome: Sendable, Equatable {
    /// Signed tokens.
    case issued(IssuedTokens)
    /// A second factor must be proven first; continue with this token and one of these methods.
    case secondFactorRequired(continuationToken: String, methods: [StrongAuthMethod])
}

/// A strong authentication method a user can prove as a second factor.
public struct StrongAuthMethod: Sendable, Equatable {
    /// Stable id, sent back by the client to choose it.
    public var id: String
    /// How its code travels.
    public var channel: DeliveryChannel
    /// The contact, masked for display.
    public var maskedTarget: String
}

/// The one decision point of session issuing: inside the sign-in's transaction it answers "tokens"
/// (starting the session) or "a second factor is required, with these methods". Every wire's
/// sign-in ends here, so the tenant's MFA policy is enforced in one place.
public struct SessionIssuer: Sendable {
    let tokens: TokenService
    let clock: any ServerClock

    /// The decision, made in the sign-in's transaction.
    enum Decision {
        /// The session was added to the transaction; sign its tokens after commit.
        case tokens(TokenService.NewSession, User, ScopeSet)
    }

    /// Clears the account's failure count, starts the session and audits the sign-in, in `tx`.
    /// (MFA policy plugs in here: it may answer a second-factor decision instead.)
    func decide(
        _ tx: any StoreWriting, context: ClientContext, user: User, scopes: ScopeSet, amr: [String]
    ) throws -> Decision {
        try tx.clearSignInFailures(userID: user.id)
        let now = clock.now()
        let session = try tokens.startSession(tx, context: context, user: user, scopes: scopes, amr: amr, authTime: now)
        try tx.insert(
            AuditEvent(
                tenantID: context.tenant.id, at: now, kind: .signInSucceeded, userID: user.id,
                clientID: context.client.id, remoteAddress: context.remoteAddress,
                detail: "amr=\(amr.joined(separator: ","))"))
        return .tokens(session, user, scopes)
    }

    /// After commit: signs what the decision granted.
    func complete(_ decision: Decision, context: ClientContext) throws -> SessionOutcome {
        switch decision {
        case .tokens(let session, let user, let scopes):
            return .issued(
                try tokens.issue(
                    context: context, user: user, family: session.family, scopes: scopes,
                    refreshToken: session.refreshToken))
        }
    }
}
