/// A `challenge_type` token of the native-auth protocol: how the client can prove the user.
public struct ChallengeType: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The wire value.
    public let rawValue: String
    /// Wraps a wire value.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The wire value.
    public var description: String { rawValue }

    /// A one-time code sent out of band (e-mail or SMS).
    public static let oob = ChallengeType(rawValue: "oob")
    /// A password.
    public static let password = ChallengeType(rawValue: "password")
    /// The client can fall back to a browser; mandatory in every request.
    public static let redirect = ChallengeType(rawValue: "redirect")

    /// Parses the space-separated list of a `challenge_type` parameter.
    public static func parseList(_ text: String) -> [ChallengeType] {
        text.split(separator: " ").map { ChallengeType(rawValue: String($0)) }
    }
}
