import Foundation

/// Completion-handler forms of the token and account calls, for code that is not async — as MSAL's
/// `acquireTokenSilent(with:completionBlock:)` and `accountsFromDevice(for:completionBlock:)`.
/// Each calls `completion` exactly once, on the main actor, and returns the running work:
/// cancelling it ends in ``LatchError/Code/userCanceled``.
extension LatchClient {
    /// ``acquireTokenSilent(scopes:account:forceRefresh:correlationID:)`` with a completion handler.
    @discardableResult
    public func acquireTokenSilent(
        scopes: [String]? = nil, account: LatchAccount, forceRefresh: Bool = false, correlationID: UUID? = nil,
        completion: @escaping @MainActor @Sendable (Result<LatchTokenResult, LatchError>) -> Void
    ) -> Task<Void, Never> {
        DelegateDispatch.run(
            {
                try await self.acquireTokenSilent(
                    scopes: scopes, account: account, forceRefresh: forceRefresh, correlationID: correlationID)
            }, deliver: completion)
    }

    /// ``accounts()`` with a completion handler.
    @discardableResult
    public func accounts(completion: @escaping @MainActor @Sendable (Result<[LatchAccount], LatchError>) -> Void)
        -> Task<Void, Never>
    {
        DelegateDispatch.run({ try await self.accounts() }, deliver: completion)
    }

    /// ``signOut(account:)`` with a completion handler.
    @discardableResult
    public func signOut(
        account: LatchAccount, completion: @escaping @MainActor @Sendable (Result<Void, LatchError>) -> Void
    ) -> Task<Void, Never> {
        DelegateDispatch.run({ try await self.signOut(account: account) }, deliver: completion)
    }

    /// ``signOut(account:scope:)`` with a completion handler: the result says whether the server
    /// revoked the session too.
    @discardableResult
    public func signOut(
        account: LatchAccount, scope: SignOutScope,
        completion: @escaping @MainActor @Sendable (Result<SignOutResult, LatchError>) -> Void
    ) -> Task<Void, Never> {
        DelegateDispatch.run({ try await self.signOut(account: account, scope: scope) }, deliver: completion)
    }
}
