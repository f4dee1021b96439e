import Foundation

/// What an identity provider's verified ID token asserts about a person
/// (`reference/firebase-auth-protocol.md` § 4, row `signIn(with:)`).
public struct ProviderAssertion: Sendable {
    /// The provider id (`oidc.…`).
    public var providerID: String
    /// The token's `sub`: the person's raw id at the provider.
    public var subject: String
    /// The token's `email`, normalized, when it is a plausible address.
    public var email: String?
    /// The token's `email_verified` (a boolean, or the string `"true"` some providers send).
    public var emailVerified: Bool
    /// The token's `name`.
    public var displayName: String?
    /// The token's `picture`.
    public var photoURL: String?
    /// The token's claims as a JSON object text, for `rawUserInfo`.
    public var rawUserInfo: String
    /// The ID token itself, for `oauthIdToken`.
    public var idToken: String
}
