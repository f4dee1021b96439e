import Foundation
import LatchCrypto

/// A signed-in account on the account API: the user, its Firebase-shaped ID token and the
/// refresh token of its session.
public struct AccountSession: Sendable {
    /// The account.
    public var user: User
    /// The signed ID token (``FirebaseTokenProfile``).
    public var idToken: String
    /// The opaque refresh token of the session.
    public var refreshToken: String
    /// The ID token's lifetime in seconds.
    public var expiresIn: Int
}

/// The account API's rules (Firebase Identity Toolkit semantics, no wire strings): e-mail and
/// anonymous sign-up, password sign-in through ``PasswordVerifier`` (its delays, decoys and
/// audit), profile changes that need a recent sign-in, and sessions in the shared token families,
/// so one account is the same on every wire.
public struct AccountService: Sendable {
    let store: any Store
    let clock: any ServerClock
    let passwords: PasswordVerifier
    let hasher: any PasswordHasher
    let policy: PasswordPolicy
    let tokens: TokenService
    let signer: any TokenSigner
    let limiter: RateLimiter
    let customTokens: CustomTokenService
    let providerTokens: ProviderTokenVerifier
    let profile = FirebaseTokenProfile()

    /// The scopes of an account-API session: an ID token and a refresh token.
    static let sessionScopes = ScopeSet(stored: ["openid", "offline_access"])

    /// Creates an account and signs it in: with `email` and `password`, or anonymous without an
    /// e-mail when the tenant allows it.
    /// - Throws: ``AuthFailure/operationNotAllowed`` (anonymous sign-in off),
    ///   ``AuthFailure/invalidParameter(_:)`` (`.email`), ``AuthFailure/missingParameter(_:)``
    ///   (`.password`), ``AuthFailure/passwordPolicy(_:)``, ``AuthFailure/userAlreadyExists``,
    ///   ``AuthFailure/tooManyAttempts(retryAfter:)``.
    public func signUp(_ context: ClientContext, email: String?, password: String?, displayName: String?) throws
        -> AccountSession
    {
        try Self.refuseSecondFactor(context)
        try limiter.admit(.flowStarts, context)
        let now = clock.now()
        let id = UUID().uuidString.lowercased()
        let tenant = context.tenant
        let user: User
        if let email, !email.isEmpty {
            let normalized = User.normalizeEmail(email)
            guard User.isPlausibleEmail(normalized) else { throw AuthFailure.invalidParameter(.email) }
            guard let password, !password.isEmpty else { throw AuthFailure.missingParameter(.password) }
            if let violation = policy.violation(of: password, username: normalized) {
                throw AuthFailure.passwordPolicy(violation)
            }
            let hash = try hasher.hash(password, for: context.hashingSource)
            user = User(
                id: id, tenantID: tenant.id, email: normalized, emailVerified: false, passwordHash: hash,
                displayName: displayName, attributes: [:], createdAt: now, validSince: now)
        } else {
            guard tenant.settings.anonymousSignIn else { throw AuthFailure.operationNotAllowed }
            user = User(
                id: id, tenantID: tenant.id, email: AccountProfile.anonymousAddress(id: id), emailVerified: false,
                passwordHash: nil, displayName: displayName,
                attributes: [AccountProfile.providerAttribute: AccountProfile.anonymousProvider], createdAt: now,
                validSince: now)
        }
        let session = try store.write { tx in
            do {
                try tx.insert(user)
            } catch StoreError.conflict {
                throw AuthFailure.userAlreadyExists
            }
            try tx.insert(
                AuditEvent(
                    tenantID: tenant.id, at: now, kind: .signUp, userID: user.id, clientID: context.client.id,
                    remoteAddress: context.remoteAddress, detail: "method=\(AccountProfile.signInProvider(of: user))"))
            try tx.recordTokenIssue(userID: user.id, at: now, signIn: true)
            return try tokens.startSession(
                tx, context: context, user: user, scopes: Self.sessionScopes, amr: Self.amr(of: user), authTime: now)
        }
        return try issue(context, user: user, authTime: now, refreshToken: session.refreshToken)
    }

