import Foundation

/// Sign-in waiting for the one-time code.
public struct SignInCodeRequiredState: Sendable {
    let flow: FlowContext
    let token: String
    /// The account's username.
    public let username: String
    let scopes: [String]
    /// Where the code went.
    public let delivery: CodeDelivery

    init(flow: FlowContext, token: String, username: String, scopes: [String], delivery: CodeDelivery) {
        self.flow = flow
        self.token = token
        self.username = username
        self.scopes = scopes
        self.delivery = delivery
    }

    /// The flow's correlation id, sent with each of its requests and carried by each of its errors.
    public var correlationID: UUID { flow.correlationID }

    /// Submits the code; a wrong code leaves this state usable. Never re-sent automatically.
    /// - Returns: ``SignInStep/completed(_:)`` once signed in, or the second step the server asks
    ///   for (``SignInStep/awaitingMFA(_:)``, ``SignInStep/strongAuthMethodRegistrationRequired(authMethods:state:)``).
    /// - Throws: ``LatchError/Code/invalidCode``, ``LatchError/Code/codeExpired``, ``LatchError/Code/codeAttemptsExceeded``, …
    public func submitCode(_ code: String) async throws -> SignInStep {
        try await flow.step("submit_code") {
            let code = try Input.code(code)
            return try await flow.session.signInGrant(
                flow, ["grant_type": "oob", "continuation_token": token, "oob": code], username: username, scopes: scopes)
        }
    }

    /// Sends a new code; the previous one stops working.
    public func resendCode() async throws -> SignInCodeRequiredState {
        try await flow.step("resend_code", outcome: { _ in "code_sent" }) {
            guard
                case .codeRequired(let state) = try await flow.session.signInChallenge(
                    flow, token: token, username: username, scopes: scopes)
            else { throw LatchError(code: .unexpectedResponse, message: "The server asked for a password instead of a code.") }
            return state
        }
    }
}

/// Sign-in waiting for the password.
public struct SignInPasswordRequiredState: Sendable {
    let flow: FlowContext
    let token: String
    /// The account's username.
    public let username: String
    let scopes: [String]

    init(flow: FlowContext, token: String, username: String, scopes: [String]) {
        self.flow = flow
        self.token = token
        self.username = username
        self.scopes = scopes
    }

    /// The flow's correlation id, sent with each of its requests and carried by each of its errors.
    public var correlationID: UUID { flow.correlationID }

    /// Submits the password; a wrong password leaves this state usable for another try.
    /// - Returns: ``SignInStep/completed(_:)`` once signed in, or the second step the server asks
    ///   for (``SignInStep/awaitingMFA(_:)``, ``SignInStep/strongAuthMethodRegistrationRequired(authMethods:state:)``).
    /// - Throws: ``LatchError/Code/wrongPassword``, …
    public func submitPassword(_ password: String) async throws -> SignInStep {
        try await flow.step("submit_password") {
            try await submit(password)
        }
    }

    /// The password step without its own log line (``LatchClient/signIn(username:password:scopes:correlationID:)``
    /// logs the sign-in it is part of).
    func submit(_ password: String) async throws -> SignInStep {
        guard !password.isEmpty else { throw Input.missing("password") }
        return try await flow.session.signInGrant(
            flow, ["grant_type": "password", "continuation_token": token, "password": password], username: username,
            scopes: scopes)
    }
}
