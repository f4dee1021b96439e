import Foundation

extension LatchUser {
    /// The user's ID token: from the cache while it is valid for more than
    /// ``LatchConfiguration/minimumValidity``, else refreshed at securetoken.
    /// - Parameter forceRefresh: refresh even when the cached token is valid.
    /// - Throws: ``LatchError`` — ``LatchError/Code/userTokenExpired``, ``LatchError/Code/invalidUserToken``,
    ///   ``LatchError/Code/userDisabled``, ``LatchError/Code/userNotFound`` (each signs the user out
    ///   locally), ``LatchError/Code/interactionRequired`` after a sign-out, and the common errors.
    public func getIDToken(forceRefresh: Bool = false) async throws -> String {
        try await auth.signingOutOnInvalidUser(account) { try await auth.idToken(account, forceRefresh: forceRefresh) }
    }

    /// The user's ID token with its claims, as ``getIDToken(forceRefresh:)`` gets it.
    /// - Throws: ``LatchError/Code/malformedJWT`` when the token lacks `exp`, `iat`, `auth_time` or
    ///   `firebase.sign_in_provider`; the errors of ``getIDToken(forceRefresh:)``.
    public func getIDTokenResult(forceRefresh: Bool = false) async throws -> LatchIDTokenResult {
        try LatchIDTokenResult(token: try await getIDToken(forceRefresh: forceRefresh))
    }

    /// The user's profile as the server has it now (`accounts:lookup`), stored for ``LatchFirebaseAuth/currentUser``.
    /// - Throws: ``LatchError`` — ``LatchError/Code/userNotFound``, ``LatchError/Code/userDisabled``,
    ///   ``LatchError/Code/invalidUserToken``, ``LatchError/Code/userTokenExpired`` (each signs the
    ///   user out locally), and the common errors.
    public func reload() async throws -> LatchUser {
        try await auth.signingOutOnInvalidUser(account) {
            let token = try await auth.idToken(account)
            return try await auth.refreshProfile(account, after: nil, token: token)
        }
    }

    /// Changes the e-mail address (`accounts:update` with `email`); the answer's tokens replace the
    /// stored ones.
    /// - Throws: ``LatchError`` — ``LatchError/Code/emailAlreadyInUse``, ``LatchError/Code/invalidEmail``,
    ///   ``LatchError/Code/requiresRecentLogin``, the four that sign the user out, and the common errors.
    public func updateEmail(to email: String) async throws -> LatchUser {
        try await update(["email": email])
    }

    /// Changes the password (`accounts:update` with `password`); the answer's tokens replace the
    /// stored ones.
    /// - Throws: ``LatchError`` — ``LatchError/Code/operationNotAllowed``, ``LatchError/Code/requiresRecentLogin``,
    ///   ``LatchError/Code/weakPassword`` (the rule in ``LatchError/failureReason``), the four that
    ///   sign the user out, and the common errors.
    public func updatePassword(to password: String) async throws -> LatchUser {
        try await update(["password": password])
    }

    /// Deletes the account on the server (`accounts:delete`), then signs it out here.
    /// - Throws: ``LatchError`` — ``LatchError/Code/requiresRecentLogin``, the four that sign the
    ///   user out, and the common errors.
    public func delete() async throws {
        try await auth.signingOutOnInvalidUser(account) {
            let token = try await auth.idToken(account)
            _ = try await auth.channel.accounts("delete", ["idToken": token, "localId": uid], as: FirebaseWire.Empty.self)
            _ = try await auth.tokens.signOut(account)
        }
    }

    /// Signs in again as this user with `credential`, as ``LatchError/Code/requiresRecentLogin``
    /// asks: a new session of the same account (`accounts:signInWithPassword`, or
    /// `accounts:signInWithIdp` with `autoCreate: false`, then `accounts:lookup`).
    /// - Throws: ``LatchError`` — ``LatchError/Code/userMismatch`` when the credential is another
    ///   user's (or names no user), ``LatchError/Code/wrongPassword``, ``LatchError/Code/invalidEmail``,
    ///   ``LatchError/Code/invalidCredential``, ``LatchError/Code/operationNotAllowed``,
    ///   ``LatchError/Code/emailAlreadyInUse``, ``LatchError/Code/userDisabled``, and the common errors.
    @discardableResult
    public func reauthenticate(with credential: LatchAuthCredential) async throws -> LatchUser {
        try await auth.signingOutOnInvalidUser(account) {
            if case .password(_, let password) = credential.kind, password.isEmpty {
                throw LatchError(code: .wrongPassword, message: "The password is empty.")
            }
            let (call, fields) = credential.body(autoCreate: false)
            let reply: FirebaseWire.TokenReply
            do {
                reply = try await auth.channel.accounts(call, fields, as: FirebaseWire.TokenReply.self)
                if call == "signInWithIdp" { try LatchFirebaseAuth.checkAssertion(reply) }
            } catch let error as LatchError where error.code == .userNotFound {
                throw LatchError(
                    code: .userMismatch, message: "The credential names no user.", correlationID: error.correlationID,
                    httpStatus: error.httpStatus, oauthError: error.oauthError)
            }
            guard reply.localId == nil || reply.localId == uid else {
                throw LatchError(code: .userMismatch, message: "The credential is another user's.")
            }
            return try await auth.signedIn(reply, email: reply.email ?? email)
        }
    }

