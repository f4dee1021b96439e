import Foundation
import LatchHTTP

/// The administration calls of the Firebase-shaped family, as firebase-admin makes them
/// (`reference/firebase-auth-protocol.md` § 6): JSON under
/// `/identitytoolkit.googleapis.com/v1/projects/{project}[/tenants/{tenant}]/accounts…` and
/// `/identitytoolkit.googleapis.com/v1/projects/{project}:createSessionCookie`, where the project is
/// the tenant's name and a tenant segment must name the same tenant. No API key: the credential is
/// `Authorization: Bearer` with the data directory's admin token or a token scoped to the tenant,
/// and in emulator mode also `Bearer owner`, as firebase-admin sends it to an emulator. Every
/// failure leaves through ``FirebaseRenderer``.
struct FirebaseAdminAPI: Sendable {
    let services: AuthServices
    let authenticator: AdminAuthenticator
    /// Emulator mode: `Bearer owner` is an administrator.
    let emulator: Bool
    let log: ServerLog

    static let projects = "/identitytoolkit.googleapis.com/v1/projects/{project}"
    /// The largest `accounts:batchCreate` body: a thousand accounts with hashes and claims.
    static let importBodyLimit = 2 << 20

    /// Batch calls write up to a thousand accounts in one transaction: they run off the HTTP workers.
    static let always: Router.BlockingTest = { _ in true }

    /// A parsed administration request.
    struct Call {
        let body: [String: any Sendable]
        let tenant: Tenant
        let request: HTTPRequest
        /// The tenant id to echo in records on tenant-scoped paths.
        let tenantID: String?

        func string(_ name: String) -> String? { body[name] as? String }
        func bool(_ name: String) -> Bool? { body[name] as? Bool }
        func strings(_ name: String) -> [String] { (body[name] as? [any Sendable])?.compactMap { $0 as? String } ?? [] }
        func int(_ name: String) -> Int? { FirebaseAdminAPI.integer(body[name]) }
        var source: HashingSource { HashingSource(address: request.remoteAddress) }
        func records(_ users: [User]) -> [any Sendable] { users.map { FirebaseUserRecord.record($0, tenantID: tenantID) } }
    }