    /// Signs in with an e-mail and password, under the same verification, delays and audit as
    /// native auth.
    /// - Throws: ``AuthFailure/userNotFound`` (only without enumeration protection),
    ///   ``AuthFailure/invalidCredentials``, ``AuthFailure/userDisabled``,
    ///   ``AuthFailure/tooManyAttempts(retryAfter:)``, and missing or invalid `.email` / `.password`.
    public func signIn(_ context: ClientContext, email: String?, password: String?) throws -> AccountSession {
        guard let email, !email.isEmpty else { throw AuthFailure.missingParameter(.email) }
        let normalized = User.normalizeEmail(email)
        guard User.isPlausibleEmail(normalized) else { throw AuthFailure.invalidParameter(.email) }
        guard let password, !password.isEmpty else { throw AuthFailure.missingParameter(.password) }
        try Self.refuseSecondFactor(context)
        let tenant = context.tenant
        let user = try passwords.signInAccount(email: normalized, context: context)
        let verified = try passwords.verify(password, for: user, address: normalized, context: context)
        guard var user else { throw AuthFailure.invalidCredentials }
        let now = clock.now()
        if let rehashed = verified.rehashed { user.passwordHash = rehashed }
        let signedIn = user
        let session = try store.write { tx in
            try tx.clearSignInFailures(userID: signedIn.id)
            if verified.rehashed != nil { try tx.update(signedIn) }
            try tx.insert(
                AuditEvent(
                    tenantID: tenant.id, at: now, kind: .signInSucceeded, userID: signedIn.id,
                    clientID: context.client.id, remoteAddress: context.remoteAddress, detail: "amr=pwd"))
            try tx.recordTokenIssue(userID: signedIn.id, at: now, signIn: true)
            return try tokens.startSession(
                tx, context: context, user: signedIn, scopes: Self.sessionScopes, amr: ["pwd"], authTime: now)
        }
        passwords.observe(.success)
        return try issue(context, user: signedIn, authTime: now, refreshToken: session.refreshToken)
    }

    /// Signs in with a custom token (``CustomTokenService/verify(_:tenant:)``): the account with the
    /// token's `uid`, created without an e-mail address when new. The ID token's
    /// `firebase.sign_in_provider` is `custom` and the token's developer claims sit at its top level.
    /// - Returns: the session, and whether the account is new.
    /// - Throws: ``AuthFailure/invalidCustomToken``, ``AuthFailure/customTokenMismatch``,
    ///   ``AuthFailure/userDisabled``, ``AuthFailure/operationNotAllowed`` (the uid is taken by an
    ///   account of another tenant, or the tenant asks for a second factor),
    ///   ``AuthFailure/tooManyAttempts(retryAfter:)``.
    public func signIn(_ context: ClientContext, customToken: String?) throws -> (session: AccountSession, isNew: Bool) {
        try Self.refuseSecondFactor(context)
        try limiter.admit(.flowStarts, context)
        let tenant = context.tenant
        let verified = try customTokens.verify(customToken, tenant: tenant)
        let now = clock.now()
        let (user, isNew, session) = try store.write { tx -> (User, Bool, TokenService.NewSession) in
            var isNew = false
            let user: User
            if let existing = try tx.user(id: verified.uid, tenantID: tenant.id) {
                guard !existing.disabled else { throw AuthFailure.userDisabled }
                user = existing
            } else {
                user = User(
                    id: verified.uid, tenantID: tenant.id, email: AccountProfile.customAddress(id: verified.uid),
                    emailVerified: false, passwordHash: nil, displayName: nil,
                    attributes: [AccountProfile.providerAttribute: AccountProfile.customProvider], createdAt: now,
                    validSince: now)
                do {
                    try tx.insert(user)
                } catch StoreError.conflict {
                    // Account ids are unique across tenants: another tenant has this uid.
                    throw AuthFailure.operationNotAllowed
                }
                isNew = true
            }
            try tx.insert(
                AuditEvent(
                    tenantID: tenant.id, at: now, kind: isNew ? .signUp : .signInSucceeded, userID: user.id,
                    clientID: context.client.id, remoteAddress: context.remoteAddress,
                    detail: isNew ? "method=custom" : "amr=custom"))
            try tx.recordTokenIssue(userID: user.id, at: now, signIn: true)
            let session = try tokens.startSession(
                tx, context: context, user: user, scopes: Self.sessionScopes, amr: [], authTime: now)
            return (user, isNew, session)
        }
        let issued = try issue(
            context, user: user, authTime: now, refreshToken: session.refreshToken,
            provider: AccountProfile.customProvider, developerClaims: verified.claims)
        return (issued, isNew)
    }

