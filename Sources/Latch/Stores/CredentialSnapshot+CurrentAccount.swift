import Foundation

extension CredentialSnapshot {
    /// The key of the current account of `client`
    /// (``StoredAccount/clientKey(server:tenant:clientID:)``), or `nil` when it has none: the
    /// account its latest sign-in stored, unless that account signed out since. Without a
    /// recorded pointer (a document from before pointers), the client's most recently updated
    /// account, preferring one whose session is live.
    func currentAccountKey(client: String) -> String? {
        if let pointer = currentAccounts?[client] {
            return accounts[pointer] == nil ? nil : pointer
        }
        let candidates = accounts.filter { entry in
            StoredAccount.clientKey(server: entry.value.server, tenant: entry.value.tenant, clientID: entry.value.clientID)
                == client
        }
        return candidates.max { lhs, rhs in
            let (left, right) = (lhs.value, rhs.value)
            if (left.refreshToken != nil) != (right.refreshToken != nil) { return right.refreshToken != nil }
            return (left.updatedAt, lhs.key) < (right.updatedAt, rhs.key)
        }?.key
    }

    /// Records `key` as the current account of `client`; `nil` records that it has none.
    mutating func setCurrentAccount(_ key: String?, client: String) {
        var pointers = currentAccounts ?? [:]
        pointers[client] = key ?? ""
        currentAccounts = pointers
    }
}
