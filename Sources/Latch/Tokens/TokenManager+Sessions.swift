import Foundation
internal import LatchLocking

/// One session of one account as this client sees it: a sign-in or a sign-out through this
/// client starts the next generation. A refresh records the generation it was asked under, and
/// its outcome counts only while that generation lasts.
struct SessionGeneration: Sendable, Equatable {
    /// Increases with every sign-in and sign-out of the account through this client.
    var number: UInt64 = 0
    /// The latest change was a sign-out.
    var isSignedOut = false
}

extension TokenManager {
    /// The session generation of the account `key`.
    func generation(of key: String) -> SessionGeneration {
        generations.withLock { $0[key] ?? SessionGeneration() }
    }

    /// Whether the account was signed out through this client after `generation`.
    func signedOut(_ key: String, since generation: SessionGeneration) -> Bool {
        let latest = self.generation(of: key)
        return latest.number != generation.number && latest.isSignedOut
    }

    /// What callers of a refresh cut short by a sign-out receive.
    static func signedOutDuringRefresh() -> LatchError {
        LatchError(
            code: .interactionRequired, message: "The account was signed out while its token was being refreshed; sign in again.")
    }

    /// The view of `snapshot` for this client.
    func view(_ snapshot: CredentialSnapshot) -> AuthView {
        AuthView(snapshot, client: clientKey)
    }

    /// Tells the listeners about a change of the store from `before` to `after` (both as this
    /// client reads them); call it under the store's lock, so changes arrive in store order.
    func publish(before: CredentialSnapshot, after: CredentialSnapshot) {
        guard authState.isObserved else { return }
        authState.publish(before: view(before), after: view(after))
    }
}
