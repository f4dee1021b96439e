/// The profile fields a user (``AccountChange``) and an administrator (``AdminAccountChange``)
/// may change alike, as Identity Toolkit's `accounts:update` names them
/// (`reference/firebase-auth-protocol.md` §§ 2 and 6): `email`, `password`, `displayName`,
/// `photoUrl` and `deleteAttribute`. `nil` leaves a field as it is.
public protocol ProfileChange {
    /// A new e-mail address.
    var email: String? { get set }
    /// A new password.
    var password: String? { get set }
    /// A new display name.
    var displayName: String? { get set }
    /// A new photo URL.
    var photoURL: String? { get set }
    /// Remove the display name (`deleteAttribute: ["DISPLAY_NAME"]`).
    var deleteDisplayName: Bool { get set }
    /// Remove the photo URL (`deleteAttribute: ["PHOTO_URL"]`).
    var deletePhotoURL: Bool { get set }
}
