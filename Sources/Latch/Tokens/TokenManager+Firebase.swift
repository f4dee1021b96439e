import Foundation

extension TokenManager {
    /// Changes the stored record of `account` under the store's lock (new tokens from an account
    /// update, a reloaded profile) and tells the listeners.
    /// - Throws: ``LatchError/Code/interactionRequired`` when the account is no longer stored.
    func update(_ account: LatchAccount, _ change: @escaping @Sendable (inout StoredAccount) -> Void) async throws
        -> StoredAccount
    {
        let key = key(for: account)
        let store = configuration.credentialStore
        return try await storeCall {
            try await store.withExclusiveLock { [self] in
                var snapshot = try await readStore()
                guard var record = snapshot.accounts[key] else {
                    throw LatchError(code: .interactionRequired, message: "No account is signed in; sign in first.")
                }
                let before = snapshot
                change(&record)
                record.updatedAt = configuration.clock()
                snapshot.accounts[key] = record
                try await store.write(snapshot)
                remember(record, key: key)
                publish(before: before, after: snapshot)
                return record
            }
        }
    }

    /// The stored record of `account`, or `nil`.
    func record(for account: LatchAccount) async throws -> StoredAccount? {
        merge(try await readStore().accounts)[key(for: account)]
    }
}
