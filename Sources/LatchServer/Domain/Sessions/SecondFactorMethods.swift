import Foundation

/// The strong authentication methods a user can prove as a second factor: the verified methods
/// on channels the tenant offers and the server delivers, and, when the tenant says so, the
/// verified sign-in e-mail.
enum SecondFactorMethods {
    /// The id the sign-in e-mail has as a method (it has no row of its own).
    static let signInEmailID = "sign-in-email"

    /// The methods of `user` under `settings`, from `reader`, in registration order.
    static func methods(
        of user: User, settings: MFASettings, deliverable: Set<DeliveryChannel>, in reader: any StoreReading
    ) throws -> [StrongAuthMethod] {
        let channels = channels(settings, deliverable: deliverable)
        var methods = try reader.authMethods(userID: user.id, tenantID: user.tenantID)
            .filter { $0.verified && channels.contains($0.channel) && !settings.isBlocked($0.target) }
            .map { StrongAuthMethod(id: $0.id, channel: $0.channel, target: $0.target) }
        if settings.signInEmailIsMethod, user.emailVerified, channels.contains(.email),
            !settings.isBlocked(user.email), !methods.contains(where: { $0.channel == .email && $0.target == user.email })
        {
            methods.insert(StrongAuthMethod(id: signInEmailID, channel: .email, target: user.email), at: 0)
        }
        return methods
    }

    /// The channels methods may use: those the tenant offers that a transport delivers.
    static func channels(_ settings: MFASettings, deliverable: Set<DeliveryChannel>) -> [DeliveryChannel] {
        settings.channels.filter(deliverable.contains)
    }
}
