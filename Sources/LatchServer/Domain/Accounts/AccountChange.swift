import Foundation

/// A profile change asked of ``AccountService/update(_:idToken:change:)``; `nil` leaves a field.
public struct AccountChange: ProfileChange, Sendable {
    /// A new e-mail address.
    public var email: String?
    /// A new password.
    public var password: String?
    /// A new display name.
    public var displayName: String?
    /// A new photo URL.
    public var photoURL: String?
    /// Remove the display name.
    public var deleteDisplayName = false
    /// Remove the photo URL.
    public var deletePhotoURL = false
    /// Answer with a fresh session.
    public var returnSecureToken = false
    /// Providers to unlink (`deleteProvider`): `oidc.…` ids remove those identities, `password`
    /// removes the password while another provider remains.
    public var deleteProviders: [String] = []

    /// An empty change.
    public init() {}
}
