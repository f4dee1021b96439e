import Foundation

/// How the account API reads the parts of a ``User`` it adds: anonymous accounts, accounts made by
/// custom tokens or identity providers, the photo URL.
///
/// An anonymous account has no address of its own; it is stored under a placeholder in the
/// reserved `.invalid` domain (RFC 2606 § 2), unique per account and never shown, and is marked
/// by an attribute.
public enum AccountProfile {
    /// The attribute holding the profile photo URL.
    public static let photoURLAttribute = "photoUrl"
    /// The attribute marking an anonymous account.
    static let providerAttribute = "signInProvider"
    /// The provider id of anonymous accounts.
    public static let anonymousProvider = "anonymous"
    /// The provider id of e-mail and password accounts.
    public static let passwordProvider = "password"

    /// The placeholder address of the anonymous account `id`.
    static func anonymousAddress(id: String) -> String { "\(id)@anonymous.invalid" }

    /// Whether `user` is anonymous.
    public static func isAnonymous(_ user: User) -> Bool { user.attributes[providerAttribute] == anonymousProvider }

    /// The address to show, or `nil` for an account without one of its own (anonymous, made by a
    /// custom token, or by an identity provider that asserted no address).
    public static func email(of user: User) -> String? {
        isAnonymous(user) || isCustom(user) || user.email.hasSuffix(federatedSuffix) ? nil : user.email
    }

    /// `anonymous`, `custom`, the `oidc.…` provider an identity provider's sign-in made the account
    /// with, or `password`.
    public static func signInProvider(of user: User) -> String {
        if let provider = federatedProvider(of: user) { return provider }
        return isAnonymous(user) ? anonymousProvider : isCustom(user) ? customProvider : passwordProvider
    }

    /// The `oidc.…` provider whose sign-in made the account (or upgraded it from anonymous), if any.
    public static func federatedProvider(of user: User) -> String? {
        user.attributes[providerAttribute].flatMap { $0.hasPrefix(IdentityProvider.prefix) ? $0 : nil }
    }

    /// The reserved-domain suffix of the placeholder address of an account an identity provider
    /// made without an e-mail address (RFC 2606 § 2).
    static let federatedSuffix = "@federated.invalid"

    /// The placeholder address of account `id`, made by an identity provider that asserted no address.
    static func federatedAddress(id: String) -> String { "\(id)\(federatedSuffix)" }

    /// The sign-in provider of accounts a custom token made, which have no e-mail address.
    public static let customProvider = "custom"

    /// The placeholder address of an account a custom token made: it names no mailbox and no
    /// wire signs in with it.
    static func customAddress(id: String) -> String { "\(id)@custom.invalid" }

    /// The attribute marking an account that signed in with an e-mail link at least once.
    static let emailLinkAttribute = "emailLinkSignIn"
    /// The sign-in method of e-mail link sign-in, as `createAuthUri` lists it.
    public static let emailLinkMethod = "emailLink"

    /// Whether the account has signed in with an e-mail link.
    public static func usesEmailLink(_ user: User) -> Bool { user.attributes[emailLinkAttribute] == "true" }

    /// Whether a custom token made the account (it has no e-mail address).
    public static func isCustom(_ user: User) -> Bool { user.attributes[providerAttribute] == customProvider }
}
