/// What a `challenge` step tells the client to do next.
public enum ChallengeOutcome: Sendable, Equatable {
    /// Send the password with this token.
    case password(continuationToken: String)
    /// A code went out; submit it with this token.
    case oneTimeCode(continuationToken: String, channel: DeliveryChannel, targetLabel: String, codeLength: Int, interval: Int)
    /// The client cannot finish natively.
    case browserRequired(BrowserReason)
}

/// Where a one-time code was sent.
public enum DeliveryChannel: String, Sendable, Equatable, Codable, CaseIterable {
    /// An e-mail message.
    case email
    /// A text message to an E.164 phone number.
    case sms
}

/// Why a flow cannot finish without a browser.
public enum BrowserReason: Sendable, Equatable {
    /// The flow needs a one-time code and the client cannot collect one.
    case oneTimeCodeUnsupported
    /// The tenant requires a password and the client cannot collect one.
    case passwordRequiredButUnsupported
    /// The client can collect neither a password nor a one-time code.
    case noNativeCredential
    /// The account has no password and the client cannot take a code.
    case noUsableCredentialForAccount
    /// A second factor is required and the client did not declare `mfa_required`.
    case secondFactorUnsupported
    /// A second factor is required, the user has no method yet, and the client did not declare
    /// `registration_required`.
    case methodRegistrationUnsupported

    /// A sentence for developers.
    public var explanation: String {
        switch self {
        case .oneTimeCodeUnsupported: "e-mail verification needs the oob challenge type"
        case .passwordRequiredButUnsupported: "this tenant requires a password the client cannot collect"
        case .noNativeCredential: "the client supports neither password nor oob"
        case .noUsableCredentialForAccount: "the account has no password and the client cannot take a code"
        case .secondFactorUnsupported: "a second factor is required and the client did not declare mfa_required"
        case .methodRegistrationUnsupported:
            "a second factor is required, the user has no method yet, and the client did not declare registration_required"
        }
    }
}

/// The start of a flow: its first continuation token, or the browser.
public enum FlowStart: Sendable, Equatable {
    /// Continue with this token.
    case started(continuationToken: String)
    /// The client cannot run this flow natively.
    case browserRequired(BrowserReason)
}

/// A successful `continue` step of sign-up or password reset.
public struct ContinuationGrant: Sendable, Equatable {
    /// The next token.
    public var continuationToken: String
    /// Its lifetime in seconds.
    public var expiresIn: Int
}
