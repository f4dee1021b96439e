import Foundation

extension LatchClient {
    /// Signs `account` out: removes it and its tokens from the credential store, and with
    /// ``SignOutScope/global`` also revokes its session on the server (RFC 7009 token revocation
    /// of the refresh token, or of the access token when there is no refresh token).
    ///
    /// A refresh of the account in flight is cancelled and writes nothing: the sign-out does not
    /// wait for it. ``LatchAuthEvent/signedOut(_:)`` is emitted as soon as the account is removed,
    /// before the revocation; a revocation that fails (offline, 5xx) leaves the account signed
    /// out here and is reported in the result rather than thrown.
    ///
    /// ```swift
    /// let outcome = try await client.signOut(account: account, scope: .global)
    /// if let error = outcome.revocationError { log("the server session stays valid until it expires: \(error)") }
    /// ```
    /// - Throws: ``LatchError`` — ``LatchError/Code/credentialStoreError`` when the store cannot be
    ///   changed (the account is then still signed in).
    @discardableResult
    public func signOut(account: LatchAccount, scope: SignOutScope) async throws -> SignOutResult {
        let removed = try await session.tokens.signOut(account)
        guard scope == .global, let removed else {
            return SignOutResult(account: account, scope: scope, isRevokedOnServer: false, revocationError: nil)
        }
        let token: (value: String, hint: String)
        if let refreshToken = removed.refreshToken {
            token = (refreshToken, "refresh_token")
        } else if let accessToken = removed.accessToken {
            token = (accessToken, "access_token")
        } else {
            return SignOutResult(account: account, scope: scope, isRevokedOnServer: false, revocationError: nil)
        }
        do {
            // RFC 7009 § 2.1: revoking a token twice is harmless, so the request may be retried.
            _ = try await session.channel.post(
                "oauth2/v2.0/revoke", ["token": token.value, "token_type_hint": token.hint], .repeatable,
                correlationID: UUID().correlationValue)
            return SignOutResult(account: account, scope: scope, isRevokedOnServer: true, revocationError: nil)
        } catch let error as LatchError {
            configuration.logger.log(
                .warning, "signed out locally, but the server did not revoke the session: \(error.code.name)")
            return SignOutResult(account: account, scope: scope, isRevokedOnServer: false, revocationError: error)
        }
    }
}
