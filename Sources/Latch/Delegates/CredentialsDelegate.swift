import Foundation

/// Receives the outcome of
/// ``LatchClient/acquireTokenSilent(scopes:account:forceRefresh:correlationID:delegate:)``, on the
/// main actor, exactly once per call. Mirrors MSAL native auth's `CredentialsDelegate`.
@MainActor
public protocol CredentialsDelegate: AnyObject, Sendable {
    /// No token could be had silently: ``LatchError/recovery`` says whether to retry or sign in
    /// again. Mirrors MSAL's `onAccessTokenRetrieveError(error:)`.
    func onAccessTokenRetrieveError(error: LatchError)

    /// A valid token, from the cache or refreshed.
    /// Optional: without it, ``onAccessTokenRetrieveError(error:)`` is called.
    /// Mirrors MSAL's `onAccessTokenRetrieveCompleted(result:)`.
    func onAccessTokenRetrieveCompleted(result: LatchTokenResult)
}

extension CredentialsDelegate {
    /// Routes to ``onAccessTokenRetrieveError(error:)`` (not implemented).
    public func onAccessTokenRetrieveCompleted(result: LatchTokenResult) {
        onAccessTokenRetrieveError(error: .delegateMethodNotImplemented("onAccessTokenRetrieveCompleted(result:)"))
    }
}

extension LatchClient {
    /// Gets a token silently and reports to `delegate` on the main actor; see
    /// ``acquireTokenSilent(scopes:account:forceRefresh:correlationID:)`` for the parameters.
    /// - Returns: the running work; cancelling it ends in ``LatchError/Code/userCanceled``. The
    ///   delegate is held until its callback has run.
    @discardableResult
    public func acquireTokenSilent(
        scopes: [String]? = nil, account: LatchAccount, forceRefresh: Bool = false, correlationID: UUID? = nil,
        delegate: any CredentialsDelegate
    ) -> Task<Void, Never> {
        DelegateDispatch.run {
            try await self.acquireTokenSilent(
                scopes: scopes, account: account, forceRefresh: forceRefresh, correlationID: correlationID)
        } deliver: { outcome in
            switch outcome {
            case .success(let result): delegate.onAccessTokenRetrieveCompleted(result: result)
            case .failure(let error): delegate.onAccessTokenRetrieveError(error: error)
            }
        }
    }
}