    /// The account an ID token of this tenant names, and the token's `auth_time`: an account-API
    /// token (``FirebaseTokenProfile``) or a native-auth ID token issued to the calling client.
    /// - Throws: ``AuthFailure/invalidAccessToken`` (missing, malformed, wrong signature, issuer or
    ///   audience), ``AuthFailure/sessionExpired`` (expired, or issued before the account's
    ///   `validSince`), ``AuthFailure/userNotFound``, ``AuthFailure/userDisabled``.
    public func authenticate(_ context: ClientContext, idToken: String?) throws -> (user: User, authTime: Int) {
        let verified = try verify(idToken: idToken, tenant: context.tenant, clientID: context.client.id)
        return (verified.user, verified.authTime)
    }

    /// ``authenticate(_:idToken:)`` for `tenant` alone, also answering the token's verified claims.
    func verify(idToken: String?, tenant: Tenant, clientID: String? = nil) throws
        -> (user: User, authTime: Int, claims: [String: Any])
    {
        guard let idToken, !idToken.isEmpty, idToken.utf8.count <= 8192 else { throw AuthFailure.invalidAccessToken }
        let payload: [UInt8]
        do {
            payload = try signer.verify(idToken, type: "JWT", tenant: tenant)
        } catch {
            throw AuthFailure.invalidAccessToken
        }
        // The Firebase profile's token (audience: the project), or a native-auth ID token of the
        // calling client (audience: its client id, when there is a calling client), so one account
        // is the same on every wire.
        guard let claims = (try? JSONSerialization.jsonObject(with: Data(payload))) as? [String: Any],
            let issuer = claims["iss"] as? String, let audience = claims["aud"] as? String,
            (issuer == FirebaseTokenProfile.issuer(project: tenant.name) && audience == tenant.name)
                || (clientID != nil && issuer == tokens.issuer(for: tenant) && audience == clientID),
            let subject = claims["sub"] as? String, !subject.isEmpty,
            let expiry = (claims["exp"] as? NSNumber)?.intValue, let issuedAt = (claims["iat"] as? NSNumber)?.intValue,
            let authTime = (claims["auth_time"] as? NSNumber)?.intValue
        else { throw AuthFailure.invalidAccessToken }
        guard expiry > Int(clock.now().timeIntervalSince1970) else { throw AuthFailure.sessionExpired }
        guard let user = try store.read({ try $0.user(id: subject, tenantID: tenant.id) }) else {
            throw AuthFailure.userNotFound
        }
        guard !user.disabled else { throw AuthFailure.userDisabled }
        guard issuedAt >= Int(user.validSince.timeIntervalSince1970) else { throw AuthFailure.sessionExpired }
        return (user, authTime, claims)
    }

    /// Changes the profile of the account `idToken` names. An e-mail or password change, or
    /// unlinking a provider, needs a sign-in within the tenant's
    /// ``TenantSettings/recentSignInSeconds``; a password change moves `validSince` to now and ends
    /// the account's other sessions. An anonymous account given an e-mail and a password becomes an
    /// e-mail and password account.
    /// - Returns: the account as changed, and a new session when asked for or after a password change.
    /// - Throws: ``AuthFailure/operationNotAllowed`` when removing the password would leave no
    ///   provider, or for a password change on a tenant that requires a second factor.
    public func update(_ context: ClientContext, idToken: String?, change: AccountChange) throws
        -> (user: User, session: AccountSession?)
    {
        let (current, authTime) = try authenticate(context, idToken: idToken)
        // A password change ends the other sessions and answers a new one: on a tenant that asks
        // for a second factor, which this wire cannot prove, it is refused as sign-in is.
        if change.password != nil { try Self.refuseSecondFactor(context) }
        let now = clock.now()
        var user = current
        let changesCredential = change.email != nil || change.password != nil || !change.deleteProviders.isEmpty
        if changesCredential, Int(now.timeIntervalSince1970) - authTime > context.tenant.settings.recentSignInSeconds {
            throw AuthFailure.recentSignInRequired
        }
        if let email = change.email {
            let normalized = User.normalizeEmail(email)
            guard User.isPlausibleEmail(normalized) else { throw AuthFailure.invalidParameter(.email) }
            user.email = normalized
            user.emailVerified = false
        }
        if let password = change.password {
            guard !password.isEmpty else { throw AuthFailure.missingParameter(.password) }
            let username = AccountProfile.email(of: user) ?? ""
            if let violation = policy.violation(of: password, username: username) {
                throw AuthFailure.passwordPolicy(violation)
            }
            user.passwordHash = try hasher.hash(password, for: context.hashingSource)
            user.validSince = now
        }
        if AccountProfile.isAnonymous(user) || AccountProfile.isCustom(user), change.email != nil {
            user.attributes[AccountProfile.providerAttribute] = nil
        }
        if change.deleteDisplayName { user.displayName = nil } else if let name = change.displayName { user.displayName = name }
        if change.deletePhotoURL {
            user.attributes[AccountProfile.photoURLAttribute] = nil
        } else if let photo = change.photoURL {
            user.attributes[AccountProfile.photoURLAttribute] = photo
        }
        let unlinked = try unlink(context, user: &user, providers: change.deleteProviders)
        let updated = user
        let newSession = change.returnSecureToken || change.password != nil
        let session = try store.write { tx -> TokenService.NewSession? in
            do {
                try tx.update(updated)
            } catch StoreError.conflict {
                throw AuthFailure.userAlreadyExists
            }
            for provider in unlinked {
                _ = try tx.deleteFederatedIdentity(tenantID: updated.tenantID, providerID: provider, userID: updated.id)
            }
            if change.password != nil { try tx.revokeFamilies(userID: updated.id, at: now) }
            guard newSession else { return nil }
            return try tokens.startSession(
                tx, context: context, user: updated, scopes: Self.sessionScopes, amr: Self.amr(of: updated),
                authTime: now)
        }
        return (updated, try session.map { try issue(context, user: updated, authTime: now, refreshToken: $0.refreshToken) })
    }

