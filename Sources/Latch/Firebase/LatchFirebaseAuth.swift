import Foundation

/// The Firebase-style account API of a ``LatchClient`` (``LatchClient/firebase``): e-mail and
/// anonymous sign-in against the Identity Toolkit v1 wire (`accounts:*` under the Latch server's
/// origin, ``LatchConfiguration/apiKey`` as `?key=`), with Firebase's error numbers.
///
/// It shares the client's credential store and auth state: a user signed in here is the client's
/// ``LatchClient/currentAccount``, its tokens come from
/// ``LatchClient/acquireTokenSilent(scopes:account:forceRefresh:correlationID:)`` (refreshed at
/// securetoken), and every change reaches ``LatchClient/authStateChanges`` and
/// ``LatchClient/authEvents``; a user signed in natively is this API's ``currentUser``.
///
/// ```swift
/// let user = try await client.firebase.signIn(email: "ada@example.com", password: password)
/// let token = try await user.getIDToken()
/// ```
///
/// Related documentation: Firebase's "Handle errors" page for Apple platforms, and the Identity
/// Toolkit v1 REST reference.
public final class LatchFirebaseAuth: Sendable {
    let session: LatchSession

    init(session: LatchSession) {
        self.session = session
    }

    var channel: FirebaseChannel { FirebaseChannel(configuration: session.configuration) }
    var tokens: TokenManager { session.tokens }

    /// The signed-in user: the client's ``LatchClient/currentAccount``, however it signed in, or
    /// `nil` after a sign-out.
    /// - Throws: ``LatchError/Code/credentialStoreError``.
    public var currentUser: LatchUser? {
        get async throws {
            guard let account = try await tokens.currentAccount(), let record = try await tokens.record(for: account)
            else { return nil }
            return LatchUser(record, auth: self)
        }
    }

    /// The user of a stored `account` (from ``LatchClient/accounts()``), however it signed in, or
    /// `nil` when it is no longer stored; for apps that keep several accounts signed in.
    /// - Throws: ``LatchError/Code/credentialStoreError``.
    public func user(for account: LatchAccount) async throws -> LatchUser? {
        guard let record = try await tokens.record(for: account) else { return nil }
        return LatchUser(record, auth: self)
    }

    /// Creates an e-mail and password account and signs it in (`accounts:signUp`, then
    /// `accounts:lookup`).
    /// - Throws: ``LatchError`` — ``LatchError/Code/invalidEmail``, ``LatchError/Code/emailAlreadyInUse``,
    ///   ``LatchError/Code/operationNotAllowed``, ``LatchError/Code/weakPassword`` (the rule in
    ///   ``LatchError/failureReason``), and the common network, too-many-requests, API-key and
    ///   internal errors.
    @discardableResult
    public func createUser(email: String, password: String) async throws -> LatchUser {
        let reply = try await channel.accounts(
            "signUp", ["email": email, "password": password, "returnSecureToken": true], as: FirebaseWire.TokenReply.self)
        return try await signedIn(reply, email: email)
    }

    /// Signs in with an e-mail and password (`accounts:signInWithPassword`, then `accounts:lookup`).
    /// - Throws: ``LatchError`` — ``LatchError/Code/operationNotAllowed``, ``LatchError/Code/invalidEmail``,
    ///   ``LatchError/Code/userDisabled``, ``LatchError/Code/wrongPassword`` (an empty password too,
    ///   before any request), ``LatchError/Code/userNotFound``, ``LatchError/Code/invalidCredential``
    ///   (under e-mail enumeration protection), and the common errors.
    @discardableResult
    public func signIn(email: String, password: String) async throws -> LatchUser {
        guard !password.isEmpty else {
            throw LatchError(code: .wrongPassword, message: "The password is empty.")
        }
        let reply = try await channel.accounts(
            "signInWithPassword", ["email": email, "password": password, "returnSecureToken": true],
            as: FirebaseWire.TokenReply.self)
        return try await signedIn(reply, email: email)
    }

    /// Signs in as a new anonymous user (`accounts:signUp` without an e-mail); when the current
    /// user is anonymous already, returns it and sends nothing.
    /// - Throws: ``LatchError`` — ``LatchError/Code/operationNotAllowed``, and the common errors.
    @discardableResult
    public func signInAnonymously() async throws -> LatchUser {
        if let user = try await currentUser, user.isAnonymous, user.account.sessionState == .signedIn { return user }
        let reply = try await channel.accounts("signUp", ["returnSecureToken": true], as: FirebaseWire.TokenReply.self)
        return try await signedIn(reply, email: nil)
    }

