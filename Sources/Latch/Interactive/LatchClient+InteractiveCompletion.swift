import Foundation

/// Completion-handler forms of the interactive acquisitions, with the shape of MSAL's
/// `acquireToken(with:completionBlock:)`: each calls `completionBlock` exactly once, on the main
/// actor, and returns the running work (cancelling it ends in ``LatchError/Code/userCanceled``).
///
/// ```swift
/// client.acquireTokenSilent(account: account) { result in
///     if case .failure(let error) = result, error.code == .interactionRequired {
///         client.acquireToken(with: LatchInteractiveParameters(error: error)) { result in use(result) }
///     }
/// }
/// ```
extension LatchClient {
    /// ``acquireToken(parameters:)`` with a completion handler.
    @discardableResult
    public func acquireToken(
        with parameters: LatchInteractiveParameters,
        completionBlock: @escaping @MainActor @Sendable (Result<LatchTokenResult, LatchError>) -> Void
    ) -> Task<Void, Never> {
        DelegateDispatch.run({ try await self.acquireToken(parameters: parameters) }, deliver: completionBlock)
    }

    /// ``acquireTokenWithDeviceCode(scopes:correlationID:onCode:)`` with a completion handler;
    /// `onCode` is called on the main actor too.
    @discardableResult
    public func acquireTokenWithDeviceCode(
        scopes: [String] = [], onCode: @escaping @MainActor @Sendable (LatchDeviceCode) -> Void,
        completionBlock: @escaping @MainActor @Sendable (Result<LatchTokenResult, LatchError>) -> Void
    ) -> Task<Void, Never> {
        DelegateDispatch.run(
            {
                try await self.acquireTokenWithDeviceCode(scopes: scopes, correlationID: nil) { code in
                    Task { @MainActor in onCode(code) }
                }
            }, deliver: completionBlock)
    }

    /// ``acquireToken(parameters:)`` reporting to a ``CredentialsDelegate`` on the main actor, as
    /// ``acquireTokenSilent(scopes:account:forceRefresh:correlationID:delegate:)`` does, so one
    /// delegate serves both the silent call and the interactive one that recovers from it.
    @discardableResult
    public func acquireToken(parameters: LatchInteractiveParameters, delegate: any CredentialsDelegate)
        -> Task<Void, Never>
    {
        DelegateDispatch.run {
            try await self.acquireToken(parameters: parameters)
        } deliver: { outcome in
            switch outcome {
            case .success(let result): delegate.onAccessTokenRetrieveCompleted(result: result)
            case .failure(let error): delegate.onAccessTokenRetrieveError(error: error)
            }
        }
    }
}