    /// Deletes the account `idToken` names, with its sessions and strong authentication methods;
    /// it needs a sign-in within the tenant's ``TenantSettings/recentSignInSeconds``.
    /// - Throws: as ``authenticate(_:idToken:)``, and ``AuthFailure/recentSignInRequired``.
    public func delete(_ context: ClientContext, idToken: String?) throws {
        let (user, authTime) = try authenticate(context, idToken: idToken)
        let now = clock.now()
        guard Int(now.timeIntervalSince1970) - authTime <= context.tenant.settings.recentSignInSeconds else {
            throw AuthFailure.recentSignInRequired
        }
        let deleted = try store.write { tx in
            try tx.revokeFamilies(userID: user.id, at: now)
            return try tx.deleteUser(id: user.id, tenantID: context.tenant.id)
        }
        guard deleted else { throw AuthFailure.userNotFound }
    }

    /// The sign-in methods of `email` (`password` for an account with one, `emailLink` for one that
    /// signed in with an e-mail link), or `nil` under
    /// enumeration protection, which does not tell.
    public func signInMethods(_ context: ClientContext, email: String?) throws -> [String]? {
        guard let email, !email.isEmpty else { throw AuthFailure.missingParameter(.email) }
        let normalized = User.normalizeEmail(email)
        guard User.isPlausibleEmail(normalized) else { throw AuthFailure.invalidParameter(.email) }
        guard !context.tenant.settings.enumerationProtection else { return nil }
        let found = try store.read { tx -> (User, [FederatedIdentity])? in
            guard let user = try tx.user(email: normalized, tenantID: context.tenant.id) else { return nil }
            return (user, try tx.federatedIdentities(userID: user.id, tenantID: context.tenant.id))
        }
        guard let (user, identities) = found, !AccountProfile.isAnonymous(user) else { return [] }
        var methods: [String] = []
        if user.passwordHash != nil { methods.append(AccountProfile.passwordProvider) }
        if AccountProfile.usesEmailLink(user) { methods.append(AccountProfile.emailLinkMethod) }
        return methods + identities.map(\.providerID)
    }

    /// The identities linked to `user` (for `providerUserInfo`).
    public func linkedIdentities(_ context: ClientContext, of user: User) throws -> [FederatedIdentity] {
        try store.read { try $0.federatedIdentities(userID: user.id, tenantID: context.tenant.id) }
    }

