extension LatchConfiguration {
    /// A flow the app can finish natively beyond sign-in: a `capabilities` value of the
    /// native-auth protocol. Announcing one makes the server send that step instead of
    /// ``LatchError/Code/browserRequired``, so the client refuses, when it is made, any capability
    /// this version of the SDK cannot complete (see ``supported``).
    public struct Capability: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The wire value, e.g. `mfa_required`.
        public let rawValue: String
        /// Wraps a wire value.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The wire value.
        public var description: String { rawValue }

        /// Completing a second factor during sign-in: the sign-in answers
        /// ``SignInStep/awaitingMFA(_:)`` instead of ``LatchError/Code/browserRequired``.
        public static let mfaRequired = Capability(rawValue: "mfa_required")
        /// Registering a strong authentication method during sign-in: the sign-in answers
        /// ``SignInStep/strongAuthMethodRegistrationRequired(authMethods:state:)`` instead of
        /// ``LatchError/Code/browserRequired``.
        public static let registrationRequired = Capability(rawValue: "registration_required")

        /// The capabilities this version of the SDK can complete.
        public static let supported: Set<Capability> = [.mfaRequired, .registrationRequired]
    }
}
