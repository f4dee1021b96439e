import Foundation
import LatchWire

/// The first step of a sign-up: the code is on its way.
public enum SignUpStartResult: Sendable {
    /// Submit the e-mail code.
    case codeRequired(SignUpCodeRequiredState)
}

/// What a sign-up needs after a successful step.
public enum SignUpStep: Sendable {
    /// The account exists; sign in with ``SignInAfterSignUpState/signIn(scopes:)``.
    case completed(SignInAfterSignUpState)
    /// Submit a password.
    case passwordRequired(SignUpPasswordRequiredState)
    /// Submit these attributes.
    case attributesRequired(SignUpAttributesRequiredState, required: [RequiredAttribute])
}

/// Sign-up waiting for the e-mail code.
public struct SignUpCodeRequiredState: Sendable {
    let session: LatchSession
    let token: String
    /// The address being verified.
    public let username: String
    /// Where the code went.
    public let delivery: CodeDelivery

    static func challenge(session: LatchSession, token: String, username: String) async throws -> SignUpCodeRequiredState {
        let (next, delivery) = try await session.requestCode("signup/v1.0/challenge", token: token)
        return SignUpCodeRequiredState(session: session, token: next, username: username, delivery: delivery)
    }

    /// Submits the code. A wrong code leaves this state usable for another try.
    ///
    /// A code submission is never re-sent automatically after it may have reached the server; on a
    /// network error call this again — if the first attempt had been applied, the answer is
    /// ``LatchError/Code/invalidFlowState`` and the flow starts over.
    /// - Throws: ``LatchError`` — ``LatchError/Code/invalidCode``, ``LatchError/Code/codeExpired``,
    ///   ``LatchError/Code/codeAttemptsExceeded``, ``LatchError/Code/userAlreadyExists``, …
    public func submitCode(_ code: String) async throws -> SignUpStep {
        let code = try Input.code(code)
        return try await SignUpContinuation.submit(
            session: session, username: username,
            form: ["continuation_token": token, "grant_type": "oob", "oob": code])
    }

    /// Sends a new code; the previous one stops working.
    public func resendCode() async throws -> SignUpCodeRequiredState {
        try await Self.challenge(session: session, token: token, username: username)
    }
}

/// Sign-up waiting for a password.
public struct SignUpPasswordRequiredState: Sendable {
    let session: LatchSession
    let token: String
    /// The address being signed up.
    public let username: String

    /// Submits the password.
    /// - Throws: ``LatchError/Code/weakPassword`` (``LatchError/suberror`` names the rule; the state stays usable), …
    public func submitPassword(_ password: String) async throws -> SignUpStep {
        guard !password.isEmpty else { throw Input.missing("password") }
        return try await SignUpContinuation.submit(
            session: session, username: username,
            form: ["continuation_token": token, "grant_type": "password", "password": password])
    }
}

/// Sign-up waiting for attributes.
public struct SignUpAttributesRequiredState: Sendable {
    let session: LatchSession
    let token: String
    /// The address being signed up.
    public let username: String

    /// Submits attributes, e.g. `["displayName": "Ada"]`.
    /// - Throws: ``LatchError/Code/invalidAttributes`` (``LatchError/invalidAttributes`` names them), …
    public func submitAttributes(_ attributes: [String: String]) async throws -> SignUpStep {
        guard !attributes.isEmpty else { throw Input.missing("attributes") }
        return try await SignUpContinuation.submit(
            session: session, username: username,
            form: ["continuation_token": token, "grant_type": "attributes", "attributes": try Input.attributesJSON(attributes)])
    }
}

/// A finished sign-up, ready to sign in without asking again.
public struct SignInAfterSignUpState: Sendable {
    let session: LatchSession
    let token: String
    /// The new account's username.
    public let username: String

    /// Signs in with the sign-up's continuation token.
    public func signIn(scopes: [String]? = nil) async throws -> LatchTokenResult {
        try await session.signInWithContinuation(token: token, username: username, scopes: scopes)
    }
}

/// The `signup/v1.0/continue` step shared by code, password and attributes.
enum SignUpContinuation {
    static func submit(session: LatchSession, username: String, form: [String: String?]) async throws -> SignUpStep {
        do {
            let reply = try await session.channel.post("signup/v1.0/continue", form, .stateChanging)
            return .completed(
                SignInAfterSignUpState(session: session, token: try session.continuation(reply), username: username))
        } catch let error as LatchError {
            guard let next = error.continuationToken else { throw error }
            switch error.oauthError {
            case NativeAuthErrorCode.credentialRequired.rawValue:
                return .passwordRequired(SignUpPasswordRequiredState(session: session, token: next, username: username))
            case NativeAuthErrorCode.attributesRequired.rawValue:
                return .attributesRequired(
                    SignUpAttributesRequiredState(session: session, token: next, username: username),
                    required: error.requiredAttributes)
            default:
                throw error
            }
        }
    }
}
