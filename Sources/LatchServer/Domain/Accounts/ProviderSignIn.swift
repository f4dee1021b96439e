import Foundation

/// A sign-in (or link) with an identity provider's ID token, as `signInWithIdp` /
/// `verifyAssertion` carry it (`reference/firebase-auth-protocol.md` § 4, rows `signIn(with:)`,
/// `reauthenticate(with:)` and `link(with:)`).
public struct ProviderSignIn: Sendable {
    /// `requestUri`: required, otherwise unused (no redirect flow here).
    public var requestURI: String?
    /// `providerId` from `postBody`.
    public var providerID: String?
    /// `id_token` from `postBody`: the provider's ID token.
    public var idToken: String?
    /// `nonce` from `postBody`: the raw nonce, whose SHA-256 the token's `nonce` claim carries.
    public var nonce: String?
    /// `autoCreate`: whether an unknown identity makes an account (reauthentication sends `false`).
    public var autoCreate = true
    /// `idToken`: the account's own ID token, to link the identity to that account.
    public var accountIDToken: String?

    /// An empty request.
    public init() {}
}

/// What a ``ProviderSignIn`` came to.
public enum ProviderSignInOutcome: Sendable {
    /// Signed in (or linked): the session, what the provider asserted, and whether the account is new.
    case signedIn(AccountSession, ProviderAssertion, isNewUser: Bool)
    /// The identity is new but another account has its e-mail address: no session; the app must
    /// sign in to that account and link (`needConfirmation`, the SDK's 17012).
    case needsConfirmation(ProviderAssertion)
}
