/// How a sign-in attempt ended, for metrics and audit. Never carries secrets.
public enum SignInOutcome: String, Sendable, CaseIterable {
    case success
    case invalidCredentials = "invalid_credentials"
    case userNotFound = "user_not_found"
    case invalidCode = "invalid_code"
    case codeExpired = "code_expired"
    case codeAttemptsExceeded = "code_attempts_exceeded"
    case userDisabled = "user_disabled"
    case throttled
    case otherFailure = "other_failure"

    /// The outcome that a failure represents.
    init(_ failure: AuthFailure) {
        switch failure {
        case .invalidCredentials: self = .invalidCredentials
        case .userNotFound: self = .userNotFound
        case .invalidCode: self = .invalidCode
        case .codeExpired: self = .codeExpired
        case .codeAttemptsExceeded: self = .codeAttemptsExceeded
        case .userDisabled: self = .userDisabled
        case .tooManyAttempts: self = .throttled
        default: self = .otherFailure
        }
    }
}
