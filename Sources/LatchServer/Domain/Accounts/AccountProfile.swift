import Foundation

/// How the account API reads the parts of a ``User`` it adds: anonymous accounts, the photo URL.
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

    /// The address to show, or `nil` for an anonymous account.
    public static func email(of user: User) -> String? { isAnonymous(user) || isCustom(user) ? nil : user.email }

    /// `anonymous` or `password`.
    public static func signInProvider(of user: User) -> String {
        isAnonymous(user) ? anonymousProvider : isCustom(user) ? customProvider : passwordProvider
    }

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