    /// Adds the routes to `router` (the group is ``FirebaseAPI``'s).
    func register(in router: inout Router) {
        let admin = services.accountAdmin
        route(&router, "accounts", mayBlock: FirebaseAPI.carriesPassword) { call in
            var account = NewAccount()
            account.id = call.string("localId")
            account.email = call.string("email")
            account.password = call.string("password")
            account.displayName = call.string("displayName")
            account.photoURL = call.string("photoUrl")
            account.emailVerified = call.bool("emailVerified") ?? false
            account.disabled = call.bool("disabled") ?? false
            // Latch accounts have no phone number of their own.
            if call.string("phoneNumber") != nil { throw AuthFailure.operationNotAllowed }
            let user = try admin.create(account, tenant: call.tenant, source: call.source)
            return JSONBody.ok(["kind": "identitytoolkit#SignupNewUserResponse", "localId": user.id])
        }
        route(&router, "accounts:lookup") { call in
            let users = try admin.lookup(ids: call.strings("localId"), emails: call.strings("email"), tenant: call.tenant)
            var body: [String: any Sendable] = ["kind": "identitytoolkit#GetAccountInfoResponse"]
            // firebase-admin reads a missing `users` as "not found"; an empty one must not be sent.
            if !users.isEmpty { body["users"] = call.records(users) }
            return JSONBody.ok(body)
        }
        route(&router, "accounts:update", mayBlock: FirebaseAPI.carriesPassword) { call in
            let user = try admin.update(
                id: call.string("localId"), change: try Self.change(call), tenant: call.tenant, source: call.source)
            return JSONBody.ok(["kind": "identitytoolkit#SetAccountInfoResponse", "localId": user.id])
        }
        route(&router, "accounts:delete") { call in
            try admin.delete(id: call.string("localId"), tenant: call.tenant)
            return JSONBody.ok(["kind": "identitytoolkit#DeleteAccountResponse"])
        }
        route(&router, "accounts:batchDelete", mayBlock: Self.always) { call in
            let kept = try admin.delete(ids: call.strings("localIds"), force: call.bool("force") ?? false, tenant: call.tenant)
            var body: [String: any Sendable] = [:]
            if !kept.isEmpty {
                body["errors"] = kept.map { entry -> [String: any Sendable] in
                    [
                        "index": entry.index, "localId": entry.id,
                        "message": "NOT_DISABLED : Disable the account before deleting it, or set force.",
                    ]
                }
            }
            return JSONBody.ok(body)
        }
        route(&router, "accounts:batchGet", method: "GET") { call in
            let limit = Int(call.request.query["maxResults"] ?? "") ?? AccountAdministration.batchLimit
            var after: String?
            if let token = call.request.query["nextPageToken"], !token.isEmpty {
                guard let bytes = Self.base64(token), let id = String(bytes: bytes, encoding: .utf8) else {
                    throw AuthFailure.accountAdministration(.invalidPageToken)
                }
                after = id
            }
            let page = try admin.page(after: after, limit: limit, tenant: call.tenant)
            var body: [String: any Sendable] = ["kind": "identitytoolkit#DownloadAccountResponse"]
            if !page.users.isEmpty { body["users"] = call.records(page.users) }
            if let next = page.next { body["nextPageToken"] = Self.base64URL(Array(next.utf8)) }
            return JSONBody.ok(body)
        }
        route(&router, "accounts:query") { call in
            let returnUsers = call.bool("returnUserInfo") ?? true
            let result = try admin.query(
                offset: Self.integer(call.body["offset"]) ?? 0,
                limit: returnUsers ? Self.integer(call.body["limit"]) ?? 500 : 0, tenant: call.tenant)
            var body: [String: any Sendable] = ["recordsCount": String(result.count)]
            if returnUsers { body["userInfo"] = call.records(result.users) }
            return JSONBody.ok(body)
        }
        route(&router, "accounts:batchCreate", mayBlock: Self.always, maxBodyBytes: Self.importBodyLimit) { call in
            let (accounts, options) = try Self.importRequest(call)
            let failures = try admin.importAccounts(accounts, options: options, tenant: call.tenant)
            var body: [String: any Sendable] = ["kind": "identitytoolkit#UploadAccountResponse"]
            if !failures.isEmpty {
                body["error"] = failures.map { failure -> [String: any Sendable] in
                    ["index": failure.index, "message": FirebaseRenderer.message(for: failure.problem)]
                }
            }
            return JSONBody.ok(body)
        }
        let services = services
        route(&router, "accounts:sendOobCode") { call in
            // firebase-admin's generate_*_link: the link comes back (`returnOobLink`) and nothing
            // is mailed; without `returnOobLink` the message goes through the outbox instead.
            guard let name = call.string("requestType"), !name.isEmpty else {
                throw AuthFailure.missingParameter(.requestType)
            }
            guard let kind = FirebaseAPI.requestTypes[name] else { throw AuthFailure.invalidParameter(.requestType) }
            let returnLink = call.bool("returnOobLink") ?? false
            // The link names a client of the tenant by its API key, as the hosted page needs one.
            guard let client = try services.admin.clients(tenant: call.tenant).first else {
                throw AuthFailure.unknownClient
            }
            let context = ClientContext(tenant: call.tenant, client: client, remoteAddress: call.request.remoteAddress)
            let issued: IssuedOobCode
            do {
                issued = try services.oobCodes.issue(
                    context, kind: kind, email: call.string("email"), newEmail: call.string("newEmail"),
                    continueURL: call.string("continueUrl"), deliver: !returnLink)
            } catch AuthFailure.userNotFound {
                // The account is named by its address: firebase-admin raises EmailNotFoundError (§ 6).
                return FirebaseRenderer().render(AuthFailure.userNotFound, tenant: call.tenant, call: .signIn)
            }
            var body: [String: any Sendable] = [
                "kind": "identitytoolkit#GetOobConfirmationCodeResponse", "email": issued.recipient,
            ]
            if returnLink { body["oobLink"] = issued.link }
            return JSONBody.ok(body)
        }
        let api = self
        router.add("POST", Self.projects) { request in
            let segment = request.pathParameters["project"] ?? ""
            guard let colon = segment.firstIndex(of: ":"), segment[colon...] == ":createSessionCookie" else {
                return FirebaseRenderer().render(.notFound("no resource at this path"), for: request)
            }
            return api.run(request, project: String(segment[..<colon]), tenantSegment: nil, parse: { try $0.jsonObject() }) {
                call in
                let cookie = try admin.sessionCookie(
                    idToken: call.string("idToken"), lifetime: call.int("validDuration"), tenant: call.tenant)
                return JSONBody.ok(["sessionCookie": cookie])
            }
        }
    }

