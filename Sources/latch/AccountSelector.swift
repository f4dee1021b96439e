import Foundation
import Latch

/// Chooses the account a command acts on: the one named by `--account EMAIL`, else the only stored
/// account, else the one whose tokens were stored most recently (the current account).
struct AccountSelector: Sendable {
    /// The shared context.
    let context: CommandContext

    /// The selected account.
    /// - Throws: ``LatchError/Code/interactionRequired`` when no (matching) account is stored,
    ///   ``LatchError/Code/credentialStoreError`` when the store cannot be read.
    func select() async throws -> LatchAccount {
        let client = context.client
        if let email = context.options.account {
            guard let account = try await client.account(username: email) else {
                throw LatchError(code: .interactionRequired, message: "No account \(email) is signed in.")
            }
            return account
        }
        let accounts = try await client.accounts()
        guard let first = accounts.first else {
            throw LatchError(code: .interactionRequired, message: "No account is signed in.")
        }
        guard accounts.count > 1 else { return first }
        let snapshot: CredentialSnapshot
        do {
            snapshot = try await context.client.configuration.credentialStore.read()
        } catch let error as CredentialStoreError {
            throw LatchError(
                code: .credentialStoreError, message: "The credential store failed: \(error.message)", underlyingError: error)
        }
        let settings = context.settings
        func updated(_ account: LatchAccount) -> Date {
            let key = StoredAccount.key(
                server: settings.serverKey, tenant: settings.tenant, clientID: settings.clientID, accountID: account.id)
            return snapshot.accounts[key]?.updatedAt ?? .distantPast
        }
        return accounts.max { updated($0) < updated($1) } ?? first
    }
}
