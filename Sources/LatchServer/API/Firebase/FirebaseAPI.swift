import Foundation
import LatchHTTP

/// The Firebase-shaped account API, at the paths the Firebase SDKs reach in emulator mode
/// (`reference/firebase-auth-protocol.md` § 2): Identity Toolkit v1 `accounts:*`, the v3
/// `relyingparty/*` aliases the Apple SDK calls, and securetoken refresh. The API key in `?key=`
/// names the client, whose tenant is the project. Bodies are camelCase JSON; every failure leaves
/// through ``FirebaseRenderer``.
struct FirebaseAPI: Sendable {
    let services: AuthServices
    let renderer: FirebaseRenderer
    let log: ServerLog

    static let v1 = "/identitytoolkit.googleapis.com/v1/"
    static let v3 = "/www.googleapis.com/identitytoolkit/v3/relyingparty/"
    static let securetoken = "/securetoken.googleapis.com/v1/token"

    /// The paths this family owns, for its route group.
    static let prefixes = [
        "/identitytoolkit.googleapis.com", "/www.googleapis.com/identitytoolkit", "/securetoken.googleapis.com",
    ]

    /// The parsed request handed to an endpoint body.
    struct Call {
        let body: [String: any Sendable]
        let context: ClientContext
        let request: HTTPRequest

        func string(_ name: String) -> String? { body[name] as? String }
        func flag(_ name: String) -> Bool { body[name] as? Bool ?? false }
        func strings(_ name: String) -> [String] { (body[name] as? [any Sendable])?.compactMap { $0 as? String } ?? [] }
    }

    /// Adds the group and its routes to `router`.
    func register(in router: inout Router) {
        router.addGroup("firebase", prefixes: Self.prefixes, renderer: renderer)
        route(&router, v1: "accounts:signUp", v3: "signupNewUser", mayBlock: Self.carriesPassword) { call in
            let session: AccountSession
            if let idToken = call.string("idToken") {
                // A sign-up with an ID token links an e-mail and password to that account (§ 2).
                var change = AccountChange()
                change.email = call.string("email")
                change.password = call.string("password")
                change.displayName = call.string("displayName")
                change.returnSecureToken = true
                guard change.email != nil else { throw AuthFailure.missingParameter(.email) }
                guard change.password != nil else { throw AuthFailure.missingParameter(.password) }
                guard let linked = try services.accounts.update(call.context, idToken: idToken, change: change).session
                else { throw AuthFailure.invalidAccessToken }
                session = linked
            } else {
                session = try services.accounts.signUp(
                    call.context, email: call.string("email"), password: call.string("password"),
                    displayName: call.string("displayName"))
            }
            var body = Self.tokenTriple(session)
            body["kind"] = "identitytoolkit#SignupNewUserResponse"
            body["localId"] = session.user.id
            body["email"] = AccountProfile.email(of: session.user)
            body["displayName"] = session.user.displayName
            return JSONBody.ok(body)
        }
        route(&router, v1: "accounts:signInWithPassword", v3: "verifyPassword", call: .signIn, mayBlock: Self.carriesPassword) {
            call in
            let session = try services.accounts.signIn(
                call.context, email: call.string("email"), password: call.string("password"))
            var body = Self.tokenTriple(session)
            body["kind"] = "identitytoolkit#VerifyPasswordResponse"
            body["localId"] = session.user.id
            body["email"] = AccountProfile.email(of: session.user)
            body["displayName"] = session.user.displayName ?? ""
            body["registered"] = true
            return JSONBody.ok(body)
        }
        route(&router, v1: "accounts:signInWithCustomToken", v3: "verifyCustomToken") { call in
            let (session, isNew) = try services.accounts.signIn(call.context, customToken: call.string("token"))
            var body = Self.tokenTriple(session)
            body["kind"] = "identitytoolkit#VerifyCustomTokenResponse"
            body["isNewUser"] = isNew
            return JSONBody.ok(body)
        }
        route(&router, v1: "accounts:lookup", v3: "getAccountInfo") { call in
            let (user, _) = try services.accounts.authenticate(call.context, idToken: call.string("idToken"))
            let identities = try services.accounts.linkedIdentities(call.context, of: user)
            return JSONBody.ok([
                "kind": "identitytoolkit#GetAccountInfoResponse", "users": [Self.userInfo(user, identities: identities)],
            ])
        }
        route(&router, v1: "accounts:update", v3: "setAccountInfo", mayBlock: Self.carriesPassword) { call in
            if call.string("idToken") == nil, call.body["oobCode"] != nil {
                // An out-of-band code applies a verification or an address change (§ 2).
                return try Self.applyOobCode(services, call)
            }
            var change = AccountChange()
            Self.readProfile(call.body, into: &change)
            change.returnSecureToken = call.flag("returnSecureToken")
            change.deleteProviders = call.strings("deleteProvider")
            let (user, session) = try services.accounts.update(
                call.context, idToken: call.string("idToken"), change: change)
            var body = session.map(Self.tokenTriple) ?? [:]
            let identities = try services.accounts.linkedIdentities(call.context, of: user)
            for (name, value) in Self.userInfo(user, identities: identities) where name != "validSince" && name != "createdAt" {
                body[name] = value
            }
            body["kind"] = "identitytoolkit#SetAccountInfoResponse"
            return JSONBody.ok(body)
        }
        route(&router, v1: "accounts:signInWithIdp", v3: "verifyAssertion", mayBlock: { _ in true }) { call in
            // May wait for an identity provider's JWKS document.
            try Self.signInWithIdp(call, services.accounts)
        }
        route(&router, v1: "accounts:delete", v3: "deleteAccount") { call in
            try services.accounts.delete(call.context, idToken: call.string("idToken"))
            return JSONBody.ok(["kind": "identitytoolkit#DeleteAccountResponse"])
        }
        route(&router, v1: "accounts:createAuthUri", v3: "createAuthUri") { call in
            let email = call.string("identifier") ?? call.string("email")
            var body: [String: any Sendable] = ["kind": "identitytoolkit#CreateAuthUriResponse"]
            if let methods = try services.accounts.signInMethods(call.context, email: email) {
                body["registered"] = !methods.isEmpty
                body["allProviders"] = methods
                body["signinMethods"] = methods
            }
            return JSONBody.ok(body)
        }
        registerOobCodes(in: &router)
        let api = self
        router.add("POST", Self.securetoken) { request in api.refresh(request) }
    }

