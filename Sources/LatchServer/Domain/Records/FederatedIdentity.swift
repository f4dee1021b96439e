import Foundation

/// An account's identity at an OIDC identity provider: the provider's subject (`sub`, the raw id)
/// linked to one account of the tenant, with the profile the provider last asserted. At most one
/// account holds a given (tenant, provider, raw id); `getAccountInfo` lists it in
/// `providerUserInfo` (`reference/firebase-auth-protocol.md` § 3).
public struct FederatedIdentity: Sendable, Equatable {
    /// The tenant.
    public var tenantID: String
    /// The provider id (`oidc.…`).
    public var providerID: String
    /// The provider's `sub` for the person.
    public var rawID: String
    /// The account it is linked to.
    public var userID: String
    /// The e-mail address the provider asserted, if any.
    public var email: String?
    /// The name the provider asserted, if any.
    public var displayName: String?
    /// The picture URL the provider asserted, if any.
    public var photoURL: String?
    /// When it was linked.
    public var createdAt: Date

    /// Creates a record.
    public init(
        tenantID: String, providerID: String, rawID: String, userID: String, email: String?, displayName: String?,
        photoURL: String?, createdAt: Date
    ) {
        self.tenantID = tenantID
        self.providerID = providerID
        self.rawID = rawID
        self.userID = userID
        self.email = email
        self.displayName = displayName
        self.photoURL = photoURL
        self.createdAt = createdAt
    }
}
