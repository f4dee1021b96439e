/// What an outbox message is for, so its e-mail can be rendered from the matching template
/// (``MailTemplate``): the codes of the native-auth flows and the out-of-band links of the
/// account API.
///
/// A growing set of values, so a struct of static constants rather than an enum; the raw value
/// is what the seal keeps.
///
/// ```swift
/// let kind = MessageKind.signUpCode
/// kind.carriesLink   // false
/// ```
public struct MessageKind: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The stored name.
    public let rawValue: String

    /// A kind named `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The code that verifies the address of a sign-up.
    public static let signUpCode = MessageKind(rawValue: "sign_up")
    /// The code of a sign-in by one-time code.
    public static let signInCode = MessageKind(rawValue: "sign_in")
    /// The code of a password reset flow.
    public static let passwordResetCode = MessageKind(rawValue: "password_reset")
    /// The code of a second factor at sign-in (MFA).
    public static let secondFactorCode = MessageKind(rawValue: "second_factor")
    /// The code that proves a strong authentication method being registered (MFA enrolment).
    public static let methodRegistrationCode = MessageKind(rawValue: "method_registration")
    /// The link that verifies an account's address (account API `VERIFY_EMAIL`).
    public static let verifyEmailLink = MessageKind(rawValue: "oob_verify_email")
    /// The link that sets a new password (account API `PASSWORD_RESET`).
    public static let passwordResetLink = MessageKind(rawValue: "oob_password_reset")
    /// The link, sent to a new address, that makes it the account's (`VERIFY_AND_CHANGE_EMAIL`).
    public static let verifyAndChangeEmailLink = MessageKind(rawValue: "oob_verify_and_change_email")
    /// The link that signs in with the address alone (`EMAIL_SIGNIN`).
    public static let emailSignInLink = MessageKind(rawValue: "oob_email_sign_in")

    /// Every kind the server sends.
    public static let all: [MessageKind] = [
        .signUpCode, .signInCode, .passwordResetCode, .secondFactorCode, .methodRegistrationCode, .verifyEmailLink,
        .passwordResetLink, .verifyAndChangeEmailLink, .emailSignInLink,
    ]

    /// Whether the message carries an out-of-band link rather than a code to type.
    public var carriesLink: Bool { rawValue.hasPrefix("oob_") }

    public var description: String { rawValue }
}