    /// Applies `deleteProvider` to `user`: the `oidc.…` providers it has an identity at, to delete
    /// in the same write; `password` clears the password when another provider stays. Other ids are
    /// ignored (the SDK refuses unlinking a provider the account lacks before asking).
    private func unlink(_ context: ClientContext, user: inout User, providers: [String]) throws -> [String] {
        guard !providers.isEmpty else { return [] }
        let linked = try linkedIdentities(context, of: user).map(\.providerID)
        let removed = linked.filter(providers.contains)
        if providers.contains(AccountProfile.passwordProvider), user.passwordHash != nil {
            guard linked.contains(where: { !removed.contains($0) }) else { throw AuthFailure.operationNotAllowed }
            user.passwordHash = nil
        }
        if let provider = AccountProfile.federatedProvider(of: user), removed.contains(provider) {
            user.attributes[AccountProfile.providerAttribute] = nil
        }
        return removed
    }

    /// Exchanges a refresh token for a new ID token and refresh token (rotation and reuse detection
    /// as ``TokenService/refresh(context:refreshToken:scope:)``).
    /// - Throws: ``AuthFailure/sessionExpired`` when the account's `validSince` is after the session
    ///   began, ``AuthFailure/refreshTokenRevoked`` / ``AuthFailure/refreshTokenReused`` for an
    ///   ended session, ``AuthFailure/invalidRefreshToken``, ``AuthFailure/userDisabled``.
    public func refresh(_ context: ClientContext, refreshToken: String?) throws -> AccountSession {
        guard let refreshToken, !refreshToken.isEmpty else { throw AuthFailure.missingParameter(.refreshToken) }
        guard refreshToken.utf8.count <= 512 else { throw AuthFailure.invalidRefreshToken }
        let hash = Digest.sha256Hex(refreshToken)
        let tenant = context.tenant
        // The account's linked identities come with it, in the same read, for the new ID token.
        let found = try store.read { tx -> (TokenFamily, User?, [FederatedIdentity])? in
            guard let record = try tx.refreshToken(hash: hash), let family = try tx.tokenFamily(id: record.familyID),
                family.tenantID == tenant.id
            else { return nil }
            return (
                family, try tx.user(id: family.userID, tenantID: tenant.id),
                try tx.federatedIdentities(userID: family.userID, tenantID: tenant.id)
            )
        }
        guard let (family, account, identities) = found else { throw AuthFailure.invalidRefreshToken }
        guard let user = account else { throw AuthFailure.userNotFound }
        guard !user.disabled else { throw AuthFailure.userDisabled }
        guard user.validSince <= family.authTime else { throw AuthFailure.sessionExpired }
        let issued = try tokens.refresh(context: context, refreshToken: refreshToken, scope: nil)
        // A lost stamp costs only the precision of `lastRefreshAt`; it never fails the refresh.
        try? store.writeRelaxed { tx in try tx.recordTokenIssue(userID: user.id, at: clock.now(), signIn: false) }
        return try issue(
            context, user: user, authTime: family.authTime, refreshToken: issued.refreshToken, identities: identities)
    }

    /// This slice has no second-factor step: where the tenant's MFA policy asks for one, the
    /// account API does not sign in at all rather than issue a session without it.
    static func refuseSecondFactor(_ context: ClientContext) throws {
        if context.tenant.settings.mfa.requiresSecondFactor(clientID: context.client.id, scopes: sessionScopes.values) {
            throw AuthFailure.operationNotAllowed
        }
    }

    /// The `amr` of an account-API session.
    static func amr(of user: User) -> [String] { AccountProfile.isAnonymous(user) ? [] : ["pwd"] }

    /// Signs the ID token of a committed session; its `firebase.identities` list the account's
    /// linked identities: `identities` when the caller read them already, else read here.
    func issue(
        _ context: ClientContext, user: User, authTime: Date, refreshToken: String?, provider: String? = nil,
        developerClaims: [String: any Sendable] = [:], identities: [FederatedIdentity]? = nil
    ) throws -> AccountSession {
        guard let refreshToken else { throw AuthFailure.invalidRefreshToken }
        // The account's own claims (set by an administrator), then the sign-in's (a custom token's).
        let developer = CustomClaims.decode(user.customClaims).merging(developerClaims) { _, given in given }
        let claims = profile.claims(
            user: user, tenant: context.tenant, authTime: authTime, issuedAt: Int(clock.now().timeIntervalSince1970),
            provider: provider, developerClaims: developer,
            identities: try identities ?? linkedIdentities(context, of: user))
        let payload = try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys, .withoutEscapingSlashes])
        let idToken = try signer.sign(Array(payload), type: "JWT", tenant: context.tenant)
        return AccountSession(
            user: user, idToken: idToken, refreshToken: refreshToken, expiresIn: context.tenant.settings.idTokenLifetime)
    }
}
