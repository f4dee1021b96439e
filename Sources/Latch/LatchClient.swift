import Foundation

/// The Latch SDK's entry point: browserless sign-up, sign-in and password reset against a Latch
/// server (the native-auth wire protocol), silent token acquisition from a persistent cache, and
/// sign-out.
///
/// ```swift
/// let client = try LatchClient(configuration: LatchConfiguration(
///     serverURL: URL(string: "https://id.example.com")!, clientID: "my-app"))
/// switch try await client.signIn(username: "ada@example.com", password: password) {
/// case .completed(let result): use(result.accessToken)
/// case .codeRequired(let state): ask for the code, then `try await state.submitCode(code)`
/// case .passwordRequired(let state): ask for the password, then `try await state.submitPassword(pw)`
/// @unknown default: continue in a browser
/// }
/// ```
///
/// Every call that starts a flow takes an optional `correlationID`: it is sent as
/// `client-request-id` with every request of the flow, kept in each of its states
/// (`state.correlationID`), carried by each of its errors (``LatchError/correlationID``) and named
/// in every log line about it. Without one, the SDK makes one per flow.
public final class LatchClient: Sendable {
    /// The configuration the client was made with.
    public let configuration: LatchConfiguration
    let session: LatchSession

    /// Creates a client.
    /// - Throws: ``LatchError/Code/invalidConfiguration`` when the configuration asks for what this
    ///   version of the SDK cannot do: a challenge type outside
    ///   ``LatchConfiguration/ChallengeType/supported`` or a capability outside
    ///   ``LatchConfiguration/Capability/supported``.
    public init(configuration: LatchConfiguration) throws {
        try configuration.validate()
        self.configuration = configuration
        session = LatchSession(configuration: configuration)
    }

    /// Starts a sign-up. The e-mail address is always verified with a one-time code first.
    /// - Parameters:
    ///   - username: the e-mail address.
    ///   - password: the password, or `nil` to be asked for one later (or for a code-only account
    ///     when the client is configured without `.password`).
    ///   - attributes: user attributes the tenant collects (e.g. `displayName`).
    ///   - correlationID: the flow's correlation id; a new one when `nil`.
    /// - Returns: ``SignUpStep/codeRequired(_:)``: the code is on its way.
    /// - Throws: ``LatchError`` — ``LatchError/Code/userAlreadyExists``, ``LatchError/Code/weakPassword``,
    ///   ``LatchError/Code/invalidEmail`` (before any request), ``LatchError/Code/browserRequired``, …
    public func signUp(
        username: String, password: String? = nil, attributes: [String: String] = [:], correlationID: UUID? = nil
    ) async throws -> SignUpStep {
        let flow = FlowContext(session: session, kind: .signUp, correlationID: correlationID)
        return try await flow.step("start") {
            let email = try Input.username(username)
            if let password, password.isEmpty { throw Input.missing("password") }
            let start = try await flow.post(
                "signup/v1.0/start",
                [
                    "username": email, "password": password, "challenge_type": configuration.challengeTypeParameter,
                    "capabilities": configuration.capabilitiesParameter,
                    "attributes": attributes.isEmpty ? nil : try Input.attributesJSON(attributes),
                ], .repeatable)
            return .codeRequired(
                try await SignUpCodeRequiredState.challenge(flow, token: try session.continuation(start), username: email))
        }
    }

