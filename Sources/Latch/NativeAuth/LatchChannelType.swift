/// The channel a one-time code was sent through. Mirrors MSAL's `MSALNativeAuthChannelType`.
public struct LatchChannelType: Sendable, Hashable, CustomStringConvertible {
    /// The channel name, e.g. `email`.
    public let value: String

    /// Wraps a channel name (`challenge_channel`).
    public init(value: String) { self.value = value.lowercased() }

    /// An e-mail address.
    public static let email = LatchChannelType(value: "email")
    /// A phone number.
    public static let sms = LatchChannelType(value: "sms")

    /// Whether the code went to an e-mail address (MSAL `isEmailType`).
    public var isEmailType: Bool { self == .email }
    /// Whether the code went to a phone number (MSAL `isSMSType`).
    public var isSMSType: Bool { self == .sms }

    public var description: String { value }
}
