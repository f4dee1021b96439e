import Foundation
import LatchCrypto

extension AuthorizationService {
    /// What happens next with `request`, given the browser's live sessions.
    /// - Parameters:
    ///   - accounts: the browser's unexpired sessions with their accounts, newest first.
    ///   - selected: the session the user picked in the account chooser, if any.
    ///   - signedInNow: the session a sign-in during this request started, if any: it satisfies
    ///     `prompt=login` and `select_account`.
    ///   - consented: the user allowed the client's scopes on the consent page during this request.
    public func next(
        for request: AuthorizationRequest, tenant: Tenant, client: Client, accounts: [SignedInAccount],
        selected: String? = nil, signedInNow: String? = nil, consented: Bool = false
    ) throws -> AuthorizationStep {
        let now = clock.now()
        let silent = request.prompt.contains(.none)
        let chosen: SignedInAccount
        if let id = signedInNow ?? selected, let account = accounts.first(where: { $0.session.id == id }) {
            guard signedInNow != nil || isUsable(account, request: request, tenant: tenant, now: now) else {
                return .signIn(hint: account.user.email)
            }
            chosen = account
        } else {
            if request.prompt.contains(.login) { return .signIn(hint: request.loginHint) }
            if request.prompt.contains(.selectAccount) {
                return accounts.isEmpty ? .signIn(hint: request.loginHint) : .chooseAccount(accounts)
            }
            var candidates = accounts.filter { !$0.user.disabled }
            if let hint = request.loginHint?.lowercased(), !hint.isEmpty {
                candidates = candidates.filter { $0.user.email.lowercased() == hint }
            }
            let usable = candidates.filter { isUsable($0, request: request, tenant: tenant, now: now) }
            guard let first = usable.first else {
                guard !silent else {
                    let needsFactor = candidates.contains { needsSecondFactor($0.session, request: request, tenant: tenant) }
                    return needsFactor
                        ? .refuse(.interactionRequired, "A second factor is required; sign in interactively.")
                        : .refuse(.loginRequired, "The user is not signed in.")
                }
                return .signIn(hint: request.loginHint ?? candidates.first?.user.email)
            }
            if usable.count > 1 {
                guard !silent else {
                    return .refuse(.accountSelectionRequired, "More than one account is signed in; choose one.")
                }
                return .chooseAccount(usable)
            }
            chosen = first
        }
        if client.thirdParty, !consented {
            let granted = try store.read {
                try $0.consentedScopes(userID: chosen.user.id, clientID: client.id, tenantID: tenant.id)
            }
            let covered = granted.map { Set($0).isSuperset(of: request.scopes) } ?? false
            if !covered || request.prompt.contains(.consent) {
                guard !silent else { return .refuse(.consentRequired, "The user has not consented to this client.") }
                return .consent(chosen.session, scopes: request.scopes)
            }
        }
        return .issue(chosen.session)
    }

    /// Whether `account` answers `request` without a page: enabled, signed in recently enough for
    /// `max_age` (OpenID Connect Core § 3.1.2.1), and with a second factor when one is needed.
    func isUsable(_ account: SignedInAccount, request: AuthorizationRequest, tenant: Tenant, now: Date) -> Bool {
        guard !account.user.disabled else { return false }
        if let maxAge = request.maxAge, now.timeIntervalSince(account.session.authTime) > TimeInterval(maxAge) {
            return false
        }
        return !needsSecondFactor(account.session, request: request, tenant: tenant)
    }

    /// Whether `session` lacks a second factor that `request` (its `claims` or `acr_values`) or
    /// the tenant's MFA policy requires.
    func needsSecondFactor(_ session: BrowserSession, request: AuthorizationRequest, tenant: Tenant) -> Bool {
        guard !session.amr.contains("mfa") else { return false }
        return request.secondFactorAsked
            || tenant.settings.mfa.requiresSecondFactor(clientID: request.clientID, scopes: request.scopes)
    }

    /// Records that the user of `session` consents to `scopes` for `client` (the consent page's
    /// "allow").
    public func recordConsent(session: BrowserSession, client: Client, scopes: [String]) throws {
        try store.write { tx in
            try tx.recordConsent(
                userID: session.userID, clientID: client.id, tenantID: session.tenantID, scopes: scopes, at: clock.now())
        }
    }

    /// Issues a code for `request` and `session` (RFC 6749 § 4.1.2): 256 random bits, stored as
    /// SHA-256, valid 60 seconds.
    public func issueCode(for request: AuthorizationRequest, session: BrowserSession) throws -> String {
        let code = SecureRandom.token(byteCount: 32)
        let now = clock.now()
        let record = AuthorizationCode(
            hash: Digest.sha256Hex(code), tenantID: request.tenantID, clientID: request.clientID,
            redirectURI: request.redirectURI, codeChallenge: request.codeChallenge, nonce: request.nonce,
            scopes: request.scopes, userID: session.userID, sessionID: session.id, amr: session.amr,
            authTime: session.authTime, createdAt: now, expiresAt: now.addingTimeInterval(Self.codeLifetime))
        try store.write { tx in
            try tx.insert(record)
            try tx.insert(
                AuditEvent(
                    tenantID: request.tenantID, at: now, kind: .authorizationCodeIssued, userID: session.userID,
                    clientID: request.clientID, remoteAddress: nil, detail: "session=\(session.id)"))
        }
        return code
    }
}
