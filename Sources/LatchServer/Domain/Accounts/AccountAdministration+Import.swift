import Foundation

extension AccountAdministration {
    /// Imports up to ``batchLimit`` accounts in one transaction (`accounts:batchCreate`,
    /// `reference/firebase-auth-protocol.md` § 6). Each account is checked on its own: a refused
    /// one is reported and the others are imported.
    /// - Parameter options: how the imported password hashes were made; required when any account
    ///   carries one.
    /// - Returns: the refused accounts, by index.
    /// - Throws: ``AuthFailure/accountAdministration(_:)`` with
    ///   ``AccountAdminFailure/tooManyAccounts(limit:)`` or ``AccountAdminFailure/invalidHashOptions(_:)``.
    public func importAccounts(_ accounts: [ImportedAccount], options: ImportHashOptions?, tenant: Tenant) throws
        -> [ImportedAccount.Failure]
    {
        guard accounts.count <= Self.batchLimit else {
            throw AuthFailure.accountAdministration(.tooManyAccounts(limit: Self.batchLimit))
        }
        if options == nil, accounts.contains(where: { $0.passwordHash != nil }) {
            throw AuthFailure.accountAdministration(.invalidHashOptions("hashAlgorithm is required to import password hashes"))
        }
        let now = clock.now()
        var failures: [ImportedAccount.Failure] = []
        var ready: [(index: Int, user: User)] = []
        var ids = Set<String>()
        for (index, account) in accounts.enumerated() {
            switch Self.record(account, options: options, tenant: tenant, now: now) {
            case .failure(let problem):
                failures.append(.init(index: index, problem: problem))
            case .success(let user):
                guard ids.insert(user.id).inserted else {
                    failures.append(.init(index: index, problem: .repeatedID))
                    continue
                }
                ready.append((index, user))
            }
        }
        let refused = try store.write { tx -> [ImportedAccount.Failure] in
            var refused: [ImportedAccount.Failure] = []
            for (index, user) in ready {
                if try tx.user(id: user.id, tenantID: tenant.id) != nil {
                    refused.append(.init(index: index, problem: .duplicateID))
                    continue
                }
                do {
                    try tx.insert(user)
                } catch StoreError.conflict {
                    let emailTaken =
                        try tx.user(id: user.id, tenantID: tenant.id) == nil
                        && tx.user(email: user.email, tenantID: tenant.id) != nil
                    refused.append(.init(index: index, problem: emailTaken ? .emailExists : .duplicateID))
                }
            }
            return refused
        }
        return (failures + refused).sorted { $0.index < $1.index }
    }

    /// The record of one imported account, or why it cannot be imported.
    static func record(_ account: ImportedAccount, options: ImportHashOptions?, tenant: Tenant, now: Date) -> Result<
        User, ImportedAccount.Problem
    > {
        guard let id = account.id, isValidID(id) else { return .failure(.invalidID) }
        var user = User(
            id: id, tenantID: tenant.id, email: AccountProfile.customAddress(id: id),
            emailVerified: account.emailVerified, passwordHash: nil, displayName: account.displayName,
            attributes: [AccountProfile.providerAttribute: AccountProfile.customProvider], disabled: account.disabled,
            createdAt: account.createdAt ?? now, validSince: now, lastLoginAt: account.lastLoginAt)
        if let photo = account.photoURL { user.attributes[AccountProfile.photoURLAttribute] = photo }
        if let email = account.email {
            guard let normalized = try? normalized(email) else { return .failure(.invalidEmail) }
            user.email = normalized
            user.attributes[AccountProfile.providerAttribute] = nil
        }
        if let claims = account.customClaims {
            do {
                user.customClaims = try CustomClaims.validated(claims)
            } catch AuthFailure.accountAdministration(let why) {
                return .failure(.claims(why))
            } catch {
                return .failure(.claims(.invalidClaims))
            }
        }
        if let hash = account.passwordHash {
            guard let options, let algorithm = options.algorithm else {
                return .failure(.unsupportedHash("hashAlgorithm is required to import password hashes"))
            }
            let parameters = ImportedHashParameters(
                algorithm: algorithm, signerKey: options.signerKey, saltSeparator: options.saltSeparator,
                rounds: options.rounds, memoryCost: options.memoryCost)
            do {
                let imported = try ImportedPasswordHash(
                    algorithm: algorithm, parameters: parameters, hash: hash, salt: account.salt ?? [])
                user.passwordHash = imported.encoded
            } catch {
                return .failure(.unsupportedHash(error.reason))
            }
        }
        return .success(user)
    }
}
