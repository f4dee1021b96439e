import Foundation

extension LatchFirebaseAuth {
    /// Signs in with a custom token minted by the app's own server (`accounts:signInWithCustomToken`,
    /// then `accounts:lookup`); the account is created on first use.
    ///
    /// The token is an RS256 JWT signed with one of the tenant's service-account keys
    /// (`latchd custom-token mint`, or firebase-admin's `create_custom_token`).
    /// - Throws: ``LatchError`` — ``LatchError/Code/invalidCustomToken`` (malformed, expired or not
    ///   signed by the tenant), ``LatchError/Code/customTokenMismatch`` (signed for another tenant),
    ///   ``LatchError/Code/userDisabled``, and the common errors.
    @discardableResult
    public func signIn(customToken: String) async throws -> LatchUser {
        guard !customToken.isEmpty else {
            throw LatchError(code: .invalidCustomToken, message: "The custom token is empty.")
        }
        let reply = try await channel.accounts(
            "signInWithCustomToken", ["token": customToken, "returnSecureToken": true], as: FirebaseWire.TokenReply.self)
        return try await signedIn(reply, email: nil)
    }

    /// Signs in with a credential (``LatchAuthCredential``): an e-mail and password
    /// (`accounts:signInWithPassword`) or an OpenID Connect ID token (`accounts:signInWithIdp`,
    /// which creates the account on first use), then `accounts:lookup`.
    /// - Throws: ``LatchError`` — ``LatchError/Code/invalidCredential`` (the ID token is expired,
    ///   forged or for another audience), ``LatchError/Code/invalidEmail``, ``LatchError/Code/wrongPassword``,
    ///   ``LatchError/Code/operationNotAllowed`` (the provider is not configured for the tenant),
    ///   ``LatchError/Code/emailAlreadyInUse``, ``LatchError/Code/accountExistsWithDifferentCredential``
    ///   (with ``LatchError/email``: sign in the other way, then ``LatchUser/link(with:)``),
    ///   ``LatchError/Code/userDisabled``, and the common errors.
    @discardableResult
    public func signIn(with credential: LatchAuthCredential) async throws -> LatchUser {
        if case .password(let email, let password) = credential.kind {
            return try await signIn(email: email, password: password)
        }
        let (call, fields) = credential.body()
        let reply = try await channel.accounts(call, fields, as: FirebaseWire.TokenReply.self)
        try Self.checkAssertion(reply)
        return try await signedIn(reply, email: reply.email)
    }

    /// Sends an e-mail-link sign-in message to `email` (`accounts:sendOobCode`, `EMAIL_SIGNIN`);
    /// the link opens the app, which completes it with ``signIn(email:link:)``.
    /// - Parameter continueURL: where the link leads after the server's action page, when the
    ///   app wants one.
    /// - Throws: ``LatchError`` — ``LatchError/Code/invalidEmail``, ``LatchError/Code/missingEmail``,
    ///   ``LatchError/Code/operationNotAllowed``, and the common errors.
    public func sendSignInLink(toEmail email: String, continueURL: URL? = nil) async throws {
        var body: [String: any Sendable] = ["requestType": "EMAIL_SIGNIN", "email": email, "canHandleCodeInApp": true]
        if let continueURL { body["continueUrl"] = continueURL.absoluteString }
        _ = try await channel.accounts("sendOobCode", body, as: FirebaseWire.EmailReply.self)
    }

    /// Whether `link` is an e-mail-link sign-in link: it carries an `oobCode` and `mode=signIn`,
    /// directly or in a `link` or `deep_link_id` parameter. Sends nothing.
    public func isSignIn(withEmailLink link: String) -> Bool {
        Self.signInCode(in: link) != nil
    }

    /// Completes an e-mail-link sign-in (`accounts:signInWithEmailLink`, then `accounts:lookup`):
    /// signs in the account of `email`, creating it with a verified address when there is none.
    /// - Throws: ``LatchError`` — ``LatchError/Code/invalidActionCode`` (not a sign-in link, or
    ///   used already), ``LatchError/Code/expiredActionCode``, ``LatchError/Code/invalidEmail``
    ///   (the link was sent to another address), ``LatchError/Code/userDisabled``, and the common errors.
    @discardableResult
    public func signIn(email: String, link: String) async throws -> LatchUser {
        guard let code = Self.signInCode(in: link) else {
            throw LatchError(code: .invalidActionCode, message: "The link is not an e-mail sign-in link.")
        }
        let reply = try await channel.accounts(
            "signInWithEmailLink", ["email": email, "oobCode": code, "returnSecureToken": true],
            as: FirebaseWire.TokenReply.self)
        return try await signedIn(reply, email: email)
    }

    /// The `oobCode` of a sign-in link, looking inside `link` and `deep_link_id` parameters as
    /// Firebase's dynamic links nest it.
    static func signInCode(in link: String) -> String? {
        guard let components = URLComponents(string: link) else { return nil }
        let items = components.queryItems ?? []
        func value(_ name: String) -> String? { items.first { $0.name == name }?.value }
        if value("mode") == "signIn", let code = value("oobCode"), !code.isEmpty { return code }
        for nested in ["link", "deep_link_id"] {
            if let inner = value(nested), inner != link, let code = signInCode(in: inner) { return code }
        }
        return nil
    }

    /// The Apple SDK's checks of a `signInWithIdp` answer: an `errorMessage` in a 200 is an error,
    /// `needConfirmation` is ``LatchError/Code/accountExistsWithDifferentCredential``, and an
    /// answer without `providerId` is not one.
    static func checkAssertion(_ reply: FirebaseWire.TokenReply) throws {
        if let message = reply.errorMessage, !message.isEmpty {
            throw FirebaseErrorMapping.error(message: message)
        }
        if reply.needConfirmation == true {
            var error = LatchError(
                code: .accountExistsWithDifferentCredential,
                message: "An account with this e-mail exists and signs in another way.")
            error.email = reply.email
            throw error
        }
        guard let provider = reply.providerId, !provider.isEmpty else {
            throw LatchError(code: .internalError, message: "The signInWithIdp answer lacks providerId.")
        }
    }
}