    /// The sign-in methods of an e-mail address (`accounts:createAuthUri`), e.g. `["password"]`;
    /// empty for an unknown address, and always under e-mail enumeration protection.
    /// - Throws: ``LatchError`` — ``LatchError/Code/invalidEmail``, and the common errors.
    public func fetchSignInMethods(forEmail email: String) async throws -> [String] {
        let reply = try await channel.accounts(
            "createAuthUri", ["identifier": email, "continueUri": "http://localhost"],
            as: FirebaseWire.CreateAuthURIReply.self)
        return reply.signinMethods ?? []
    }

    /// Signs the current user out on this device; sends nothing. The same as
    /// ``LatchClient/signOut(account:)`` for ``currentUser``'s account.
    /// - Throws: ``LatchError/Code/credentialStoreError`` (Firebase's keychain error, 17995).
    public func signOut() async throws {
        guard let account = try await tokens.currentAccount() else { return }
        _ = try await tokens.signOut(account)
    }

    // MARK: - Shared steps

    /// Stores a sign-in's tokens with the user's profile as a new session that becomes current.
    /// - Throws: ``LatchError/Code/invalidUserToken`` when the answer lacks `idToken` or
    ///   `refreshToken`; the `accounts:lookup` errors.
    func signedIn(_ reply: FirebaseWire.TokenReply, email: String?) async throws -> LatchUser {
        let native = try Self.tokens(reply)
        let profile = try await lookup(idToken: native.idToken ?? "")
        let result = try await tokens.save(native, username: profile.email ?? email ?? "", firebaseUser: profile)
        guard let record = try await tokens.record(for: result.account) else {
            throw LatchError(code: .interactionRequired, message: "The account was signed out meanwhile.")
        }
        return LatchUser(record, auth: self)
    }

    /// The token triple of `reply` as a token response.
    static func tokens(_ reply: FirebaseWire.TokenReply) throws -> NativeAuthReply {
        guard let idToken = reply.idToken, !idToken.isEmpty, let refreshToken = reply.refreshToken, !refreshToken.isEmpty
        else {
            throw LatchError(code: .invalidUserToken, message: "The sign-in answer lacks idToken or refreshToken.")
        }
        var native = NativeAuthReply()
        native.idToken = idToken
        native.accessToken = idToken
        native.refreshToken = refreshToken
        native.expiresIn = reply.expiresIn.flatMap { Int($0) }
        native.tokenType = "Bearer"
        return native
    }

    /// `accounts:lookup` for the holder of `idToken`: exactly one user.
    func lookup(idToken: String) async throws -> FirebaseWire.UserRecord {
        let reply = try await channel.accounts("lookup", ["idToken": idToken], as: FirebaseWire.LookupReply.self)
        guard let users = reply.users, users.count == 1 else {
            throw LatchError(code: .internalError, message: "accounts:lookup did not answer exactly one user.")
        }
        return users[0]
    }

    /// Runs `body`; when it fails with ``LatchError/Code/userNotFound``, ``LatchError/Code/userDisabled``,
    /// ``LatchError/Code/invalidUserToken`` or ``LatchError/Code/userTokenExpired``, signs `account`
    /// out locally (the listeners hear it) before rethrowing.
    func signingOutOnInvalidUser<T: Sendable>(_ account: LatchAccount, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as LatchError where FirebaseErrorMapping.signsOut.contains(error.code) {
            _ = try? await tokens.signOut(account)
            throw error
        }
    }

    /// A valid ID token of `account` (from the cache, or refreshed at securetoken): for a session of
    /// this API the access and ID tokens are one token; for a native-auth session it is the ID
    /// token, which the server accepts from the client it was issued to.
    func idToken(_ account: LatchAccount, forceRefresh: Bool = false) async throws -> String {
        let result = try await tokens.acquire(account: account, scopes: nil, forceRefresh: forceRefresh, correlationID: nil)
        return result.idToken ?? result.accessToken
    }

    /// Stores the tokens an account update answered (when it did) and the profile of a fresh
    /// `accounts:lookup`.
    func refreshProfile(_ account: LatchAccount, after reply: FirebaseWire.TokenReply?, token: String) async throws
        -> LatchUser
    {
        let native = try reply.flatMap { $0.idToken == nil ? nil : try Self.tokens($0) }
        let profile = try await lookup(idToken: native?.idToken ?? token)
        let now = session.configuration.clock()
        let record = try await tokens.update(account) { record in
            if let native { record.apply(native, now: now) }
            record.firebaseUser = profile
        }
        return LatchUser(record, auth: self)
    }
}

extension LatchClient {
    /// The Firebase-style account API (``LatchFirebaseAuth``), sharing this client's sessions and
    /// auth state.
    public var firebase: LatchFirebaseAuth { LatchFirebaseAuth(session: session) }
}
