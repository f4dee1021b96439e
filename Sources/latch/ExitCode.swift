import Latch

/// The exit status of `latch`: one documented number per error class, so scripts can branch on
/// it without parsing messages (DESIGN.md, "Interfaces that outside scripts rely on"). `latch
/// --help` prints the same table.
///
/// | Status | Class | ``LatchError/Code`` values |
/// |---|---|---|
/// | 0 | success | |
/// | 1 | anything else | unknown tenant or client, operation not allowed, unexpected answer, internal |
/// | 2 | usage | (command line: unknown subcommand or option, missing value, unreadable config file) |
/// | 3 | invalid input | wrong password, invalid code, weak password, invalid e-mail, missing input, invalid attributes, invalid scope, invalid second-factor or registration code, invalid input (a contact to register), blocked method or contact |
/// | 4 | account state | user not found, user already exists, user disabled |
/// | 5 | session ended | interaction required (also: no account signed in), flow expired, invalid flow state, code expired, code attempts exceeded |
/// | 6 | retryable | network error, server error (HTTP 5xx), too many requests |
/// | 7 | credential store | credential store error |
/// | 8 | browser required | browser required |
enum ExitCode: Int32, CaseIterable {
    /// The command succeeded.
    case success = 0
    /// Any error no other class covers.
    case failure = 1
    /// The command line was wrong.
    case usage = 2
    /// The user's input was rejected; correct it and run again.
    case invalidInput = 3
    /// The account's state prevents the operation (missing, existing, disabled).
    case accountState = 4
    /// The session or flow ended; sign in (or run the command) again.
    case sessionEnded = 5
    /// The network or server failed, or requests are throttled; retrying may succeed.
    case retryable = 6
    /// The credential store could not be read or written.
    case credentialStore = 7
    /// The flow can only be finished in a browser.
    case browserRequired = 8

    /// The class of `error`.
    init(for error: LatchError) {
        switch error.code {
        case .wrongPassword, .invalidCode, .weakPassword, .invalidEmail, .missingInput, .invalidAttributes, .invalidScope,
            .invalidChallenge, .invalidInput, .authMethodBlocked, .verificationContactBlocked, .invalidCustomToken,
            .customTokenMismatch, .invalidActionCode, .invalidCredential, .missingOrInvalidNonce:
            self = .invalidInput
        case .userNotFound, .userAlreadyExists, .userDisabled, .accountExistsWithDifferentCredential,
            .credentialAlreadyInUse, .providerAlreadyLinked, .noSuchProvider, .userMismatch:
            self = .accountState
        case .interactionRequired, .flowExpired, .invalidFlowState, .codeExpired, .codeAttemptsExceeded,
            .expiredActionCode, .requiresRecentLogin, .userTokenExpired, .invalidUserToken, .deviceCodeExpired,
            .stateMismatch, .authorizationFailed:
            self = .sessionEnded
        case .networkError, .serverError, .tooManyRequests:
            self = .retryable
        case .credentialStoreError:
            self = .credentialStore
        case .browserRequired, .browserUnavailable:
            self = .browserRequired
        default:
            self = .failure
        }
    }

    /// One line of the `--help` table.
    var summary: String {
        switch self {
        case .success: "success"
        case .failure: "any other error (unknown tenant or client, unexpected server answer, ...)"
        case .usage: "usage error (unknown subcommand or option, missing value, bad config file)"
        case .invalidInput:
            "invalid input: wrong password, invalid code, weak password, invalid e-mail,\n"
                + "       missing input, invalid attributes, invalid scope, wrong second-factor\n"
                + "       or registration code, invalid or blocked contact or method, invalid\n"
                + "       custom token, credential or e-mail link"
        case .accountState:
            "account state: user not found, user already exists, user disabled, provider\n"
                + "       already linked or not linked, credential of another account"
        case .sessionEnded:
            "session ended or interaction required (sign in again; also when no account\n"
                + "       is signed in, or the sign-in is too old for the change), flow expired,\n"
                + "       code or link expired or used up"
        case .retryable: "network or server error, too many requests (retryable)"
        case .credentialStore: "credential store error"
        case .browserRequired: "a browser is required to finish the flow"
        }
    }
}
