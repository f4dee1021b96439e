import Foundation

extension LatchClient {
    /// Steps `account` up to the claims a resource asked for (a claims challenge: the
    /// ``LatchError/claimsChallenge`` of an ``LatchError/Code/interactionRequired`` refresh, or
    /// ``LatchClaimsChallenge/parse(wwwAuthenticate:)`` of an API's `WWW-Authenticate` answer),
    /// without a new sign-in: the account's refresh token is sent with `claims` and the
    /// `mfa_required` capability, and the server asks for a second factor.
    ///
    /// ```swift
    /// if case .awaitingMFA(let state) = try await client.stepUp(account: account, claims: claims, scopes: ["api.write"]) {
    ///     let sent = try await state.requestChallenge()
    ///     _ = try await sent.submitChallenge(await askForCode())  // the account's tokens are replaced
    /// }
    /// ```
    /// - Parameters:
    ///   - account: a signed-in account (one holding a refresh token).
    ///   - claims: the claims request (OpenID Connect Core § 5.5, JSON text), sent as `claims` with
    ///     the refresh and with the second factor's `/token` call.
    ///   - scopes: the scopes the new tokens are for; the configuration's defaults when empty.
    ///   - correlationID: the flow's correlation id; a new one when `nil`.
    /// - Returns: ``SignInStep/awaitingMFA(_:)``, whose completion replaces the tokens of the same
    ///   account; ``SignInStep/completed(_:)`` when the server needed no second factor.
    /// - Throws: ``LatchError`` — ``LatchError/Code/missingInput`` for empty claims,
    ///   ``LatchError/Code/interactionRequired`` when the account holds no refresh token, … A
    ///   failed step-up leaves the stored session as it was.
    public func stepUp(account: LatchAccount, claims: String, scopes: [String], correlationID: UUID? = nil)
        async throws -> SignInStep
    {
        let flow = FlowContext(session: session, kind: .stepUp, correlationID: correlationID, claims: claims)
        return try await flow.step("start") {
            guard !claims.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { throw Input.missing("claims") }
            guard let refreshToken = try await session.tokens.refreshToken(for: account) else {
                throw LatchError(code: .interactionRequired, message: "The account holds no refresh token; sign in again.")
            }
            let scopes = scopes.isEmpty ? configuration.defaultScopes : scopes
            return try await session.signInToken(
                flow,
                [
                    "grant_type": "refresh_token", "refresh_token": refreshToken, "scope": scopes.joined(separator: " "),
                    "capabilities": LatchConfiguration.Capability.mfaRequired.rawValue,
                ], username: account.username, requested: scopes)
        }
    }
}
