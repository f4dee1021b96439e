import Foundation

internal import LatchWire

extension LatchSession {
    /// The second step a `/token` error asks for: `invalid_grant` with `mfa_required` or
    /// `registration_required` and a continuation token, after which the user's methods are
    /// introspected. `nil` for any other error (without a continuation token, `mfa_required` stays
    /// the error it is, as in MSAL).
    func secondStep(after error: LatchError, _ flow: FlowContext, username: String, scopes: [String]) async throws
        -> SignInStep?
    {
        guard error.oauthError == NativeAuthErrorCode.invalidGrant.rawValue, let token = error.continuationToken,
            !token.isEmpty
        else { return nil }
        switch error.suberror {
        case NativeAuthSuberror.mfaRequired.rawValue:
            let (next, methods) = try await introspect(flow, "oauth2/v2.0/introspect", token: token)
            return .awaitingMFA(
                MFARequiredState(flow: flow, token: next, username: username, scopes: scopes, authMethods: methods))
        case NativeAuthSuberror.registrationRequired.rawValue:
            let (next, methods) = try await introspect(flow, "register/v1.0/introspect", token: token)
            return .strongAuthMethodRegistrationRequired(
                authMethods: methods, state: RegisterStrongAuthState(flow: flow, token: next, username: username))
        default:
            return nil
        }
    }

    /// Asks an introspection endpoint for the user's methods.
    /// - Returns: the next continuation token and the methods, never empty.
    /// - Throws: ``LatchError/Code/browserRequired`` for a `redirect` answer,
    ///   ``LatchError/Code/unexpectedResponse`` for an answer without methods or with a method of
    ///   an unknown challenge type.
    private func introspect(_ flow: FlowContext, _ path: String, token: String) async throws
        -> (token: String, methods: [LatchAuthMethod])
    {
        let reply = try await flow.post(path, ["continuation_token": token], .repeatable)
        let next = try continuation(reply)
        guard let wire = reply.methods, !wire.isEmpty else {
            throw LatchError(code: .unexpectedResponse, message: "The server named no authentication method.")
        }
        return (next, try wire.map(LatchAuthMethod.init))
    }
}

extension LatchError {
    /// Whether the server asks for a second factor or a registration (again).
    var asksForSecondStep: Bool {
        oauthError == NativeAuthErrorCode.invalidGrant.rawValue
            && (suberror == NativeAuthSuberror.mfaRequired.rawValue
                || suberror == NativeAuthSuberror.registrationRequired.rawValue)
    }

    /// What a step that finishes the second factor throws when the server asks for one again, as
    /// MSAL does (a general error): ``Code/unexpectedResponse``, with the server's fields.
    func secondStepAgain() -> LatchError {
        LatchError(
            code: .unexpectedResponse, message: "The server asked for another second step after the second factor.",
            failureReason: failureReason, correlationID: correlationID, httpStatus: httpStatus, oauthError: oauthError,
            suberror: suberror, serverErrorCodes: serverErrorCodes)
    }
}
