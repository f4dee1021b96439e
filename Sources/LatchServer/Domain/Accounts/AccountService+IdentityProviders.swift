import Foundation

extension AccountService {
    /// Signs in with a tenant's OIDC identity provider (`signInWithIdp` / `verifyAssertion`,
    /// `reference/firebase-auth-protocol.md` § 4): the ID token is verified
    /// (``ProviderTokenVerifier``); a known identity signs its account in; a new one makes an
    /// account with the token's e-mail (no password) unless another account has that address
    /// (``ProviderSignInOutcome/needsConfirmation(_:)``) or `autoCreate` is off. With
    /// ``ProviderSignIn/accountIDToken`` the identity is linked to that account instead (no recent
    /// sign-in needed, as Firebase). The ID token's `firebase.sign_in_provider` is the provider id.
    /// - Throws: ``AuthFailure/missingParameter(_:)`` (`.requestURI`),
    ///   ``AuthFailure/invalidIdPResponse`` (no provider id, or a bad token),
    ///   ``AuthFailure/invalidNonce``, ``AuthFailure/operationNotAllowed`` (unknown or disabled
    ///   provider), ``AuthFailure/userNotFound`` (`autoCreate` off), ``AuthFailure/userDisabled``,
    ///   ``AuthFailure/federatedIdentityInUse``, ``AuthFailure/providerAlreadyLinked``, what
    ///   ``authenticate(_:idToken:)`` throws for the account's token, and
    ///   ``AuthFailure/tooManyAttempts(retryAfter:)``.
    public func signIn(_ context: ClientContext, with request: ProviderSignIn) throws -> ProviderSignInOutcome {
        guard let uri = request.requestURI, !uri.isEmpty else { throw AuthFailure.missingParameter(.requestURI) }
        try Self.refuseSecondFactor(context)
        try limiter.admit(.flowStarts, context)
        let tenant = context.tenant
        let account = try request.accountIDToken.map { try authenticate(context, idToken: $0).user }
        guard let providerID = request.providerID, !providerID.isEmpty else { throw AuthFailure.invalidIdPResponse }
        guard providerID.hasPrefix(IdentityProvider.prefix),
            let provider = try store.read({ try $0.identityProvider(tenantID: tenant.id, providerID: providerID) }),
            provider.enabled
        else { throw AuthFailure.operationNotAllowed }
        let assertion = try providerTokens.verify(request.idToken, provider: provider, nonce: request.nonce)
        if let account { return try link(context, account: account, assertion: assertion) }
        // A concurrent first sign-in of the same identity conflicts on its unique key; run again,
        // and the retry finds the identity the other request linked.
        for attempt in 1...2 {
            do {
                return try signIn(context, assertion: assertion, autoCreate: request.autoCreate)
            } catch StoreError.conflict where attempt == 1 {
                continue
            }
        }
        throw AuthFailure.federatedIdentityInUse
    }

    /// Signs the identity's account in, or makes one.
    private func signIn(_ context: ClientContext, assertion: ProviderAssertion, autoCreate: Bool) throws
        -> ProviderSignInOutcome
    {
        let tenant = context.tenant
        let now = clock.now()
        let providerID = assertion.providerID
        let result = try store.write { tx -> (User, Bool, TokenService.NewSession)? in
            if let identity = try tx.federatedIdentity(tenantID: tenant.id, providerID: providerID, rawID: assertion.subject) {
                guard let user = try tx.user(id: identity.userID, tenantID: tenant.id) else { throw AuthFailure.userNotFound }
                guard !user.disabled else { throw AuthFailure.userDisabled }
                let session = try startSession(tx, context, user, .signInSucceeded, "amr=\(providerID)", at: now)
                return (user, false, session)
            }
            // An address another account holds asks for confirmation whether or not the call may
            // create accounts, so a reauthentication learns why as a sign-in does.
            if let email = assertion.email, try tx.user(email: email, tenantID: tenant.id) != nil { return nil }
            guard autoCreate else { throw AuthFailure.userNotFound }
            let id = UUID().uuidString.lowercased()
            var attributes = [AccountProfile.providerAttribute: providerID]
            attributes[AccountProfile.photoURLAttribute] = assertion.photoURL
            let user = User(
                id: id, tenantID: tenant.id, email: assertion.email ?? AccountProfile.federatedAddress(id: id),
                emailVerified: assertion.emailVerified, passwordHash: nil, displayName: assertion.displayName,
                attributes: attributes, createdAt: now, validSince: now)
            try tx.insert(user)
            try tx.insert(identity(assertion, tenant: tenant, userID: id, at: now))
            return (user, true, try startSession(tx, context, user, .signUp, "method=\(providerID)", at: now))
        }
        guard let (user, isNew, session) = result else { return .needsConfirmation(assertion) }
        let issued = try issue(context, user: user, authTime: now, refreshToken: session.refreshToken, provider: providerID)
        return .signedIn(issued, assertion, isNewUser: isNew)
    }