    /// Links a credential to the user, e.g. to keep an anonymous user: an e-mail and password
    /// (`accounts:signUp` with the user's `idToken`) or an OpenID Connect ID token
    /// (`accounts:signInWithIdp` with the user's `idToken`).
    /// - Throws: ``LatchError`` — ``LatchError/Code/providerAlreadyLinked`` before any request when
    ///   the user has that provider already; ``LatchError/Code/credentialAlreadyInUse`` (the
    ///   identity is another user's), ``LatchError/Code/emailAlreadyInUse``, ``LatchError/Code/invalidCredential``,
    ///   ``LatchError/Code/operationNotAllowed``, ``LatchError/Code/weakPassword``,
    ///   ``LatchError/Code/requiresRecentLogin``, and the common errors.
    public func link(with credential: LatchAuthCredential) async throws -> LatchUser {
        guard !providerData.contains(where: { $0.providerID == credential.providerID }) else {
            throw LatchError(code: .providerAlreadyLinked, message: "The user has the \(credential.providerID) provider already.")
        }
        return try await auth.signingOutOnInvalidUser(account) {
            let token = try await auth.idToken(account)
            let reply: FirebaseWire.TokenReply
            switch credential.kind {
            case .password(let email, let password):
                reply = try await auth.channel.accounts(
                    "signUp", ["idToken": token, "email": email, "password": password, "returnSecureToken": true],
                    as: FirebaseWire.TokenReply.self)
            case .openID:
                var (call, fields) = credential.body()
                fields["idToken"] = token
                reply = try await auth.channel.accounts(call, fields, as: FirebaseWire.TokenReply.self)
                try LatchFirebaseAuth.checkAssertion(reply)
            }
            return try await auth.refreshProfile(account, after: reply, token: token)
        }
    }

    /// Unlinks a provider (`accounts:update` with `deleteProvider`).
    /// - Throws: ``LatchError`` — ``LatchError/Code/noSuchProvider`` before any request when the
    ///   user does not have it; ``LatchError/Code/requiresRecentLogin``, and the common errors.
    public func unlink(fromProvider providerID: String) async throws -> LatchUser {
        guard providerData.contains(where: { $0.providerID == providerID }) else {
            throw LatchError(code: .noSuchProvider, message: "The user has no \(providerID) provider.")
        }
        return try await update(["deleteProvider": [providerID]])
    }

    /// Sends a verification e-mail to the user's address (`accounts:sendOobCode`, `VERIFY_EMAIL`).
    /// - Throws: ``LatchError`` — ``LatchError/Code/userNotFound`` (signs the user out locally), and
    ///   the common errors.
    public func sendEmailVerification() async throws {
        try await auth.signingOutOnInvalidUser(account) {
            let token = try await auth.idToken(account)
            _ = try await auth.channel.accounts(
                "sendOobCode", ["requestType": "VERIFY_EMAIL", "idToken": token], as: FirebaseWire.EmailReply.self)
        }
    }

    /// Sends a message to `newEmail` whose link changes the user's address to it once opened
    /// (`accounts:sendOobCode`, `VERIFY_AND_CHANGE_EMAIL`); the address stays as it is until then.
    /// - Throws: ``LatchError`` — ``LatchError/Code/invalidEmail``, ``LatchError/Code/emailAlreadyInUse``,
    ///   ``LatchError/Code/requiresRecentLogin``, the four that sign the user out, and the common errors.
    public func sendEmailVerification(beforeUpdatingEmail newEmail: String) async throws {
        try await auth.signingOutOnInvalidUser(account) {
            let token = try await auth.idToken(account)
            _ = try await auth.channel.accounts(
                "sendOobCode", ["requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": token, "newEmail": newEmail],
                as: FirebaseWire.EmailReply.self)
        }
    }

    /// `accounts:update` with `fields`, the user's `idToken` and `returnSecureToken`; stores the
    /// answer's tokens and a fresh profile.
    private func update(_ fields: [String: any Sendable]) async throws -> LatchUser {
        try await auth.signingOutOnInvalidUser(account) {
            let token = try await auth.idToken(account)
            var body = fields
            body["idToken"] = token
            body["returnSecureToken"] = true
            let reply = try await auth.channel.accounts("update", body, as: FirebaseWire.TokenReply.self)
            return try await auth.refreshProfile(account, after: reply, token: token)
        }
    }
}
