import Foundation

extension LatchClient {
    /// The account this client signed in last, while it is stored: `nil` before any sign-in and
    /// after that account signed out. An account whose session the server ended stays current
    /// (its ``LatchAccount/sessionState`` is ``LatchAccount/SessionState/interactionRequired``), so
    /// the app can offer to sign in again as it. Read from the store, so it reflects other
    /// clients and processes sharing it; other signed-in accounts are in ``accounts()``.
    /// - Throws: ``LatchError/Code/credentialStoreError``.
    public var currentAccount: LatchAccount? {
        get async throws { try await session.tokens.currentAccount() }
    }

    /// Whether there is a current account whose session is live (tokens can be obtained without
    /// the user). A network failure never makes it `false`: only sign-out or the server's refusal.
    /// - Throws: ``LatchError/Code/credentialStoreError``.
    public var isSignedIn: Bool {
        get async throws {
            let account = try await currentAccount
            return account?.sessionState == .signedIn
        }
    }

    /// The current account (``currentAccount``) now and after every change: the first element is
    /// the current value, then one element each time another account becomes current, the
    /// current one signs out (`nil`), or its session ends or starts again. A token refresh is not
    /// a change (see ``authEvents``). Changes made by other clients or processes sharing the
    /// credential store arrive within ``LatchConfiguration/credentialStoreWatchInterval``.
    ///
    /// ```swift
    /// for await account in client.authStateChanges {
    ///     if account?.sessionState == .signedIn { showHome() } else { showSignIn() }
    /// }
    /// ```
    ///
    /// Each access makes a new stream; its listener is removed when the stream terminates (the
    /// consuming task is cancelled, or the stream is dropped).
    public var authStateChanges: AsyncStream<LatchAccount?> {
        session.tokens.authState.stateChanges()
    }

    /// What happens to this client's sessions from now on: sign-ins, sign-outs, refreshes, sessions
    /// the server ended, and refreshes that could not reach the server (``LatchAuthEvent``), from
    /// this client and from others sharing the credential store.
    ///
    /// Each access makes a new stream; its listener is removed when the stream terminates.
    public var authEvents: AsyncStream<LatchAuthEvent> {
        session.tokens.authState.events()
    }
}
