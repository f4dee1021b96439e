import Foundation

/// A change an administrator makes to an account (`accounts:update`,
/// `reference/firebase-auth-protocol.md` § 6); `nil` leaves a field as it is.
public struct AdminAccountChange: ProfileChange, Sendable {
    /// A new e-mail address.
    public var email: String?
    /// A new password; moves `validSince` to now and ends the account's sessions.
    public var password: String?
    /// A new display name.
    public var displayName: String?
    /// A new photo URL.
    public var photoURL: String?
    /// Remove the display name.
    public var deleteDisplayName = false
    /// Remove the photo URL.
    public var deletePhotoURL = false
    /// Mark the address verified or not.
    public var emailVerified: Bool?
    /// Disable or enable the account.
    public var disabled: Bool?
    /// Tokens issued before this instant are refused and the account's sessions end
    /// (`revoke_refresh_tokens`).
    public var validSince: Date?
    /// New developer claims as JSON text (``CustomClaims``); empty or `{}` removes them.
    public var customClaims: String?
    /// Providers to unlink: `password` removes the password; `phone` has nothing to remove.
    public var deleteProviders: [String] = []

    /// An empty change.
    public init() {}
}
