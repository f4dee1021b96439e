/// The `suberror` values of the native-auth error envelope, refining `error`.
public struct NativeAuthSuberror: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The wire value, e.g. `password_too_weak`.
    public let rawValue: String
    /// Wraps a wire value.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The wire value.
    public var description: String { rawValue }

    /// The password does not meet the strength policy.
    public static let passwordTooWeak = NativeAuthSuberror(rawValue: "password_too_weak")
    /// The password is shorter than the minimum (8, NIST SP 800-63B § 3.1.1.2).
    public static let passwordTooShort = NativeAuthSuberror(rawValue: "password_too_short")
    /// The password is longer than the maximum (256).
    public static let passwordTooLong = NativeAuthSuberror(rawValue: "password_too_long")
    /// The password contains characters that are not allowed.
    public static let passwordIsInvalid = NativeAuthSuberror(rawValue: "password_is_invalid")
    /// The password was used recently.
    public static let passwordRecentlyUsed = NativeAuthSuberror(rawValue: "password_recently_used")
    /// The password is on the list of common or breached passwords.
    public static let passwordBanned = NativeAuthSuberror(rawValue: "password_banned")
    /// An attribute failed validation.
    public static let attributeValidationFailed = NativeAuthSuberror(rawValue: "attribute_validation_failed")
    /// The one-time code is wrong, expired or used up.
    public static let invalidOOBValue = NativeAuthSuberror(rawValue: "invalid_oob_value")
    /// A second factor is required.
    public static let mfaRequired = NativeAuthSuberror(rawValue: "mfa_required")
    /// A strong authentication method must be registered.
    public static let registrationRequired = NativeAuthSuberror(rawValue: "registration_required")
    /// The method is blocked by reputation checks.
    public static let providerBlockedByReputation = NativeAuthSuberror(rawValue: "provider_blocked_by_rep")
    /// The client must satisfy the protection policy named by `protection_policy` (with
    /// `unauthorized_client`), e.g. present an app attestation.
    public static let protectionPolicyRequired = NativeAuthSuberror(rawValue: "protection_policy_required")
}
