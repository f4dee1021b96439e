import Foundation

/// Password reset waiting for the one-time code.
public struct ResetPasswordCodeRequiredState: Sendable {
    let flow: FlowContext
    let token: String
    /// The account's username.
    public let username: String
    /// Where the code went.
    public let delivery: CodeDelivery

    /// The flow's correlation id, sent with each of its requests and carried by each of its errors.
    public var correlationID: UUID { flow.correlationID }

    static func challenge(_ flow: FlowContext, token: String, username: String) async throws -> ResetPasswordCodeRequiredState {
        let (next, delivery) = try await flow.session.requestCode(flow, "resetpassword/v1.0/challenge", token: token)
        return ResetPasswordCodeRequiredState(flow: flow, token: next, username: username, delivery: delivery)
    }

    /// Submits the code; a wrong code leaves this state usable. Never re-sent automatically.
    /// - Returns: ``ResetPasswordStep/passwordRequired(_:)``.
    public func submitCode(_ code: String) async throws -> ResetPasswordStep {
        try await flow.step("submit_code") {
            let code = try Input.code(code)
            let reply = try await flow.post(
                "resetpassword/v1.0/continue", ["continuation_token": token, "grant_type": "oob", "oob": code],
                .stateChanging)
            return .passwordRequired(
                ResetPasswordRequiredState(flow: flow, token: try flow.session.continuation(reply), username: username))
        }
    }

    /// Sends a new code; the previous one stops working.
    public func resendCode() async throws -> ResetPasswordCodeRequiredState {
        try await flow.step("resend_code", outcome: { _ in "code_sent" }) {
            try await Self.challenge(flow, token: token, username: username)
        }
    }
}

/// Password reset waiting for the new password.
public struct ResetPasswordRequiredState: Sendable {
    let flow: FlowContext
    let token: String
    /// The account's username.
    public let username: String

    /// The flow's correlation id, sent with each of its requests and carried by each of its errors.
    public var correlationID: UUID { flow.correlationID }

    /// Sets the new password (every other session of the account ends) and waits for completion.
    /// - Returns: ``ResetPasswordStep/passwordReset(_:)``.
    /// - Throws: ``LatchError/Code/weakPassword`` (the state stays usable), …
    public func submitPassword(_ newPassword: String) async throws -> ResetPasswordStep {
        try await flow.step("submit_password") {
            guard !newPassword.isEmpty else { throw Input.missing("password") }
            let submitted = try await flow.post(
                "resetpassword/v1.0/submit", ["continuation_token": token, "new_password": newPassword], .stateChanging)
            return .passwordReset(try await pollCompletion(token: try flow.session.continuation(submitted), submitted))
        }
    }

    private func pollCompletion(token: String, _ submitted: NativeAuthReply) async throws -> SignInAfterResetPasswordState {
        var next = token
        let interval = TimeInterval(max(1, submitted.pollInterval ?? 1))
        for _ in 0..<30 {
            let poll = try await flow.post("resetpassword/v1.0/poll_completion", ["continuation_token": next], .repeatable)
            next = try flow.session.continuation(poll)
            switch poll.status {
            case "succeeded":
                return SignInAfterResetPasswordState(flow: flow, token: next, username: username)
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
    let flow: FlowContext
    let token: String
    /// The account's username.
    public let username: String

    /// The flow's correlation id, sent with each of its requests and carried by each of its errors;
    /// the sign-in continues the reset's.
    public var correlationID: UUID { flow.correlationID }

    /// Signs in with the reset's continuation token.
    /// - Returns: ``SignInStep/completed(_:)`` once signed in, or the second step the server asks
    ///   for (``SignInStep/awaitingMFA(_:)``, ``SignInStep/strongAuthMethodRegistrationRequired(authMethods:state:)``).
    public func signIn(scopes: [String]? = nil) async throws -> SignInStep {
        let signIn = flow.continuing(as: .signIn)
        return try await signIn.step("after_reset_password") {
            try await signIn.session.signInWithContinuation(signIn, token: token, username: username, scopes: scopes)
        }
    }
}