    /// Links the identity to `account`. An anonymous account becomes one of the provider, with the
    /// token's e-mail address when no other account has it.
    private func link(_ context: ClientContext, account: User, assertion: ProviderAssertion) throws
        -> ProviderSignInOutcome
    {
        let tenant = context.tenant
        let now = clock.now()
        let providerID = assertion.providerID
        let (user, session) = try store.write { tx -> (User, TokenService.NewSession) in
            if let existing = try tx.federatedIdentity(tenantID: tenant.id, providerID: providerID, rawID: assertion.subject) {
                guard existing.userID == account.id else { throw AuthFailure.federatedIdentityInUse }
            } else {
                let linked = try tx.federatedIdentities(userID: account.id, tenantID: tenant.id)
                guard !linked.contains(where: { $0.providerID == providerID }) else {
                    throw AuthFailure.providerAlreadyLinked
                }
                do {
                    try tx.insert(identity(assertion, tenant: tenant, userID: account.id, at: now))
                } catch StoreError.conflict {
                    throw AuthFailure.federatedIdentityInUse
                }
            }
            var user = account
            if AccountProfile.isAnonymous(account) {
                user.attributes[AccountProfile.providerAttribute] = providerID
                if let email = assertion.email, try tx.user(email: email, tenantID: tenant.id) == nil {
                    user.email = email
                    user.emailVerified = assertion.emailVerified
                } else {
                    user.email = AccountProfile.federatedAddress(id: account.id)
                }
                user.displayName = user.displayName ?? assertion.displayName
                if user.attributes[AccountProfile.photoURLAttribute] == nil {
                    user.attributes[AccountProfile.photoURLAttribute] = assertion.photoURL
                }
                try tx.update(user)
            }
            return (user, try startSession(tx, context, user, .signInSucceeded, "linked=\(providerID)", at: now))
        }
        let issued = try issue(context, user: user, authTime: now, refreshToken: session.refreshToken, provider: providerID)
        return .signedIn(issued, assertion, isNewUser: false)
    }

    /// Records the audit event and starts the session of an identity-provider sign-in (no `amr`:
    /// RFC 8176 has no value for a federated sign-in).
    private func startSession(
        _ tx: any StoreWriting, _ context: ClientContext, _ user: User, _ kind: AuditEvent.Kind, _ detail: String,
        at now: Date
    ) throws -> TokenService.NewSession {
        try tx.insert(
            AuditEvent(
                tenantID: context.tenant.id, at: now, kind: kind, userID: user.id, clientID: context.client.id,
                remoteAddress: context.remoteAddress, detail: detail))
        return try tokens.startSession(tx, context: context, user: user, scopes: Self.sessionScopes, amr: [], authTime: now)
    }

    private func identity(_ assertion: ProviderAssertion, tenant: Tenant, userID: String, at now: Date) -> FederatedIdentity {
        FederatedIdentity(
            tenantID: tenant.id, providerID: assertion.providerID, rawID: assertion.subject, userID: userID,
            email: assertion.email, displayName: assertion.displayName, photoURL: assertion.photoURL, createdAt: now)
    }
}
