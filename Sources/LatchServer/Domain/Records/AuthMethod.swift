import Foundation

/// A strong authentication method of a user: a contact that one-time codes prove as a second
/// factor (the Entra "strong auth method" of native-auth MFA). Registered during sign-in
/// (`register/v1.0/*`) and saved only once its code, or its earlier verification, proved it.
public struct AuthMethod: Sendable, Equatable {
    /// Stable id, sent to the client (`methods[].id`) and back to choose the method.
    public var id: String
    /// The tenant.
    public var tenantID: String
    /// The user.
    public var userID: String
    /// How its codes travel.
    public var channel: DeliveryChannel
    /// The contact: a normalized e-mail address, or an E.164 phone number (`+14155550123`).
    public var target: String
    /// Whether a code (or the sign-in e-mail's own verification) proved the contact.
    public var verified: Bool
    /// When it was registered.
    public var createdAt: Date

    /// Creates a method record.
    public init(
        id: String, tenantID: String, userID: String, channel: DeliveryChannel, target: String, verified: Bool,
        createdAt: Date
    ) {
        self.id = id
        self.tenantID = tenantID
        self.userID = userID
        self.channel = channel
        self.target = target
        self.verified = verified
        self.createdAt = createdAt
    }
}