    /// Starts a sign-in.
    /// - Parameters:
    ///   - username: the e-mail address.
    ///   - password: the password, or `nil` to let the server choose (password or e-mail code).
    ///   - scopes: scopes to request; the configuration's defaults when `nil`.
    ///   - claims: a claims request (OpenID Connect Core § 5.5, JSON text), e.g. the
    ///     ``LatchError/claimsChallenge`` of a resource's answer; sent as `claims` with every `/token`
    ///     call of the sign-in.
    ///   - correlationID: the flow's correlation id; a new one when `nil`.
    /// - Returns: ``SignInStep/completed(_:)`` when the password was enough, else the step that
    ///   needs the next credential or the second factor.
    /// - Throws: ``LatchError`` — ``LatchError/Code/userNotFound``, ``LatchError/Code/wrongPassword``,
    ///   ``LatchError/Code/serverDeclinedScopes`` (signed in all the same, for fewer scopes), …
    public func signIn(
        username: String, password: String? = nil, scopes: [String]? = nil, claims: String? = nil,
        correlationID: UUID? = nil
    ) async throws -> SignInStep {
        let flow = FlowContext(session: session, kind: .signIn, correlationID: correlationID, claims: claims)
        return try await flow.step("start") {
            let email = try Input.username(username)
            if let password, password.isEmpty { throw Input.missing("password") }
            let scopes = scopes ?? configuration.defaultScopes
            let initiate = try await flow.post(
                "oauth2/v2.0/initiate",
                [
                    "username": email, "challenge_type": configuration.challengeTypeParameter,
                    "capabilities": configuration.capabilitiesParameter,
                ], .repeatable)
            let next = try await session.signInChallenge(
                flow, token: try session.continuation(initiate), username: email, scopes: scopes)
            if case .passwordRequired(let state) = next, let password {
                return try await state.submit(password)
            }
            return next
        }
    }

    /// Starts a sign-in without a claims request: ``signIn(username:password:scopes:claims:correlationID:)``
    /// with `claims: nil` (the ``LatchClientProtocol`` requirement).
    public func signIn(username: String, password: String?, scopes: [String]?, correlationID: UUID?) async throws
        -> SignInStep
    {
        try await signIn(username: username, password: password, scopes: scopes, claims: nil, correlationID: correlationID)
    }

    /// Starts a password reset; a code is sent to the address.
    /// - Parameter correlationID: the flow's correlation id; a new one when `nil`.
    /// - Returns: ``ResetPasswordStep/codeRequired(_:)``.
    /// - Throws: ``LatchError`` — ``LatchError/Code/userNotFound``, ``LatchError/Code/browserRequired``, …
    public func resetPassword(username: String, correlationID: UUID? = nil) async throws -> ResetPasswordStep {
        let flow = FlowContext(session: session, kind: .resetPassword, correlationID: correlationID)
        return try await flow.step("start") {
            let email = try Input.username(username)
            let start = try await flow.post(
                "resetpassword/v1.0/start",
                [
                    "username": email, "challenge_type": configuration.challengeTypeParameter,
                    "capabilities": configuration.capabilitiesParameter,
                ], .repeatable)
            return .codeRequired(
                try await ResetPasswordCodeRequiredState.challenge(flow, token: try session.continuation(start), username: email))
        }
    }

    /// A token for `account` without user interaction: from the cache while the access token is
    /// valid for more than five minutes, else by refreshing (one refresh at a time per account,
    /// also across processes sharing a file store).
    /// - Parameter correlationID: sent as `client-request-id` with the refresh, if one is made, and
    ///   carried by any error; a new one when `nil`. A call that joins a refresh already in flight
    ///   shares that refresh's request, and its id.
    /// - Throws: ``LatchError`` — ``LatchError/Code/interactionRequired`` when the session ended
    ///   (the account's ``LatchAccount/sessionState`` then says so), ``LatchError/Code/tooManyRequests``
    ///   while throttled after a 429, ``LatchError/Code/networkError``, …
    public func acquireTokenSilent(
        scopes: [String]? = nil, account: LatchAccount, forceRefresh: Bool = false, correlationID: UUID? = nil
    ) async throws -> LatchTokenResult {
        try await session.tokens.acquire(
            account: account, scopes: scopes, forceRefresh: forceRefresh, correlationID: correlationID)
    }

    /// The accounts stored for this server, tenant and client, with their session state.
    public func accounts() async throws -> [LatchAccount] {
        try await session.tokens.accounts().map(LatchAccount.init)
    }

    /// The stored account with this username, if any.
    public func account(username: String) async throws -> LatchAccount? {
        let email = username.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        return try await accounts().first { $0.username == email }
    }

    /// Signs `account` out on this device: its tokens are removed from the store. The same as
    /// ``signOut(account:scope:)`` with ``SignOutScope/local``.
    public func signOut(account: LatchAccount) async throws {
        try await signOut(account: account, scope: .local)
    }
}