    /// The change an `accounts:update` body asks for.
    static func change(_ call: Call) throws -> AdminAccountChange {
        var change = AdminAccountChange()
        FirebaseAPI.readProfile(call.body, into: &change)
        change.emailVerified = call.bool("emailVerified")
        change.disabled = call.bool("disableUser") ?? call.bool("disabled")
        if call.body["validSince"] != nil {
            guard let seconds = call.int("validSince"), seconds >= 0 else {
                throw AuthFailure.accountAdministration(.invalidField("validSince"))
            }
            change.validSince = Date(timeIntervalSince1970: TimeInterval(seconds))
        }
        if let claims = call.body["customAttributes"] {
            guard let text = claims as? String else { throw AuthFailure.accountAdministration(.invalidClaims) }
            change.customClaims = text
        }
        change.deleteProviders = call.strings("deleteProvider")
        if call.string("phoneNumber") != nil { throw AuthFailure.operationNotAllowed }
        return change
    }

    /// The accounts and hash options of an `accounts:batchCreate` body, as firebase-admin's
    /// `ImportUserRecord.to_dict` and `UserImportHash.to_dict` write them (bytes in base64).
    static func importRequest(_ call: Call) throws -> ([ImportedAccount], ImportHashOptions?) {
        guard let users = call.body["users"] as? [any Sendable] else {
            throw AuthFailure.accountAdministration(.invalidField("users"))
        }
        guard users.count <= AccountAdministration.batchLimit else {
            throw AuthFailure.accountAdministration(.tooManyAccounts(limit: AccountAdministration.batchLimit))
        }
        var accounts: [ImportedAccount] = []
        accounts.reserveCapacity(users.count)
        for entry in users {
            guard let user = entry as? [String: any Sendable] else {
                throw AuthFailure.accountAdministration(.invalidField("users"))
            }
            var account = ImportedAccount()
            account.id = user["localId"] as? String
            account.email = user["email"] as? String
            account.emailVerified = user["emailVerified"] as? Bool ?? false
            account.displayName = user["displayName"] as? String
            account.photoURL = user["photoUrl"] as? String
            account.disabled = user["disabled"] as? Bool ?? false
            account.customClaims = user["customAttributes"] as? String
            account.createdAt = integer(user["createdAt"]).map { Date(timeIntervalSince1970: TimeInterval($0) / 1000) }
            account.lastLoginAt = integer(user["lastLoginAt"]).map { Date(timeIntervalSince1970: TimeInterval($0) / 1000) }
            account.passwordHash = (user["passwordHash"] as? String).map { base64($0) ?? [] }
            account.salt = (user["salt"] as? String).flatMap(base64)
            accounts.append(account)
        }
        guard let algorithm = call.string("hashAlgorithm") else { return (accounts, nil) }
        func bytes(_ name: String) throws -> [UInt8]? {
            guard let text = call.string(name) else { return nil }
            guard let decoded = base64(text) else {
                throw AuthFailure.accountAdministration(.invalidHashOptions("\(name) is not base64"))
            }
            return decoded
        }
        let options = try ImportHashOptions(
            algorithm: algorithm, signerKey: try bytes("signerKey"), saltSeparator: try bytes("saltSeparator"),
            rounds: call.int("rounds"), memoryCost: call.int("memoryCost") ?? call.int("cpuMemCost"),
            parallelization: call.int("parallelization"), blockSize: call.int("blockSize"),
            derivedKeyLength: call.int("dkLen"))
        return (accounts, options)
    }

