import Foundation

/// An account an administrator creates (`accounts`, `reference/firebase-auth-protocol.md` § 6):
/// an optional id (a new one is made without it), and an optional e-mail and password.
public struct NewAccount: Sendable {
    /// The account id (`localId`), 1 to 128 characters; `nil` makes one.
    public var id: String?
    /// The e-mail address.
    public var email: String?
    /// A password, hashed under the tenant's policy.
    public var password: String?
    /// The display name.
    public var displayName: String?
    /// The photo URL.
    public var photoURL: String?
    /// Whether the address counts as verified.
    public var emailVerified = false
    /// Whether the account starts disabled.
    public var disabled = false

    /// An empty request: an account with a new id and nothing else.
    public init() {}
}