    /// securetoken `v1/token`: JSON camelCase (`grantType`, `refreshToken`) or a form in
    /// snake_case; answers snake_case with `expires_in` as a string (§ 5).
    private func refresh(_ request: HTTPRequest) -> HTTPResponse {
        run(
            request, call: .other,
            parse: { request in
                if request.mediaType == "application/x-www-form-urlencoded" {
                    return try request.formParameters().mapValues { $0 as any Sendable }
                }
                return try request.jsonObject()
            }
        ) { call in
            let grant = call.string("grantType") ?? call.string("grant_type")
            guard let grant, !grant.isEmpty else { throw AuthFailure.missingParameter(.grantType) }
            guard grant == "refresh_token" else { throw AuthFailure.unsupportedGrantType(grant) }
            let session = try services.accounts.refresh(
                call.context, refreshToken: call.string("refreshToken") ?? call.string("refresh_token"))
            return JSONBody.ok([
                "access_token": session.idToken, "expires_in": String(session.expiresIn), "token_type": "Bearer",
                "refresh_token": session.refreshToken, "id_token": session.idToken, "user_id": session.user.id,
                "project_id": call.context.tenant.name,
            ])
        }
    }

    /// `accounts:signInWithIdp` / `verifyAssertion` (§ 4, row `signIn(with:)`): the token triple with
    /// `providerId`, `localId`, `federatedId`, `rawUserInfo`, `isNewUser` (and `oauthIdToken` when
    /// `returnIdpCredential`), or, when another account has the identity's e-mail address,
    /// `needConfirmation` with `email` and `providerId` and no tokens.
    private static func signInWithIdp(_ call: Call, _ accounts: AccountService) throws -> HTTPResponse {
        let form = ProviderPostBody.parse(call.string("postBody"))
        var request = ProviderSignIn()
        request.requestURI = call.string("requestUri")
        request.providerID = form["providerId"]
        request.idToken = form["id_token"]
        request.nonce = form["nonce"]
        request.autoCreate = call.body["autoCreate"] as? Bool ?? true
        request.accountIDToken = call.string("idToken").flatMap { $0.isEmpty ? nil : $0 }
        var body: [String: any Sendable] = ["kind": "identitytoolkit#VerifyAssertionResponse"]
        let assertion: ProviderAssertion
        switch try accounts.signIn(call.context, with: request) {
        case .signedIn(let session, let asserted, let isNew):
            assertion = asserted
            body.merge(tokenTriple(session)) { _, new in new }
            body["localId"] = session.user.id
            body["isNewUser"] = isNew
            body["displayName"] = asserted.displayName ?? session.user.displayName
            body["photoUrl"] = asserted.photoURL
        case .needsConfirmation(let asserted):
            assertion = asserted
            body["needConfirmation"] = true
        }
        body["providerId"] = assertion.providerID
        body["federatedId"] = assertion.subject
        body["email"] = assertion.email
        body["emailVerified"] = assertion.emailVerified
        body["rawUserInfo"] = assertion.rawUserInfo
        if call.flag("returnIdpCredential") { body["oauthIdToken"] = assertion.idToken }
        return JSONBody.ok(body)
    }

