import Foundation

/// The rules of account administration, as firebase-admin drives them
/// (`reference/firebase-auth-protocol.md` § 6): create, look up, list, change, revoke and delete
/// accounts of a tenant, set their custom claims, import accounts in batches, and mint session
/// cookies. The caller has already checked the administrator's credential; nothing here speaks a
/// wire format.
public struct AccountAdministration: Sendable {
    let store: any Store
    let clock: any ServerClock
    let hasher: any PasswordHasher
    let policy: PasswordPolicy
    let accounts: AccountService
    let signer: any TokenSigner

    /// The most accounts one batch call (import, delete) may name.
    public static let batchLimit = 1000
    /// The longest account id.
    public static let maximumIDLength = 128
    /// The lifetimes a session cookie may have, in seconds: 5 minutes to 14 days.
    public static let sessionCookieLifetimes = 300...1_209_600

    /// The `iss` of a project's session cookies.
    public static func sessionCookieIssuer(project: String) -> String { "https://session.firebase.google.com/\(project)" }

    /// Creates an account.
    /// - Throws: ``AuthFailure/accountAdministration(_:)`` with ``AccountAdminFailure/duplicateAccountID``,
    ///   ``AuthFailure/userAlreadyExists`` (the e-mail is taken), ``AuthFailure/invalidParameter(_:)``
    ///   (`.uid`, `.email`), ``AuthFailure/passwordPolicy(_:)``.
    public func create(_ account: NewAccount, tenant: Tenant, source: HashingSource) throws -> User {
        let id = account.id ?? UUID().uuidString.lowercased()
        guard Self.isValidID(id) else { throw AuthFailure.invalidParameter(.uid) }
        let now = clock.now()
        var user = User(
            id: id, tenantID: tenant.id, email: AccountProfile.customAddress(id: id),
            emailVerified: account.emailVerified, passwordHash: nil, displayName: account.displayName,
            attributes: [AccountProfile.providerAttribute: AccountProfile.customProvider], disabled: account.disabled,
            createdAt: now, validSince: now)
        if let photo = account.photoURL { user.attributes[AccountProfile.photoURLAttribute] = photo }
        if let email = account.email {
            user.email = try Self.normalized(email)
            user.attributes[AccountProfile.providerAttribute] = nil
        }
        if let password = account.password {
            user.passwordHash = try hash(password, for: user, source: source)
        }
        let created = user
        try store.write { tx in
            if try tx.user(id: id, tenantID: tenant.id) != nil {
                throw AuthFailure.accountAdministration(.duplicateAccountID)
            }
            do {
                try tx.insert(created)
            } catch StoreError.conflict {
                // Ids are unique across tenants; an e-mail address within one.
                if try tx.user(id: id, tenantID: tenant.id) == nil,
                    try tx.user(email: created.email, tenantID: tenant.id) != nil
                {
                    throw AuthFailure.userAlreadyExists
                }
                throw AuthFailure.accountAdministration(.duplicateAccountID)
            }
            try tx.insert(AuditEvent(tenantID: tenant.id, at: now, kind: .signUp, userID: id, detail: "method=admin"))
        }
        return created
    }

    /// The accounts with these ids or e-mail addresses, each once, in the order asked; unknown ones
    /// are left out.
    public func lookup(ids: [String], emails: [String], tenant: Tenant) throws -> [User] {
        guard ids.count + emails.count <= Self.batchLimit else {
            throw AuthFailure.accountAdministration(.tooManyAccounts(limit: Self.batchLimit))
        }
        return try store.read { tx in
            var found: [User] = []
            var seen = Set<String>()
            for id in ids where Self.isValidID(id) {
                if let user = try tx.user(id: id, tenantID: tenant.id), seen.insert(user.id).inserted { found.append(user) }
            }
            for email in emails {
                let normalized = User.normalizeEmail(email)
                guard User.isPlausibleEmail(normalized), let user = try tx.user(email: normalized, tenantID: tenant.id),
                    AccountProfile.email(of: user) != nil, seen.insert(user.id).inserted
                else { continue }
                found.append(user)
            }
            return found
        }
    }

    /// Changes the account `id`.
    /// - Throws: ``AuthFailure/userNotFound``, ``AuthFailure/userAlreadyExists`` (the new e-mail is
    ///   taken), ``AuthFailure/invalidParameter(_:)`` (`.uid`, `.email`),
    ///   ``AuthFailure/passwordPolicy(_:)``, and the refusals of ``CustomClaims/validated(_:)``.
    public func update(id: String?, change: AdminAccountChange, tenant: Tenant, source: HashingSource) throws -> User {
        guard let id, !id.isEmpty else { throw AuthFailure.missingParameter(.uid) }
        guard Self.isValidID(id) else { throw AuthFailure.invalidParameter(.uid) }
        let claims = try change.customClaims.map { try CustomClaims.validated($0) }
        guard var user = try store.read({ try $0.user(id: id, tenantID: tenant.id) }) else {
            throw AuthFailure.userNotFound
        }
        let now = clock.now()
        var endSessions = false
        if let email = change.email {
            user.email = try Self.normalized(email)
            if AccountProfile.isAnonymous(user) || AccountProfile.isCustom(user) {
                user.attributes[AccountProfile.providerAttribute] = nil
            }
        }
        if change.deleteProviders.contains(AccountProfile.passwordProvider) { user.passwordHash = nil }
        if let password = change.password {
            user.passwordHash = try hash(password, for: user, source: source)
            user.validSince = now
            endSessions = true
        }
        if let verified = change.emailVerified { user.emailVerified = verified }
        if let disabled = change.disabled { user.disabled = disabled }
        if let validSince = change.validSince {
            user.validSince = validSince
            endSessions = true
        }
        if change.deleteDisplayName { user.displayName = nil } else if let name = change.displayName { user.displayName = name }
        if change.deletePhotoURL {
            user.attributes[AccountProfile.photoURLAttribute] = nil
        } else if let photo = change.photoURL {
            user.attributes[AccountProfile.photoURLAttribute] = photo
        }
        if let claims { user.customClaims = claims }
        let updated = user
        try store.write { tx in
            do {
                try tx.update(updated)
            } catch StoreError.conflict {
                throw AuthFailure.userAlreadyExists
            }
            if endSessions { try tx.revokeFamilies(userID: updated.id, at: now) }
        }
        return updated
    }

