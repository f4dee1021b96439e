/// What a sign-in needs next.
public enum SignInStartResult: Sendable {
    /// Signed in.
    case completed(LatchTokenResult)
    /// Submit the e-mail code.
    case codeRequired(SignInCodeRequiredState)
    /// Submit the password.
    case passwordRequired(SignInPasswordRequiredState)
}

/// Sign-in waiting for the e-mail code.
public struct SignInCodeRequiredState: Sendable {
    let session: LatchSession
    let token: String
    /// The account's username.
    public let username: String
    let scopes: [String]
    /// Where the code went.
    public let delivery: CodeDelivery

    /// Submits the code; a wrong code leaves this state usable. Never re-sent automatically.
    /// - Throws: ``LatchError/Code/invalidCode``, ``LatchError/Code/codeExpired``, ``LatchError/Code/codeAttemptsExceeded``, …
    public func submitCode(_ code: String) async throws -> LatchTokenResult {
        let code = try Input.code(code)
        return try await session.token(
            ["grant_type": "oob", "continuation_token": token, "oob": code], username: username, scopes: scopes)
    }

    /// Sends a new code; the previous one stops working.
    public func resendCode() async throws -> SignInCodeRequiredState {
        guard case .codeRequired(let state) = try await session.signInChallenge(token: token, username: username, scopes: scopes)
        else { throw LatchError(code: .unexpectedResponse, message: "The server asked for a password instead of a code.") }
        return state
    }
}

/// Sign-in waiting for the password.
public struct SignInPasswordRequiredState: Sendable {
    let session: LatchSession
    let token: String
    /// The account's username.
    public let username: String
    let scopes: [String]

    /// Submits the password; a wrong password leaves this state usable for another try.
    /// - Throws: ``LatchError/Code/wrongPassword``, …
    public func submitPassword(_ password: String) async throws -> LatchTokenResult {
        guard !password.isEmpty else { throw Input.missing("password") }
        return try await session.token(
            ["grant_type": "password", "continuation_token": token, "password": password], username: username,
            scopes: scopes)
    }
}