    /// Reads the profile fields of an `accounts:update` body (a user's or an administrator's):
    /// `email`, `password`, `displayName`, `photoUrl`, and `deleteAttribute` naming `DISPLAY_NAME`
    /// or `PHOTO_URL`.
    static func readProfile<Change: ProfileChange>(_ body: [String: any Sendable], into change: inout Change) {
        change.email = body["email"] as? String
        change.password = body["password"] as? String
        change.displayName = body["displayName"] as? String
        change.photoURL = body["photoUrl"] as? String
        let deleted = (body["deleteAttribute"] as? [any Sendable])?.compactMap { $0 as? String } ?? []
        change.deleteDisplayName = deleted.contains("DISPLAY_NAME")
        change.deletePhotoURL = deleted.contains("PHOTO_URL")
    }

    /// `idToken`, `refreshToken` and `expiresIn` (a string: the Apple SDK drops a number, § 3).
    static func tokenTriple(_ session: AccountSession) -> [String: any Sendable] {
        ["idToken": session.idToken, "refreshToken": session.refreshToken, "expiresIn": String(session.expiresIn)]
    }

    /// One `users[]` element of `getAccountInfo`: the fields the Apple SDK reads (§ 3), with
    /// `createdAt` in milliseconds and `validSince` in seconds, as strings; `passwordHash` is only
    /// a marker that a password exists. `providerUserInfo` lists `password` and each of `identities`.
    static func userInfo(_ user: User, identities: [FederatedIdentity] = []) -> [String: any Sendable] {
        var info: [String: any Sendable] = [
            "localId": user.id, "emailVerified": user.emailVerified, "disabled": user.disabled,
            "createdAt": String(Int(user.createdAt.timeIntervalSince1970 * 1000)),
            "validSince": String(Int(user.validSince.timeIntervalSince1970)),
        ]
        let email = AccountProfile.email(of: user)
        info["email"] = email
        info["displayName"] = user.displayName
        info["photoUrl"] = user.attributes[AccountProfile.photoURLAttribute]
        var providers: [any Sendable] = []
        if let email, user.passwordHash != nil || AccountProfile.usesEmailLink(user) {
            // An e-mail link account has the password provider too, without a password (§ 3).
            if user.passwordHash != nil { info["passwordHash"] = "UkVEQUNURUQ=" }
            var provider: [String: any Sendable] = [
                "providerId": AccountProfile.passwordProvider, "federatedId": email, "email": email, "rawId": email,
            ]
            provider["displayName"] = user.displayName
            provider["photoUrl"] = user.attributes[AccountProfile.photoURLAttribute]
            providers.append(provider)
        }
        for identity in identities {
            var provider: [String: any Sendable] = [
                "providerId": identity.providerID, "federatedId": identity.rawID, "rawId": identity.rawID,
            ]
            provider["email"] = identity.email
            provider["displayName"] = identity.displayName
            provider["photoUrl"] = identity.photoURL
            providers.append(provider)
        }
        info["providerUserInfo"] = providers
        return info
    }

    /// Whether the JSON body carries a password, which the request hashes or verifies with
    /// Argon2id: it may wait for a core.
    static let carriesPassword: Router.BlockingTest = { request in
        guard let body = try? request.jsonObject(), let password = body["password"] as? String else { return false }
        return !password.isEmpty
    }

    /// A POST route at `v1` + `v1Name` and its v3 alias, whose body runs with the parsed JSON and
    /// the client and tenant of the API key.
    func route(
        _ router: inout Router, v1 v1Name: String, v3 v3Name: String, call kind: FirebaseRenderer.Call = .other,
        mayBlock: Router.BlockingTest? = nil, _ body: @escaping @Sendable (Call) throws -> HTTPResponse
    ) {
        let api = self
        for path in [Self.v1 + v1Name, Self.v3 + v3Name] {
            router.add("POST", path, mayBlock: mayBlock) { request in
                api.run(request, call: kind, parse: { try $0.jsonObject() }, body)
            }
        }
    }

    /// Resolves the API key, parses the body, calls the domain, and renders any failure.
    private func run(
        _ request: HTTPRequest, call kind: FirebaseRenderer.Call,
        parse: (HTTPRequest) throws -> [String: any Sendable], _ body: (Call) throws -> HTTPResponse
    ) -> HTTPResponse {
        var tenant: Tenant?
        do {
            let (found, client) = try services.directory.client(apiKey: request.query["key"])
            tenant = found
            let context = ClientContext(tenant: found, client: client, remoteAddress: request.remoteAddress)
            return try body(Call(body: try parse(request), context: context, request: request))
        } catch let error as HTTPError {
            return renderer.render(error, for: request)
        } catch let failure as AuthFailure {
            return renderer.render(failure, tenant: tenant, call: kind)
        } catch {
            if let outage = StoreOutage.httpError(for: error) {
                StoreOutage.log(error, log, request: request)
                return renderer.render(outage, for: request)
            }
            log.error("request failed", [("error", "\(error)")], request: request)
            return renderer.render(.internalServerError("internal error"), for: request)
        }
    }
}
