extension LatchConfiguration {
    /// How the app can prove the user in a native flow: a `challenge_type` of the native-auth
    /// protocol. A growing set, so a struct of constants; the client refuses a value it cannot
    /// handle when it is made (``LatchClient/init(configuration:)``).
    public struct ChallengeType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The wire value, e.g. `oob`.
        public let rawValue: String
        /// Wraps a wire value.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The wire value.
        public var description: String { rawValue }

        /// A one-time code sent out of band (e-mail).
        public static let oob = ChallengeType(rawValue: "oob")
        /// A password.
        public static let password = ChallengeType(rawValue: "password")
        /// The app can continue in a browser. Always sent, whether listed or not.
        public static let redirect = ChallengeType(rawValue: "redirect")

        /// The challenge types this version of the SDK can complete.
        public static let supported: Set<ChallengeType> = [.oob, .password, .redirect]
    }
}
