import Foundation
internal import LatchWire

/// Sign-up waiting for the one-time code.
public struct SignUpCodeRequiredState: Sendable {
    let flow: FlowContext
    let token: String
    /// The address being verified.
    public let username: String
    /// Where the code went.
    public let delivery: CodeDelivery

    /// The flow's correlation id, sent with each of its requests and carried by each of its errors.
    public var correlationID: UUID { flow.correlationID }

    static func challenge(_ flow: FlowContext, token: String, username: String) async throws -> SignUpCodeRequiredState {
        let (next, delivery) = try await flow.session.requestCode(flow, "signup/v1.0/challenge", token: token)
        return SignUpCodeRequiredState(flow: flow, token: next, username: username, delivery: delivery)
    }

    /// Submits the code. A wrong code leaves this state usable for another try.
    ///
    /// A code submission is never re-sent automatically after it may have reached the server; on a
    /// network error call this again — if the first attempt had been applied, the answer is
    /// ``LatchError/Code/invalidFlowState`` and the flow starts over.
    /// - Throws: ``LatchError`` — ``LatchError/Code/invalidCode``, ``LatchError/Code/codeExpired``,
    ///   ``LatchError/Code/codeAttemptsExceeded``, ``LatchError/Code/userAlreadyExists``, …
    public func submitCode(_ code: String) async throws -> SignUpStep {
        try await flow.step("submit_code") {
            let code = try Input.code(code)
            return try await SignUpContinuation.submit(
                flow, username: username, form: ["continuation_token": token, "grant_type": "oob", "oob": code])
        }
    }

    /// Sends a new code; the previous one stops working.
    public func resendCode() async throws -> SignUpCodeRequiredState {
        try await flow.step("resend_code", outcome: { _ in "code_sent" }) {
            try await Self.challenge(flow, token: token, username: username)
        }
    }
}

/// Sign-up waiting for a password.
public struct SignUpPasswordRequiredState: Sendable {
    let flow: FlowContext
    let token: String
    /// The address being signed up.
    public let username: String

    /// The flow's correlation id, sent with each of its requests and carried by each of its errors.
    public var correlationID: UUID { flow.correlationID }

    /// Submits the password.
    /// - Throws: ``LatchError/Code/weakPassword`` (``LatchError/suberror`` names the rule; the state stays usable), …
    public func submitPassword(_ password: String) async throws -> SignUpStep {
        try await flow.step("submit_password") {
            guard !password.isEmpty else { throw Input.missing("password") }
            return try await SignUpContinuation.submit(
                flow, username: username, form: ["continuation_token": token, "grant_type": "password", "password": password])
        }
    }
}

/// Sign-up waiting for attributes.
public struct SignUpAttributesRequiredState: Sendable {
    let flow: FlowContext
    let token: String
    /// The address being signed up.
    public let username: String

    /// The flow's correlation id, sent with each of its requests and carried by each of its errors.
    public var correlationID: UUID { flow.correlationID }

    /// Submits attributes, e.g. `["displayName": "Ada"]`.
    /// - Throws: ``LatchError/Code/invalidAttributes`` (``LatchError/invalidAttributes`` names them), …
    public func submitAttributes(_ attributes: [String: String]) async throws -> SignUpStep {
        try await flow.step("submit_attributes") {
            guard !attributes.isEmpty else { throw Input.missing("attributes") }
            return try await SignUpContinuation.submit(
                flow, username: username,
                form: [
                    "continuation_token": token, "grant_type": "attributes", "attributes": try Input.attributesJSON(attributes),
                ])
        }
    }
}

/// A finished sign-up, ready to sign in without asking again.
public struct SignInAfterSignUpState: Sendable {
    let flow: FlowContext
    let token: String
    /// The new account's username.
    public let username: String

    /// The flow's correlation id, sent with each of its requests and carried by each of its errors;
    /// the sign-in continues the sign-up's.
    public var correlationID: UUID { flow.correlationID }

    /// Signs in with the sign-up's continuation token.
    /// - Returns: ``SignInStep/completed(_:)`` once signed in, or the second step the server asks
    ///   for (``SignInStep/awaitingMFA(_:)``, ``SignInStep/strongAuthMethodRegistrationRequired(authMethods:state:)``).
    public func signIn(scopes: [String]? = nil) async throws -> SignInStep {
        let signIn = flow.continuing(as: .signIn)
        return try await signIn.step("after_sign_up") {
            try await signIn.session.signInWithContinuation(signIn, token: token, username: username, scopes: scopes)
        }
    }
}

/// The `signup/v1.0/continue` step shared by code, password and attributes.
enum SignUpContinuation {
    static func submit(_ flow: FlowContext, username: String, form: [String: String?]) async throws -> SignUpStep {
        do {
            let reply = try await flow.post("signup/v1.0/continue", form, .stateChanging)
            return .accountCreated(
                SignInAfterSignUpState(flow: flow, token: try flow.session.continuation(reply), username: username))
        } catch let error as LatchError {
            guard let next = error.continuationToken else { throw error }
            switch error.oauthError {
            case NativeAuthErrorCode.credentialRequired.rawValue:
                return .passwordRequired(SignUpPasswordRequiredState(flow: flow, token: next, username: username))
            case NativeAuthErrorCode.attributesRequired.rawValue:
                return .attributesRequired(
                    SignUpAttributesRequiredState(flow: flow, token: next, username: username),
                    required: error.requiredAttributes.map(LatchRequiredAttribute.init))
            default:
                throw error
            }
        }
    }
}

extension LatchRequiredAttribute {
    /// The SDK's value of a `required_attributes[]` entry.
    init(_ wire: RequiredAttribute) {
        self.init(name: wire.name, type: wire.type, isRequired: wire.required, regex: wire.options?.regex)
    }
}
