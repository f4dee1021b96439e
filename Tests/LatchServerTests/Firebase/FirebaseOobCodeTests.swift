import Foundation
import LatchServer
import LatchTesting
import Testing

/// `accounts:sendOobCode`, `accounts:resetPassword` and `accounts:update` with `oobCode`, v1 and
/// v3 (`reference/firebase-auth-protocol.md` § 2, § 4, § 7): codes read back from the outbox,
/// single use, expiring, bound to tenant and kind, rate limited.
@Suite("Firebase: out-of-band codes")
struct FirebaseOobCodeTests {
    typealias F = OobFixtures

    @Test("VERIFY_EMAIL: the link names the action page, the code verifies the address once")
    func verifyEmail() async throws {
        try await withFirebaseServer { client in
            let (idToken, localID) = try await F.signUp(client, "ada@example.com")
            let sent = try await client.post(F.send, ["requestType": "VERIFY_EMAIL", "idToken": idToken])
            #expect(sent.status == 200, "\(sent.json)")
            #expect(sent.keys == ["email", "kind"])
            #expect(sent.string("kind") == "identitytoolkit#GetOobConfirmationCodeResponse")
            #expect(sent.string("email") == "ada@example.com")
            let message = try F.message(client, to: "ada@example.com")
            let code = try #require(message.code)
            #expect(code.utf8.count >= 43)
            #expect(message.subject == "Verify your e-mail address")
            let key = try #require(client.apiKey)
            #expect(
                message.body.contains(
                    "http://latch.test/emulator/action?mode=verifyEmail&lang=en&oobCode=\(code)&apiKey=\(key)\n"),
                "\(message.body)")

            let applied = try await client.post(F.update, ["oobCode": code])
            #expect(applied.status == 200, "\(applied.json)")
            #expect(applied.string("kind") == "identitytoolkit#SetAccountInfoResponse")
            #expect(applied.string("localId") == localID)
            #expect(applied.string("email") == "ada@example.com")
            #expect(applied["emailVerified"] as? Bool == true)
            #expect(try F.user(client, "ada@example.com")?.emailVerified == true)

            F.expectError(try await client.post(F.update, ["oobCode": code]), "INVALID_OOB_CODE")
            F.expectError(try await client.post(F.updateV3, ["oobCode": code]), "INVALID_OOB_CODE")
            // The idToken path of accounts:update still works.
            let renamed = try await client.post(F.update, ["idToken": idToken, "displayName": "Ada"])
            #expect(renamed.status == 200)
            #expect(renamed.string("displayName") == "Ada")
        }
    }

    @Test("PASSWORD_RESET over v3: the code alone is checked, not used; the new password ends other sessions")
    func passwordReset() async throws {
        try await withFirebaseServer { client in
            let signUp = try await client.post(
                FirebaseClient.v1 + "accounts:signUp",
                ["email": "bo@example.com", "password": F.password, "returnSecureToken": true])
            let refreshToken = try #require(signUp.string("refreshToken"))
            let sent = try await client.post(F.sendV3, ["requestType": "PASSWORD_RESET", "email": "Bo@Example.com"])
            #expect(sent.status == 200, "\(sent.json)")
            #expect(sent.string("email") == "bo@example.com")
            let code = try F.code(client, to: "bo@example.com")
            #expect(try F.message(client, to: "bo@example.com").body.contains("mode=resetPassword"))

            for _ in 0..<2 {
                let checked = try await client.post(F.resetV3, ["oobCode": code])
                #expect(checked.status == 200, "\(checked.json)")
                #expect(checked.keys == ["email", "kind", "requestType"])
                #expect(checked.string("email") == "bo@example.com")
                #expect(checked.string("requestType") == "PASSWORD_RESET")
            }
            client.server.clock.advance(by: 1)
            let reset = try await client.post(F.resetV3, ["oobCode": code, "newPassword": NativeAuthFixture.otherPassword])
            #expect(reset.status == 200, "\(reset.json)")
            #expect(reset.string("kind") == "identitytoolkit#ResetPasswordResponse")
            #expect(reset.string("email") == "bo@example.com")
            #expect(reset.string("requestType") == "PASSWORD_RESET")
            #expect(try F.user(client, "bo@example.com")?.emailVerified == true)

            F.expectError(
                try await client.post(FirebaseClient.securetoken, ["grantType": "refresh_token", "refreshToken": refreshToken]),
                "TOKEN_EXPIRED")
            let signIn = try await client.post(
                FirebaseClient.v1 + "accounts:signInWithPassword",
                ["email": "bo@example.com", "password": NativeAuthFixture.otherPassword])
            #expect(signIn.status == 200)
            F.expectError(
                try await client.post(F.reset, ["oobCode": code, "newPassword": F.password]), "INVALID_OOB_CODE")
            F.expectError(try await client.post(F.reset, ["oobCode": code]), "INVALID_OOB_CODE")
        }
    }

    @Test("VERIFY_AND_CHANGE_EMAIL: sent to the new address, which becomes the verified address")
    func verifyAndChangeEmail() async throws {
        try await withFirebaseServer { client in
            let (idToken, localID) = try await F.signUp(client, "cy@example.com")
            _ = try await F.signUp(client, "taken@example.com")
            let path = FirebaseClient.v3 + "getOobConfirmationCode"
            F.expectError(
                try await client.post(
                    path, ["requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": idToken, "newEmail": "taken@example.com"]),
                "EMAIL_EXISTS")
            F.expectError(
                try await client.post(path, ["requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": idToken]),
                "MISSING_NEW_EMAIL")
            F.expectError(
                try await client.post(
                    path, ["requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": idToken, "newEmail": "nope"]),
                "INVALID_NEW_EMAIL")
            let sent = try await client.post(
                path, ["requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": idToken, "newEmail": "cy.new@example.com"])
            #expect(sent.status == 200, "\(sent.json)")
            #expect(sent.string("email") == "cy.new@example.com")
            #expect(try client.server.outbox(to: "cy@example.com").isEmpty)
            let code = try F.code(client, to: "cy.new@example.com")
            #expect(try F.message(client, to: "cy.new@example.com").body.contains("mode=verifyAndChangeEmail"))

            let checked = try await client.post(F.reset, ["oobCode": code])
            #expect(checked.string("requestType") == "VERIFY_AND_CHANGE_EMAIL")
            #expect(checked.string("email") == "cy@example.com")
            #expect(checked.string("newEmail") == "cy.new@example.com")

            let applied = try await client.post(F.updateV3, ["oobCode": code])
            #expect(applied.status == 200, "\(applied.json)")
            #expect(applied.string("localId") == localID)
            #expect(applied.string("email") == "cy.new@example.com")
            #expect(applied["emailVerified"] as? Bool == true)
            #expect(try F.user(client, "cy@example.com") == nil)
            F.expectError(try await client.post(F.update, ["oobCode": code]), "INVALID_OOB_CODE")

            // Like every e-mail change, it needs a recent sign-in.
            client.server.clock.advance(by: 301)
            F.expectError(
                try await client.post(
                    path, ["requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": idToken, "newEmail": "cy.3@example.com"]),
                "CREDENTIAL_TOO_OLD_LOGIN_AGAIN")
        }
    }

    @Test("the address is taken between the send and the apply: EMAIL_EXISTS, and the code is not used up")
    func changeRace() async throws {
        try await withFirebaseServer { client in
            let (idToken, _) = try await F.signUp(client, "dee@example.com")
            let code = try await F.sendCode(
                client, "VERIFY_AND_CHANGE_EMAIL", to: "dee.new@example.com",
                body: ["idToken": idToken, "newEmail": "dee.new@example.com"])
            _ = try await F.signUp(client, "dee.new@example.com")
            F.expectError(try await client.post(F.update, ["oobCode": code]), "EMAIL_EXISTS")
        }
    }

    @Test("PASSWORD_RESET for an unknown address: EMAIL_NOT_FOUND, or success and no message when protected")
    func enumerationProtection() async throws {
        try await withFirebaseServer { client in
            F.expectError(
                try await client.post(F.send, ["requestType": "PASSWORD_RESET", "email": "nobody@example.com"]),
                "EMAIL_NOT_FOUND")
            try client.server.updateTenant { $0.enumerationProtection = true }
            let hidden = try await client.post(F.send, ["requestType": "PASSWORD_RESET", "email": "nobody@example.com"])
            #expect(hidden.status == 200, "\(hidden.json)")
            #expect(hidden.string("email") == "nobody@example.com")
            #expect(try client.server.outbox(to: "nobody@example.com").isEmpty)
            _ = try await F.signUp(client, "eve@example.com")
            _ = try await F.sendCode(client, "PASSWORD_RESET", to: "eve@example.com")
        }
    }

    @Test("expired codes are EXPIRED_OOB_CODE at resetPassword and update")
    func expiry() async throws {
        try await withFirebaseServer { client in
            let (idToken, _) = try await F.signUp(client, "fay@example.com")
            let reset = try await F.sendCode(client, "PASSWORD_RESET", to: "fay@example.com")
            client.server.clock.advance(by: 1)
            let verify = try await F.sendCode(client, "VERIFY_EMAIL", to: "fay@example.com", body: ["idToken": idToken])
            #expect(reset != verify)
            client.server.clock.advance(by: OobCodeService.lifetime + 1)
            F.expectError(try await client.post(F.reset, ["oobCode": reset]), "EXPIRED_OOB_CODE")
            F.expectError(
                try await client.post(F.reset, ["oobCode": reset, "newPassword": NativeAuthFixture.otherPassword]),
                "EXPIRED_OOB_CODE")
            F.expectError(try await client.post(F.update, ["oobCode": verify]), "EXPIRED_OOB_CODE")
        }
    }

    @Test("another tenant's code and a code of the wrong kind are INVALID_OOB_CODE and stay usable")
    func bindings() async throws {
        try await withFirebaseServer { client in
            let (idToken, _) = try await F.signUp(client, "gil@example.com")
            let other = try F.otherTenant(client)
            let verify = try await F.sendCode(client, "VERIFY_EMAIL", to: "gil@example.com", body: ["idToken": idToken])
            client.server.clock.advance(by: 1)
            let reset = try await F.sendCode(client, "PASSWORD_RESET", to: "gil@example.com")

            F.expectError(try await other.post(F.update, ["oobCode": verify]), "INVALID_OOB_CODE")
            F.expectError(try await other.post(F.reset, ["oobCode": reset]), "INVALID_OOB_CODE")
            F.expectError(
                try await client.post(F.reset, ["oobCode": verify, "newPassword": NativeAuthFixture.otherPassword]),
                "INVALID_OOB_CODE")
            F.expectError(try await client.post(F.update, ["oobCode": reset]), "INVALID_OOB_CODE")
            F.expectError(
                try await client.post(F.emailLink, ["oobCode": reset, "email": "gil@example.com"]), "INVALID_OOB_CODE")
            F.expectError(try await client.post(F.update, ["oobCode": "not-a-code"]), "INVALID_OOB_CODE")
            F.expectError(try await client.post(F.update, ["oobCode": String(repeating: "a", count: 4096)]), "INVALID_OOB_CODE")

            #expect(try await client.post(F.update, ["oobCode": verify]).status == 200)
            let done = try await client.post(F.reset, ["oobCode": reset, "newPassword": NativeAuthFixture.otherPassword])
            #expect(done.status == 200, "\(done.json)")
        }
    }

    @Test("concurrent applications of one code: exactly one succeeds")
    func concurrentApply() async throws {
        try await withFirebaseServer { client in
            let (idToken, _) = try await F.signUp(client, "hal@example.com")
            let code = try await F.sendCode(client, "VERIFY_EMAIL", to: "hal@example.com", body: ["idToken": idToken])
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        try await client.post(index % 2 == 0 ? F.update : F.updateV3, ["oobCode": code]).status
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 200 }.count == 1, "\(statuses)")
            #expect(statuses.filter { $0 == 400 }.count == 7, "\(statuses)")
        }
    }

    @Test("a weak new password is WEAK_PASSWORD with the policy's reason and leaves the code usable")
    func weakPassword() async throws {
        try await withFirebaseServer { client in
            _ = try await F.signUp(client, "ida@example.com")
            let code = try await F.sendCode(client, "PASSWORD_RESET", to: "ida@example.com")
            F.expectError(
                try await client.post(F.reset, ["oobCode": code, "newPassword": "abc"]),
                "WEAK_PASSWORD : " + PasswordViolation.tooShort(minimum: 8).explanation)
            F.expectError(try await client.post(F.reset, ["oobCode": code, "newPassword": ""]), "MISSING_PASSWORD")
            #expect(
                try await client.post(F.reset, ["oobCode": code, "newPassword": NativeAuthFixture.otherPassword]).status == 200)
        }
    }

    @Test("code sends are rate limited per source: TOO_MANY_ATTEMPTS_TRY_LATER with Retry-After")
    func rateLimit() async throws {
        try await withFirebaseServer { client in
            try client.server.updateTenant { $0.rateLimits.codeSends = RateLimit(count: 2, periodSeconds: 600) }
            _ = try await F.signUp(client, "jo@example.com")
            for _ in 0..<2 { _ = try await F.sendCode(client, "PASSWORD_RESET", to: "jo@example.com") }
            let refused = try await client.post(F.sendV3, ["requestType": "PASSWORD_RESET", "email": "jo@example.com"])
            F.expectError(refused, "TOO_MANY_ATTEMPTS_TRY_LATER")
            #expect(Int(refused.headers["retry-after"] ?? "") ?? 0 >= 1, "\(refused.headers)")
            #expect(try client.server.outbox(to: "jo@example.com").count == 2)
        }
    }

    @Test("sends to one address are capped across sources")
    func perAddressCap() async throws {
        try await withFirebaseServer { client in
            try client.server.updateTenant {
                $0.rateLimits = .off
                $0.codeSendsPerWindow = 1
                $0.codeSendsPerAddressPerWindow = 2
            }
            _ = try await F.signUp(client, "kim@example.com")
            for _ in 0..<2 { _ = try await F.sendCode(client, "PASSWORD_RESET", to: "kim@example.com") }
            let refused = try await client.post(F.send, ["requestType": "PASSWORD_RESET", "email": "kim@example.com"])
            F.expectError(refused, "TOO_MANY_ATTEMPTS_TRY_LATER")
            #expect(refused.headers["retry-after"] != nil)
        }
    }

    @Test(
        "malformed requests: MISSING_REQ_TYPE, INVALID_REQ_TYPE, MISSING_OOB_CODE, MISSING_EMAIL, INVALID_EMAIL, bad continueUrl")
    func malformed() async throws {
        try await withFirebaseServer { client in
            let (idToken, _) = try await F.signUp(client, "lea@example.com")
            F.expectError(try await client.post(F.send, ["email": "lea@example.com"]), "MISSING_REQ_TYPE")
            F.expectError(try await client.post(F.send, ["requestType": "SEND_MONEY"]), "INVALID_REQ_TYPE")
            F.expectError(try await client.post(F.send, ["requestType": "PASSWORD_RESET"]), "MISSING_EMAIL")
            F.expectError(try await client.post(F.send, ["requestType": "PASSWORD_RESET", "email": "x"]), "INVALID_EMAIL")
            F.expectError(
                try await client.post(F.send, ["requestType": "EMAIL_SIGNIN", "email": "x@anonymous.invalid"]),
                "INVALID_EMAIL")
            F.expectError(try await client.post(F.send, ["requestType": "VERIFY_EMAIL"]), "INVALID_ID_TOKEN")
            F.expectError(
                try await client.post(F.send, ["requestType": "VERIFY_EMAIL", "idToken": "a.b.c"]), "INVALID_ID_TOKEN")
            F.expectError(
                try await client.post(
                    F.send, ["requestType": "VERIFY_EMAIL", "idToken": idToken, "continueUrl": "javascript:alert(1)"]),
                "INVALID_CONTINUE_URI")
            F.expectError(try await client.post(F.reset, [:]), "MISSING_OOB_CODE")
            F.expectError(try await client.post(F.reset, ["newPassword": F.password]), "MISSING_OOB_CODE")
            let malformed = try await client.wire.raw(
                "POST", F.send + "?key=\(client.apiKey ?? "")", body: Data("{not json".utf8),
                headers: ["Content-Type": "application/json"])
            #expect(malformed.status == 400)

            let code = try await F.sendCode(
                client, "VERIFY_EMAIL", to: "lea@example.com",
                body: ["idToken": idToken, "continueUrl": "https://app.example.com/done?x=1"])
            let message = try F.message(client, to: "lea@example.com")
            #expect(message.body.contains("oobCode=\(code)&apiKey="))
            #expect(message.body.contains("&continueUrl=https%3A%2F%2Fapp.example.com%2Fdone%3Fx%3D1\n"), "\(message.body)")
        }
    }

    @Test("a disabled account: PASSWORD_RESET refused, and its reset code is USER_DISABLED")
    func disabled() async throws {
        try await withFirebaseServer { client in
            _ = try await F.signUp(client, "max@example.com")
            let code = try await F.sendCode(client, "PASSWORD_RESET", to: "max@example.com")
            var user = try #require(try F.user(client, "max@example.com"))
            user.disabled = true
            let disabled = user
            try client.server.app.services.store.write { tx in try tx.update(disabled) }
            F.expectError(
                try await client.post(F.reset, ["oobCode": code, "newPassword": NativeAuthFixture.otherPassword]),
                "USER_DISABLED")
            F.expectError(
                try await client.post(F.send, ["requestType": "PASSWORD_RESET", "email": "max@example.com"]),
                "USER_DISABLED")
        }
    }

    @Test("the domain issues a code with its link without sending it, for the administration surface")
    func issueWithoutSending() async throws {
        try await withFirebaseServer { client in
            _ = try await F.signUp(client, "ned@example.com")
            let services = client.server.app.services
            let (tenant, clientRecord) = try services.directory.client(apiKey: client.apiKey)
            let context = ClientContext(tenant: tenant, client: clientRecord, remoteAddress: "127.0.0.1")
            let issued = try services.oobCodes.issue(
                context, kind: .passwordReset, email: "ned@example.com", continueURL: "https://app.example.com/",
                deliver: false)
            #expect(issued.recipient == "ned@example.com")
            #expect(issued.kind == .passwordReset)
            #expect(
                issued.link
                    == "http://latch.test/emulator/action?mode=resetPassword&lang=en&oobCode=\(issued.code)"
                    + "&apiKey=\(clientRecord.apiKey)&continueUrl=https%3A%2F%2Fapp.example.com%2F")
            #expect(try client.server.outbox(to: "ned@example.com").isEmpty)
            #expect(throws: AuthFailure.userNotFound) {
                try services.oobCodes.issue(context, kind: .verifyEmail, email: "nobody@example.com", deliver: false)
            }
            let signIn = try services.oobCodes.issue(context, kind: .emailSignIn, email: "new@example.com", deliver: true)
            #expect(try client.server.latestCode(to: "new@example.com") == signIn.code)
            let reset = try await client.post(F.reset, ["oobCode": issued.code, "newPassword": NativeAuthFixture.otherPassword])
            #expect(reset.status == 200, "\(reset.json)")
        }
    }
    @Test("the development log line of an out-of-band message carries code= and link=")
    func developmentLogLine() throws {
        let lines = LockedLines()
        let transport = DevelopmentLogTransport(log: ServerLog { lines.append($0) })
        let link = "http://latch.test/emulator/action?mode=signIn&lang=en&oobCode=abc_DEF-1&apiKey=k"
        try transport.deliver(
            OutboxMessage(
                tenantID: "t", recipient: "ada@example.com", subject: "Your sign-in link",
                body: "Open this link:\n\n\(link)\n\nIt works once.", code: "abc_DEF-1", createdAt: Date()))
        let line = try #require(lines.all.first)
        #expect(line.contains("to=ada@example.com code=abc_DEF-1 link=\(link) subject="), "\(line)")
    }
}

/// Lines a test log collects, from any thread.
final class LockedLines: @unchecked Sendable {  // guarded by `lock`
    private let lock = NSLock()
    private var lines: [String] = []

    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}