    /// A JSON number or numeric string as an integer (firebase-admin sends some numbers as strings).
    static func integer(_ value: (any Sendable)?) -> Int? {
        switch value {
        case let number as Int: number
        case let number as Double where number.rounded() == number && abs(number) < 1e15: Int(number)
        case let text as String: Int(text)
        default: nil
        }
    }

    /// Standard or URL-safe base64, padded or not (RFC 4648 §§ 4, 5).
    static func base64(_ text: String) -> [UInt8]? {
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while standard.count % 4 != 0 { standard += "=" }
        return Data(base64Encoded: standard).map(Array.init)
    }

    /// URL-safe base64 without padding.
    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// A route at `projects/{project}/` + `name` and its tenant-scoped twin.
    private func route(
        _ router: inout Router, _ name: String, method: String = "POST", mayBlock: Router.BlockingTest? = nil,
        maxBodyBytes: Int? = nil, _ body: @escaping @Sendable (Call) throws -> HTTPResponse
    ) {
        let api = self
        let hasBody = method != "GET"
        for pattern in [Self.projects + "/" + name, Self.projects + "/tenants/{tenant}/" + name] {
            router.add(method, pattern, mayBlock: mayBlock, maxBodyBytes: maxBodyBytes) { request in
                api.run(
                    request, project: request.pathParameters["project"] ?? "",
                    tenantSegment: request.pathParameters["tenant"], parse: { hasBody ? try $0.jsonObject() : [:] }, body)
            }
        }
    }

    /// Checks the administrator's credential, resolves the tenant, parses the body, calls the
    /// domain, and renders any failure.
    private func run(
        _ request: HTTPRequest, project: String, tenantSegment: String?,
        parse: (HTTPRequest) throws -> [String: any Sendable], _ body: (Call) throws -> HTTPResponse
    ) -> HTTPResponse {
        do {
            guard let tenant = try authorize(request, project: project) else {
                return FirebaseRenderer.insufficientPermission(status: 401)
            }
            if let tenantSegment, tenantSegment != tenant.name {
                throw AuthFailure.accountAdministration(.unknownTenant)
            }
            let call = Call(body: try parse(request), tenant: tenant, request: request, tenantID: tenantSegment)
            return try body(call)
        } catch let error as HTTPError {
            return FirebaseRenderer().render(error, for: request)
        } catch AdminRefusal.otherTenant {
            return FirebaseRenderer.insufficientPermission(status: 403)
        } catch let failure as AuthFailure {
            return FirebaseRenderer().render(failure, tenant: nil, call: .other)
        } catch {
            if let outage = StoreOutage.httpError(for: error) {
                StoreOutage.log(error, log, request: request)
                return FirebaseRenderer().render(outage, for: request)
            }
            log.error("request failed", [("error", "\(error)")], request: request)
            return FirebaseRenderer().render(.internalServerError("internal error"), for: request)
        }
    }

    private enum AdminRefusal: Error { case otherTenant }

    /// The tenant the request's credential opens for `project`, or `nil` when it has none.
    /// - Throws: ``AccountAdminFailure/unknownProject``; `AdminRefusal.otherTenant` for a token
    ///   scoped to another tenant.
    private func authorize(_ request: HTTPRequest, project: String) throws -> Tenant? {
        let bearer = Self.bearerCredential(of: request)
        func tenant() throws -> Tenant {
            do {
                return try services.directory.tenant(named: project)
            } catch AuthFailure.unknownTenant {
                throw AuthFailure.accountAdministration(.unknownProject)
            }
        }
        if emulator, bearer == "owner" { return try tenant() }
        switch try authenticator.access(bearer: bearer, tenantName: project) {
        case .everyTenant: return try tenant()
        case .tenant(let scoped, _): return scoped
        case .missingToken, .invalidToken: return nil
        case .insufficientScope(let tokenID):
            log.warning("admin token used outside its tenant", [("admin_token_id", tokenID)], request: request)
            throw AdminRefusal.otherTenant
        }
    }

    /// The credential of an `Authorization: Bearer` header (RFC 6750 § 2.1).
    private static func bearerCredential(of request: HTTPRequest) -> String? {
        guard let header = request.headers["Authorization"], header.lowercased().hasPrefix("bearer ") else { return nil }
        return String(header.dropFirst(7))
    }
}
