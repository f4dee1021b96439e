/// A `capabilities` token: flows the client can finish natively beyond sign-in.
public struct Capability: RawRepresentable, Hashable, Sendable, Codable {
    /// The wire value.
    public let rawValue: String
    /// Wraps a wire value.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The client can complete a second factor.
    public static let mfaRequired = Capability(rawValue: "mfa_required")
    /// The client can register a strong authentication method.
    public static let registrationRequired = Capability(rawValue: "registration_required")
}