    /// Deletes the account `id` with its sessions.
    /// - Throws: ``AuthFailure/userNotFound``.
    public func delete(id: String?, tenant: Tenant) throws {
        guard let id, !id.isEmpty else { throw AuthFailure.missingParameter(.uid) }
        let now = clock.now()
        let deleted = try store.write { tx in
            guard Self.isValidID(id), try tx.user(id: id, tenantID: tenant.id) != nil else { return false }
            try tx.revokeFamilies(userID: id, at: now)
            return try tx.deleteUser(id: id, tenantID: tenant.id)
        }
        guard deleted else { throw AuthFailure.userNotFound }
    }

    /// Deletes the accounts `ids`; unknown ids are skipped. Without `force` an enabled account is
    /// kept and reported.
    /// - Returns: the indexes and ids of the accounts kept because they are enabled.
    public func delete(ids: [String], force: Bool, tenant: Tenant) throws -> [(index: Int, id: String)] {
        guard ids.count <= Self.batchLimit else {
            throw AuthFailure.accountAdministration(.tooManyAccounts(limit: Self.batchLimit))
        }
        let now = clock.now()
        return try store.write { tx in
            var kept: [(index: Int, id: String)] = []
            for (index, id) in ids.enumerated() where Self.isValidID(id) {
                guard let user = try tx.user(id: id, tenantID: tenant.id) else { continue }
                guard force || user.disabled else {
                    kept.append((index, id))
                    continue
                }
                try tx.revokeFamilies(userID: id, at: now)
                _ = try tx.deleteUser(id: id, tenantID: tenant.id)
            }
            return kept
        }
    }

    /// One page of the tenant's accounts by id, after the account `after`, and the id to continue
    /// after when more may follow.
    public func page(after: String?, limit: Int, tenant: Tenant) throws -> (users: [User], next: String?) {
        let size = min(max(limit, 1), Self.batchLimit)
        let users = try store.read { try $0.users(tenantID: tenant.id, after: after, limit: size) }
        return (users, users.count == size ? users.last?.id : nil)
    }

    /// The number of accounts in the tenant, and up to `limit` of them after skipping `offset`,
    /// oldest first (`accounts:query`).
    public func query(offset: Int, limit: Int, tenant: Tenant) throws -> (count: Int, users: [User]) {
        let skip = max(offset, 0)
        let size = min(max(limit, 0), Self.batchLimit)
        return try store.read { tx in
            let count = try tx.userCount(tenantID: tenant.id)
            let users = size == 0 ? [] : try tx.users(tenantID: tenant.id, limit: skip + size)
            return (count, Array(users.dropFirst(skip)))
        }
    }

    /// Deletes every account of the tenant (the emulator's reset).
    public func deleteAll(tenant: Tenant) throws {
        try store.write { tx in _ = try tx.deleteUsers(tenantID: tenant.id) }
    }

    /// A session cookie for the account `idToken` names: a JWT signed with the tenant's key, with
    /// the ID token's claims, `iss` = ``sessionCookieIssuer(project:)`` and `exp` = now + `lifetime`.
    /// - Throws: ``AuthFailure/accountAdministration(_:)`` with
    ///   ``AccountAdminFailure/invalidSessionCookieDuration``, and as ``AccountService/authenticate(_:idToken:)``.
    public func sessionCookie(idToken: String?, lifetime: Int?, tenant: Tenant) throws -> String {
        guard let lifetime, Self.sessionCookieLifetimes.contains(lifetime) else {
            throw AuthFailure.accountAdministration(.invalidSessionCookieDuration)
        }
        let verified = try accounts.verify(idToken: idToken, tenant: tenant)
        let now = Int(clock.now().timeIntervalSince1970)
        var claims = verified.claims.mapValues { CustomTokenService.sendable($0) }
        claims["iss"] = Self.sessionCookieIssuer(project: tenant.name)
        claims["iat"] = now
        claims["exp"] = now + lifetime
        let payload = try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys, .withoutEscapingSlashes])
        return try signer.sign(Array(payload), type: "JWT", tenant: tenant)
    }

    /// Whether `id` can be an account id: 1 to ``maximumIDLength`` characters, none of them control
    /// characters.
    static func isValidID(_ id: String) -> Bool {
        !id.isEmpty && id.count <= maximumIDLength
            && !id.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    static func normalized(_ email: String) throws -> String {
        let normalized = User.normalizeEmail(email)
        guard User.isPlausibleEmail(normalized) else { throw AuthFailure.invalidParameter(.email) }
        return normalized
    }

    private func hash(_ password: String, for user: User, source: HashingSource) throws -> String {
        guard !password.isEmpty else { throw AuthFailure.missingParameter(.password) }
        if let violation = policy.violation(of: password, username: AccountProfile.email(of: user) ?? "") {
            throw AuthFailure.passwordPolicy(violation)
        }
        return try hasher.hash(password, for: source)
    }
}
