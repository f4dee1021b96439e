import Foundation

/// The first step of a password reset: the code is on its way.
public enum ResetPasswordStartResult: Sendable {
    /// Submit the e-mail code.
    case codeRequired(ResetPasswordCodeRequiredState)
}

/// Password reset waiting for the e-mail code.
public struct ResetPasswordCodeRequiredState: Sendable {
    let session: LatchSession
    let token: String
    /// The account's username.
    public let username: String
    /// Where the code went.
    public let delivery: CodeDelivery

    static func challenge(session: LatchSession, token: String, username: String) async throws -> ResetPasswordCodeRequiredState {
        let (next, delivery) = try await session.requestCode("resetpassword/v1.0/challenge", token: token)
        return ResetPasswordCodeRequiredState(session: session, token: next, username: username, delivery: delivery)
    }

    /// Submits the code; a wrong code leaves this state usable. Never re-sent automatically.
    public func submitCode(_ code: String) async throws -> ResetPasswordRequiredState {
        let code = try Input.code(code)
        let reply = try await session.channel.post(
            "resetpassword/v1.0/continue", ["continuation_token": token, "grant_type": "oob", "oob": code],
            .stateChanging)
        return ResetPasswordRequiredState(session: session, token: try session.continuation(reply), username: username)
    }

    /// Sends a new code; the previous one stops working.
    public func resendCode() async throws -> ResetPasswordCodeRequiredState {
        try await Self.challenge(session: session, token: token, username: username)
    }
}

/// Password reset waiting for the new password.
public struct ResetPasswordRequiredState: Sendable {
    let session: LatchSession
    let token: String
    /// The account's username.
    public let username: String

    /// Sets the new password (every other session of the account ends) and waits for completion.
    /// - Throws: ``LatchError/Code/weakPassword`` (the state stays usable), …
    public func submitPassword(_ newPassword: String) async throws -> SignInAfterResetPasswordState {
        guard !newPassword.isEmpty else { throw Input.missing("password") }
        let submitted = try await session.channel.post(
            "resetpassword/v1.0/submit", ["continuation_token": token, "new_password": newPassword], .stateChanging)
        var next = try session.continuation(submitted)
        let interval = TimeInterval(max(1, submitted.pollInterval ?? 1))
        for _ in 0..<30 {
            let poll = try await session.channel.post(
                "resetpassword/v1.0/poll_completion", ["continuation_token": next], .repeatable)
            next = try session.continuation(poll)
            switch poll.status {
            case "succeeded":
                return SignInAfterResetPasswordState(session: session, token: next, username: username)
            case "failed":
                throw LatchError(code: .internal, message: "The server could not complete the password reset.")
            default:
                do {
                    try await Task.sleep(nanoseconds: UInt64(interval * 1_000_000_000))
                } catch {
                    throw LatchError(code: .userCanceled, message: "The operation was cancelled.", underlyingError: error)
                }
            }
        }
        throw LatchError(code: .serverError, message: "The password reset did not complete in time.")
    }
}

/// A finished reset, ready to sign in without asking again.
public struct SignInAfterResetPasswordState: Sendable {
    let session: LatchSession
    let token: String
    /// The account's username.
    public let username: String

    /// Signs in with the reset's continuation token.
    public func signIn(scopes: [String]? = nil) async throws -> LatchTokenResult {
        try await session.signInWithContinuation(token: token, username: username, scopes: scopes)
    }
}
