import Foundation

/// What an app calls on a ``LatchClient``: the flow starts, the stored accounts, silent token
/// acquisition and sign-out. ``LatchClient`` adopts it, so a view model that holds
/// `any LatchClientProtocol` can be tested with a stub.
///
/// ```swift
/// @MainActor final class SignInModel {
///     let client: any LatchClientProtocol
///     init(client: any LatchClientProtocol) { self.client = client }
///     func start(email: String) async throws -> SignInStep {
///         try await client.signIn(username: email, password: nil, scopes: nil, correlationID: nil)
///     }
/// }
/// ```
public protocol LatchClientProtocol: Sendable {
    /// Starts a sign-up; see ``LatchClient/signUp(username:password:attributes:correlationID:)``.
    func signUp(username: String, password: String?, attributes: [String: String], correlationID: UUID?) async throws
        -> SignUpStep
    /// Starts a sign-in; see ``LatchClient/signIn(username:password:scopes:claims:correlationID:)``.
    func signIn(username: String, password: String?, scopes: [String]?, correlationID: UUID?) async throws -> SignInStep
    /// Starts a password reset; see ``LatchClient/resetPassword(username:correlationID:)``.
    func resetPassword(username: String, correlationID: UUID?) async throws -> ResetPasswordStep
    /// A valid access token for `account`; see
    /// ``LatchClient/acquireTokenSilent(scopes:account:forceRefresh:correlationID:)``.
    func acquireTokenSilent(scopes: [String]?, account: LatchAccount, forceRefresh: Bool, correlationID: UUID?)
        async throws -> LatchTokenResult
    /// The stored accounts; see ``LatchClient/accounts()``.
    func accounts() async throws -> [LatchAccount]
    /// The stored account with this username; see ``LatchClient/account(username:)``.
    func account(username: String) async throws -> LatchAccount?
    /// Signs `account` out on this device; see ``LatchClient/signOut(account:)``.
    func signOut(account: LatchAccount) async throws
    /// Signs `account` out here or everywhere; see ``LatchClient/signOut(account:scope:)``.
    func signOut(account: LatchAccount, scope: SignOutScope) async throws -> SignOutResult
    /// The account signed in last; see ``LatchClient/currentAccount``.
    var currentAccount: LatchAccount? { get async throws }
    /// Whether the current account's session is live; see ``LatchClient/isSignedIn``.
    var isSignedIn: Bool { get async throws }
    /// The current account, then each change; see ``LatchClient/authStateChanges``.
    var authStateChanges: AsyncStream<LatchAccount?> { get }
    /// What happens to this client's sessions; see ``LatchClient/authEvents``.
    var authEvents: AsyncStream<LatchAuthEvent> { get }
    /// Raises `account`'s session to satisfy `claims`; see
    /// ``LatchClient/stepUp(account:claims:scopes:correlationID:)``.
    func stepUp(account: LatchAccount, claims: String, scopes: [String], correlationID: UUID?) async throws -> SignInStep
    /// Signs in interactively in a browser; see ``LatchClient/acquireToken(parameters:)``.
    func acquireToken(parameters: LatchInteractiveParameters) async throws -> LatchTokenResult
    /// Signs in with a device code; see ``LatchClient/acquireTokenWithDeviceCode(scopes:correlationID:onCode:)``.
    func acquireTokenWithDeviceCode(scopes: [String], onCode: @escaping @Sendable (LatchDeviceCode) -> Void)
        async throws -> LatchTokenResult
}

extension LatchClientProtocol {
    /// Stubs written before step-up existed keep compiling; such a stub answers with an error.
    public func stepUp(account: LatchAccount, claims: String, scopes: [String], correlationID: UUID?) async throws
        -> SignInStep
    {
        throw LatchError(code: .internal, message: "This LatchClientProtocol conformance does not implement stepUp.")
    }

    /// Stubs written before interactive acquisition existed keep compiling; such a stub answers
    /// with an error.
    public func acquireToken(parameters: LatchInteractiveParameters) async throws -> LatchTokenResult {
        throw LatchError(code: .internal, message: "This LatchClientProtocol conformance does not implement acquireToken.")
    }

    /// Stubs written before the device flow existed keep compiling; such a stub answers with an error.
    public func acquireTokenWithDeviceCode(scopes: [String], onCode: @escaping @Sendable (LatchDeviceCode) -> Void)
        async throws -> LatchTokenResult
    {
        throw LatchError(
            code: .internal, message: "This LatchClientProtocol conformance does not implement acquireTokenWithDeviceCode.")
    }
}

extension LatchClient: LatchClientProtocol {}
