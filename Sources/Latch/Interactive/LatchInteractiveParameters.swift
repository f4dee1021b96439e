import Foundation

/// What an interactive token acquisition asks for
/// (``LatchClient/acquireToken(parameters:)``): the authorization request's `scope`, `claims`,
/// `prompt` and `login_hint` (RFC 6749 § 4.1.1, OpenID Connect Core § 3.1.2.1 and § 5.5), extra
/// query parameters, how long to wait for the user, and the browser.
///
/// ```swift
/// do {
///     _ = try await client.acquireTokenSilent(account: account)
/// } catch let error as LatchError where error.code == .interactionRequired {
///     _ = try await client.acquireToken(parameters: LatchInteractiveParameters(error: error))
/// }
/// ```
public struct LatchInteractiveParameters: Sendable {
    /// The scopes; the configuration's defaults when empty. `openid` is always requested (the ID
    /// token names the account and carries the `nonce`).
    public var scopes: [String]
    /// A claims request (OpenID Connect Core § 5.5, JSON text), e.g. the
    /// ``LatchError/claimsChallenge`` of an ``LatchError/Code/interactionRequired`` error.
    public var claims: String?
    /// What the sign-in page must show; the server decides when `nil`.
    public var prompt: LatchPrompt?
    /// The username to pre-fill (`login_hint`), e.g. the ``LatchError/loginHint`` of an error.
    public var loginHint: String?
    /// More query parameters for the authorization request (e.g. `ui_locales`, `max_age`); they
    /// never replace the ones the SDK sets (`client_id`, `redirect_uri`, `state`, the PKCE pair, …).
    public var extraQueryParameters: [String: String]
    /// How long, in seconds, to wait for the redirect before giving up with
    /// ``LatchError/Code/userCanceled``. Default 300.
    public var timeout: TimeInterval
    /// The browser; ``LatchSystemBrowser`` when `nil` (where the platform has one).
    public var browser: (any LatchWebBrowser)?
    /// The flow's correlation id, sent as `client-request-id` with the code exchange; a new one
    /// when `nil`.
    public var correlationID: UUID?

    /// Creates parameters.
    public init(
        scopes: [String] = [], claims: String? = nil, prompt: LatchPrompt? = nil, loginHint: String? = nil,
        extraQueryParameters: [String: String] = [:], timeout: TimeInterval = 300,
        browser: (any LatchWebBrowser)? = nil, correlationID: UUID? = nil
    ) {
        self.scopes = scopes
        self.claims = claims
        self.prompt = prompt
        self.loginHint = loginHint
        self.extraQueryParameters = extraQueryParameters
        self.timeout = timeout
        self.browser = browser
        self.correlationID = correlationID
    }

    /// Parameters that satisfy what a silent call's ``LatchError/Code/interactionRequired`` error
    /// says the server needs: its ``LatchError/claimsChallenge`` as `claims` and its
    /// ``LatchError/loginHint`` as `loginHint`, so the user signs in again as the same account.
    public init(
        error: LatchError, scopes: [String] = [], browser: (any LatchWebBrowser)? = nil, timeout: TimeInterval = 300
    ) {
        self.init(
            scopes: scopes, claims: error.claimsChallenge, loginHint: error.loginHint, timeout: timeout, browser: browser,
            correlationID: nil)
    }
}
