import Foundation
import LatchServer
import LatchTesting
import Testing

/// The firebase-admin surface: `accounts`, `accounts:lookup|update|delete|batchDelete|batchGet|query`,
/// `accounts:sendOobCode` and `:createSessionCookie` under `/v1/projects/{project}[/tenants/{tenant}]`,
/// with an administrator's bearer credential (`reference/firebase-auth-protocol.md` § 6).
@Suite("Firebase: admin accounts")
struct AdminAccountTests {
    private func expectError(
        _ reply: WireResponse, _ message: String, status: Int = 400, reason: String = "invalid",
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(reply.status == status, sourceLocation: sourceLocation)
        #expect(
            String(decoding: reply.body, as: UTF8.self) == FirebaseClient.errorBody(message, code: status, reason: reason),
            sourceLocation: sourceLocation)
    }

    @Test("create, look up by id and e-mail, update and delete an account")
    func lifecycle() async throws {
        try await withFirebaseAdminServer { admin in
            let id = try await admin.create([
                "localId": "alice", "email": "Alice@Example.com", "password": "correct horse battery",
                "displayName": "Alice", "photoUrl": "https://example.com/a.png", "emailVerified": true,
            ])
            #expect(id == "alice")
            let record = try await admin.user("alice")
            #expect(record["email"] as? String == "alice@example.com")
            #expect(record["emailVerified"] as? Bool == true)
            #expect(record["displayName"] as? String == "Alice")
            #expect(record["photoUrl"] as? String == "https://example.com/a.png")
            #expect(record["disabled"] as? Bool == false)
            #expect(record["passwordHash"] as? String == "UkVEQUNURUQ=")
            #expect(Int(try #require(record["createdAt"] as? String)) != nil)
            #expect(Int(try #require(record["validSince"] as? String)) != nil)
            let byEmail = try await admin.post("accounts:lookup", ["email": ["alice@example.com"]])
            #expect((byEmail["users"] as? [[String: Any]])?.first?["localId"] as? String == "alice")

            let updated = try await admin.post(
                "accounts:update",
                ["localId": "alice", "disableUser": true, "deleteAttribute": ["DISPLAY_NAME"], "email": "a2@example.com"])
            #expect(updated.status == 200)
            #expect(updated.string("localId") == "alice")
            let after = try await admin.user("alice")
            #expect(after["disabled"] as? Bool == true)
            #expect(after["displayName"] == nil)
            #expect(after["email"] as? String == "a2@example.com")

            let deleted = try await admin.post("accounts:delete", ["localId": "alice"])
            #expect(deleted.status == 200)
            #expect(deleted.string("kind") == "identitytoolkit#DeleteAccountResponse")
            expectError(try await admin.post("accounts:delete", ["localId": "alice"]), "USER_NOT_FOUND")
        }
    }

    @Test("an account made without an id gets one; without an e-mail it has none")
    func generatedID() async throws {
        try await withFirebaseAdminServer { admin in
            let id = try await admin.create([:])
            #expect(!id.isEmpty)
            let record = try await admin.user(id)
            #expect(record["email"] == nil)
            #expect(record["passwordHash"] == nil)
        }
    }

    @Test("a lookup that finds nobody has no users field")
    func lookupOmitsUsers() async throws {
        try await withFirebaseAdminServer { admin in
            let reply = try await admin.post("accounts:lookup", ["localId": ["nobody"], "email": ["no@example.com"]])
            #expect(reply.status == 200)
            #expect(reply["users"] == nil)
        }
    }

    @Test("a taken id is DUPLICATE_LOCAL_ID and a taken e-mail EMAIL_EXISTS")
    func duplicates() async throws {
        try await withFirebaseAdminServer { admin in
            try await admin.create(["localId": "bob", "email": "bob@example.com"])
            expectError(try await admin.post("accounts", ["localId": "bob"]), "DUPLICATE_LOCAL_ID")
            expectError(try await admin.post("accounts", ["localId": "bob2", "email": "BOB@example.com"]), "EMAIL_EXISTS")
            expectError(try await admin.post("accounts", ["email": "not an address"]), "INVALID_EMAIL")
            expectError(
                try await admin.post("accounts", ["localId": String(repeating: "x", count: 129)]), "INVALID_ARGUMENT : uid")
        }
    }

    @Test("no credential, an unknown one, and Bearer owner outside emulator mode are refused")
    func credentials() async throws {
        try await withFirebaseAdminServer(emulator: false) { admin in
            #expect(try await admin.post("accounts", ["localId": "root-made"]).status == 200)
            for bearer in [nil, "owner", "not-a-token", ""] as [String?] {
                var other = admin
                other.bearer = bearer
                expectError(
                    try await other.post("accounts:lookup", ["localId": ["root-made"]]), "INSUFFICIENT_PERMISSION",
                    status: 401, reason: "unauthorized")
            }
        }
    }

    @Test("a token scoped to another tenant is 403; one scoped to this tenant works")
    func scopedTokens() async throws {
        try await withFirebaseAdminServer(emulator: false) { admin in
            let services = admin.server.app.services
            let other = try services.admin.createTenant(name: "other")
            let own = try services.admin.createAdminToken(tenant: try services.admin.tenant(named: "default"), label: "own")
            let foreign = try services.admin.createAdminToken(tenant: other, label: "foreign")
            var scoped = admin
            scoped.bearer = own.secret
            #expect(try await scoped.post("accounts", ["localId": "scoped"]).status == 200)
            scoped.bearer = foreign.secret
            expectError(
                try await scoped.post("accounts:lookup", ["localId": ["scoped"]]), "INSUFFICIENT_PERMISSION", status: 403,
                reason: "forbidden")
        }
    }

    @Test("an unknown project is CONFIGURATION_NOT_FOUND; a tenant segment must name the project")
    func projects() async throws {
        try await withFirebaseAdminServer { admin in
            var unknown = admin
            unknown.project = "nope"
            expectError(try await unknown.post("accounts", [:]), "CONFIGURATION_NOT_FOUND", status: 404)
            var tenant = admin
            tenant.tenantSegment = admin.project
            let id = try await tenant.create(["localId": "tenant-user"])
            #expect((try await tenant.user(id))["tenantId"] as? String == admin.project)
            tenant.tenantSegment = "elsewhere"
            expectError(try await tenant.post("accounts:lookup", ["localId": [id]]), "TENANT_NOT_FOUND")
        }
    }

    @Test("custom claims are validated, stored, and put in ID tokens at sign-in and after a refresh")
    func customClaims() async throws {
        try await withFirebaseAdminServer { admin in
            try await admin.create(["localId": "carol", "email": "carol@example.com", "password": "correct horse battery"])
            expectError(
                try await admin.post("accounts:update", ["localId": "carol", "customAttributes": "[1]"]), "INVALID_CLAIMS")
            expectError(
                try await admin.post("accounts:update", ["localId": "carol", "customAttributes": #"{"sub":"x"}"#]),
                "FORBIDDEN_CLAIM : sub")
            let large = #"{"a":""# + String(repeating: "x", count: 1000) + #""}"#
            expectError(
                try await admin.post("accounts:update", ["localId": "carol", "customAttributes": large]), "CLAIMS_TOO_LARGE")
            let set = try await admin.post(
                "accounts:update", ["localId": "carol", "customAttributes": #"{"role":"admin","level":3}"#])
            #expect(set.status == 200)
            #expect((try await admin.user("carol"))["customAttributes"] as? String == #"{"role":"admin","level":3}"#)

            let client = try FirebaseClient(admin.server)
            let signIn = try await client.post(
                FirebaseClient.v1 + "accounts:signInWithPassword",
                ["email": "carol@example.com", "password": "correct horse battery", "returnSecureToken": true])
            let claims = try FirebaseClient.claims(of: try #require(signIn.string("idToken")))
            #expect(claims["role"] as? String == "admin")
            #expect(claims["level"] as? Int == 3)
            let refreshed = try await client.post(
                FirebaseClient.securetoken,
                ["grantType": "refresh_token", "refreshToken": try #require(signIn.string("refreshToken"))])
            let again = try FirebaseClient.claims(of: try #require(refreshed.string("id_token")))
            #expect(again["role"] as? String == "admin")
            #expect(again["level"] as? Int == 3)
            let record = try await admin.user("carol")
            #expect(Int(try #require(record["lastLoginAt"] as? String)) != nil)
            #expect((record["lastRefreshAt"] as? String)?.hasSuffix("Z") == true)

            #expect(try await admin.post("accounts:update", ["localId": "carol", "customAttributes": "{}"]).status == 200)
            #expect((try await admin.user("carol"))["customAttributes"] == nil)
        }
    }

    @Test("validSince revokes the account's sessions")
    func revoke() async throws {
        try await withFirebaseAdminServer { admin in
            try await admin.create(["localId": "dave", "email": "dave@example.com", "password": "correct horse battery"])
            let client = try FirebaseClient(admin.server)
            let signIn = try await client.post(
                FirebaseClient.v1 + "accounts:signInWithPassword",
                ["email": "dave@example.com", "password": "correct horse battery", "returnSecureToken": true])
            admin.server.clock.advance(by: 2)
            let now = Int(admin.server.clock.now().timeIntervalSince1970)
            #expect(try await admin.post("accounts:update", ["localId": "dave", "validSince": now]).status == 200)
            #expect((try await admin.user("dave"))["validSince"] as? String == String(now))
            let refreshed = try await client.post(
                FirebaseClient.securetoken,
                ["grantType": "refresh_token", "refreshToken": try #require(signIn.string("refreshToken"))])
            expectError(refreshed, "TOKEN_EXPIRED")
        }
    }

    @Test("batchGet pages through every account and refuses a forged page token")
    func paging() async throws {
        try await withFirebaseAdminServer { admin in
            for index in 0..<5 { try await admin.create(["localId": "user-\(index)"]) }
            var seen: [String] = []
            var token: String?
            var pages = 0
            repeat {
                let query = "?maxResults=2" + (token.map { "&nextPageToken=\($0)" } ?? "")
                let reply = try await admin.raw("GET", admin.path("accounts:batchGet") + query)
                #expect(reply.status == 200)
                seen += (reply["users"] as? [[String: Any]] ?? []).compactMap { $0["localId"] as? String }
                token = reply.string("nextPageToken")
                pages += 1
            } while token != nil && pages < 10
            #expect(seen == (0..<5).map { "user-\($0)" })
            expectError(
                try await admin.raw("GET", admin.path("accounts:batchGet") + "?nextPageToken=%25%25"), "INVALID_PAGE_SELECTION")
            let query = try await admin.post("accounts:query", ["limit": 2, "offset": 1])
            #expect(query.string("recordsCount") == "5")
            #expect((query["userInfo"] as? [[String: Any]])?.count == 2)
        }
    }

    @Test("batchDelete keeps enabled accounts unless forced, and reports only them")
    func batchDelete() async throws {
        try await withFirebaseAdminServer { admin in
            try await admin.create(["localId": "on"])
            try await admin.create(["localId": "off", "disabled": true])
            let kept = try await admin.post("accounts:batchDelete", ["localIds": ["on", "off", "missing"]])
            let errors = try #require(kept["errors"] as? [[String: Any]])
            #expect(errors.count == 1)
            #expect(errors.first?["index"] as? Int == 0)
            #expect(errors.first?["localId"] as? String == "on")
            let forced = try await admin.post("accounts:batchDelete", ["localIds": ["on"], "force": true])
            #expect(forced.status == 200)
            #expect(forced["errors"] == nil)
            #expect(try await admin.post("accounts:lookup", ["localId": ["on", "off"]])["users"] == nil)
            let tooMany = (0...1000).map { "u\($0)" }
            expectError(
                try await admin.post("accounts:batchDelete", ["localIds": tooMany, "force": true]),
                "INVALID_ARGUMENT : at most 1000 accounts may be named in one request")
        }
    }

    @Test("a session cookie is the ID token's claims, signed, with the session issuer and the asked lifetime")
    func sessionCookie() async throws {
        try await withFirebaseAdminServer { admin in
            try await admin.create(["localId": "erin", "email": "erin@example.com", "password": "correct horse battery"])
            let client = try FirebaseClient(admin.server)
            let signIn = try await client.post(
                FirebaseClient.v1 + "accounts:signInWithPassword",
                ["email": "erin@example.com", "password": "correct horse battery", "returnSecureToken": true])
            let idToken = try #require(signIn.string("idToken"))
            let path = FirebaseAdminClient.base + admin.project + ":createSessionCookie"
            let reply = try await admin.raw("POST", path, body: ["idToken": idToken, "validDuration": 3600])
            #expect(reply.status == 200)
            let cookie = try #require(reply.string("sessionCookie"))
            let claims = try FirebaseClient.claims(of: cookie)
            #expect(claims["iss"] as? String == "https://session.firebase.google.com/\(admin.project)")
            #expect(claims["sub"] as? String == "erin")
            #expect(claims["aud"] as? String == admin.project)
            let issued = try #require(claims["iat"] as? Int)
            #expect(claims["exp"] as? Int == issued + 3600)
            #expect(try FirebaseClient.header(of: cookie)["kid"] is String)
            for duration in [299, 1_209_601] {
                expectError(
                    try await admin.raw("POST", path, body: ["idToken": idToken, "validDuration": duration]),
                    "INVALID_SESSION_COOKIE_DURATION")
            }
            expectError(try await admin.raw("POST", path, body: ["idToken": "x.y.z", "validDuration": 600]), "INVALID_ID_TOKEN")
            var bare = admin
            bare.bearer = nil
            expectError(
                try await bare.raw("POST", path, body: ["idToken": idToken, "validDuration": 600]), "INSUFFICIENT_PERMISSION",
                status: 401, reason: "unauthorized")
            expectError(
                try await admin.raw("POST", FirebaseAdminClient.base + admin.project + ":nothing", body: [:]), "NOT_FOUND",
                status: 404)
        }
    }

    @Test("a session cookie needs a live ID token of an enabled account")
    func sessionCookieRefusals() async throws {
        try await withFirebaseAdminServer { admin in
            try await admin.create(["localId": "gus", "email": "gus@example.com", "password": "correct horse battery"])
            let client = try FirebaseClient(admin.server)
            func idToken() async throws -> String {
                let signIn = try await client.post(
                    FirebaseClient.v1 + "accounts:signInWithPassword",
                    ["email": "gus@example.com", "password": "correct horse battery", "returnSecureToken": true])
                return try #require(signIn.string("idToken"))
            }
            let path = FirebaseAdminClient.base + admin.project + ":createSessionCookie"
            let expired = try await idToken()
            admin.server.clock.advance(by: 7200)
            expectError(try await admin.raw("POST", path, body: ["idToken": expired, "validDuration": 600]), "TOKEN_EXPIRED")
            let revoked = try await idToken()
            admin.server.clock.advance(by: 2)
            let now = Int(admin.server.clock.now().timeIntervalSince1970)
            #expect(try await admin.post("accounts:update", ["localId": "gus", "validSince": now]).status == 200)
            expectError(try await admin.raw("POST", path, body: ["idToken": revoked, "validDuration": 600]), "TOKEN_EXPIRED")
            let live = try await idToken()
            #expect(try await admin.post("accounts:update", ["localId": "gus", "disableUser": true]).status == 200)
            expectError(try await admin.raw("POST", path, body: ["idToken": live, "validDuration": 600]), "USER_DISABLED")
            expectError(
                try await admin.raw(
                    "POST", FirebaseAdminClient.base + "nope:createSessionCookie", body: ["idToken": live, "validDuration": 600]),
                "CONFIGURATION_NOT_FOUND", status: 404)
        }
    }

    @Test("sendOobCode with returnOobLink answers the action link and mails nothing; without it, mails; EMAIL_NOT_FOUND")
    func sendOobCode() async throws {
        try await withFirebaseAdminServer { admin in
            try await admin.create(["localId": "fay", "email": "fay@example.com"])
            let linked = try await admin.post(
                "accounts:sendOobCode", ["requestType": "PASSWORD_RESET", "email": "fay@example.com", "returnOobLink": true])
            #expect(linked.status == 200, "\(String(decoding: linked.body, as: UTF8.self))")
            let link = try #require(linked.string("oobLink"))
            #expect(link.contains("/emulator/action?mode=resetPassword&lang=en&oobCode="))
            #expect(linked.string("email") == "fay@example.com")
            #expect(try admin.server.outbox(to: "fay@example.com").isEmpty)

            let verify = try await admin.post(
                "accounts:sendOobCode", ["requestType": "VERIFY_EMAIL", "email": "fay@example.com", "returnOobLink": true])
            #expect(try #require(verify.string("oobLink")).contains("mode=verifyEmail"))
            let signIn = try await admin.post(
                "accounts:sendOobCode", ["requestType": "EMAIL_SIGNIN", "email": "new@example.com", "returnOobLink": true])
            #expect(try #require(signIn.string("oobLink")).contains("mode=signIn"))

            let mailed = try await admin.post(
                "accounts:sendOobCode", ["requestType": "PASSWORD_RESET", "email": "fay@example.com"])
            #expect(mailed.status == 200)
            #expect(mailed["oobLink"] == nil)
            #expect(try admin.server.outbox(to: "fay@example.com").count == 1)

            expectError(
                try await admin.post(
                    "accounts:sendOobCode",
                    ["requestType": "PASSWORD_RESET", "email": "nobody@example.com", "returnOobLink": true]),
                "EMAIL_NOT_FOUND")
            expectError(
                try await admin.post("accounts:sendOobCode", ["email": "fay@example.com", "returnOobLink": true]),
                "MISSING_REQ_TYPE")
            expectError(
                try await admin.post(
                    "accounts:sendOobCode", ["requestType": "NOPE", "email": "fay@example.com", "returnOobLink": true]),
                "INVALID_REQ_TYPE")
        }
    }
}

/// Races and malformed input on the administration calls: never a 500.
@Suite("Firebase: admin accounts, races and malformed input")
struct AdminAccountRobustnessTests {
    @Test("two concurrent creations of one id: one succeeds, the other is DUPLICATE_LOCAL_ID")
    func concurrentDuplicate() async throws {
        try await withFirebaseAdminServer { admin in
            async let first = admin.post("accounts", ["localId": "race"])
            async let second = admin.post("accounts", ["localId": "race"])
            let replies = try await [first, second]
            #expect(replies.map(\.status).sorted() == [200, 400])
            let refused = try #require(replies.first { $0.status == 400 })
            #expect(String(decoding: refused.body, as: UTF8.self) == FirebaseClient.errorBody("DUPLICATE_LOCAL_ID"))
        }
    }

    @Test("an id taken in another tenant is DUPLICATE_LOCAL_ID there too")
    func idAcrossTenants() async throws {
        try await withFirebaseAdminServer { admin in
            _ = try admin.server.app.services.admin.createTenant(name: "second")
            try await admin.create(["localId": "shared-id"])
            var other = admin
            other.project = "second"
            let reply = try await other.post("accounts", ["localId": "shared-id"])
            #expect(String(decoding: reply.body, as: UTF8.self) == FirebaseClient.errorBody("DUPLICATE_LOCAL_ID"))
            #expect(try await other.post("accounts:lookup", ["localId": ["shared-id"]])["users"] == nil)
        }
    }

    @Test("malformed bodies and fields are 400s")
    func malformed() async throws {
        try await withFirebaseAdminServer { admin in
            let notJSON = try await admin.wire.raw(
                "POST", admin.path("accounts:update"), body: Data("{nope".utf8),
                headers: ["Content-Type": "application/json", "Authorization": "Bearer owner"])
            #expect(notJSON.status == 400)
            try await admin.create(["localId": "m"])
            let cases: [(String, [String: Any], String)] = [
                ("accounts:update", ["localId": "m", "validSince": -1], "INVALID_ARGUMENT : validSince"),
                ("accounts:update", ["localId": "m", "customAttributes": 5], "INVALID_CLAIMS"),
                ("accounts:update", ["localId": "nobody", "displayName": "x"], "USER_NOT_FOUND"),
                ("accounts:update", ["displayName": "x"], "INVALID_ARGUMENT : uid"),
                ("accounts:batchCreate", ["users": "x"], "INVALID_ARGUMENT : users"),
                ("accounts:batchCreate", ["users": [1]], "INVALID_ARGUMENT : users"),
            ]
            for (call, body, message) in cases {
                let reply = try await admin.post(call, body)
                #expect(String(decoding: reply.body, as: UTF8.self) == FirebaseClient.errorBody(message), "\(call) \(body)")
            }
        }
    }
}
