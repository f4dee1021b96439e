/// A strong authentication method of the user: where a second-factor code can go
/// (``MFARequiredState/authMethods``), or a kind of method the user can register
/// (``SignInStep/strongAuthMethodRegistrationRequired(authMethods:state:)``). One `methods[]` entry
/// of the native-auth introspection. Mirrors MSAL's `MSALAuthMethod`.
public struct LatchAuthMethod: Sendable, Hashable {
    /// The server's id of the method, sent back when a code is requested through it.
    public let id: String
    /// How the method proves the user: the wire `challenge_type`, e.g. `oob` (a one-time code).
    public let challengeType: String
    /// Where its code goes: ``LatchChannelType/email`` or ``LatchChannelType/sms``.
    public let channel: LatchChannelType
    /// The masked contact, e.g. `a***@e***.com` or `+1******42`, when the server names one.
    public let loginHint: String?

    /// The channel, under MSAL's name (`channelTargetType.isEmailType`).
    public var channelTargetType: LatchChannelType { channel }

    /// Describes a method (for tests and previews; the SDK builds these from the server's answer).
    public init(id: String, challengeType: String = "oob", channel: LatchChannelType, loginHint: String? = nil) {
        self.id = id
        self.challengeType = challengeType
        self.channel = channel
        self.loginHint = loginHint
    }

    /// The challenge types a method may name: `challenge_type` is a strict enum in MSAL, which
    /// refuses the whole answer for any other value.
    private static let knownChallengeTypes: Set<String> = ["oob", "password", "redirect"]

    /// The SDK's value of a `methods[]` entry.
    /// - Throws: ``LatchError/Code/unexpectedResponse`` for a challenge type outside `oob`,
    ///   `password` and `redirect`.
    init(_ wire: NativeAuthReply.AuthMethod) throws {
        guard Self.knownChallengeTypes.contains(wire.challengeType) else {
            throw LatchError(
                code: .unexpectedResponse, message: "The server named an unknown challenge type '\(wire.challengeType)'.")
        }
        self.init(
            id: wire.id, challengeType: wire.challengeType, channel: LatchChannelType(value: wire.challengeChannel),
            loginHint: wire.loginHint)
    }
}
