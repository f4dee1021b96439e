import Foundation
import LatchServer
import LatchTesting
import Testing

/// The hosted action page at `/emulator/action` and `/__/auth/action`
/// (`reference/firebase-auth-protocol.md` § 7): GET never uses a code up, POST needs the form's
/// anti-forgery token with its cookie, every answer is HTML with the protective headers.
@Suite("Firebase: hosted action page")
struct FirebaseActionPageTests {
    typealias F = OobFixtures

    /// One page answer: status, headers, HTML, and the form's token and cookie when there is a form.
    struct Page {
        let response: InProcessResponse
        var status: Int { response.status }
        var html: String { String(decoding: response.body, as: UTF8.self) }
        var header: [String: String] { response.headers }

        /// The value of the hidden field `name`.
        func field(_ name: String) -> String? {
            guard let range = html.range(of: "name=\"\(name)\" value=\"") else { return nil }
            let rest = html[range.upperBound...]
            return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
        }

        /// The `name=value` pair of the `Set-Cookie` header.
        var cookie: String? { header["set-cookie"].flatMap { $0.split(separator: ";").first.map(String.init) } }
    }

    static func get(_ server: LatchTestServer, _ target: String, cookie: String? = nil) async -> Page {
        Page(response: await server.send(method: "GET", target: target, headers: cookie.map { [("Cookie", $0)] } ?? []))
    }

    static func post(_ server: LatchTestServer, _ path: String, _ form: [String: String], cookie: String?) async -> Page {
        let body = form.sorted { $0.key < $1.key }.map { "\(WireClient.encode($0.key))=\(WireClient.encode($0.value))" }
            .joined(separator: "&")
        var headers = [("Content-Type", "application/x-www-form-urlencoded")]
        if let cookie { headers.append(("Cookie", cookie)) }
        return Page(response: await server.send(method: "POST", target: path, headers: headers, body: Array(body.utf8)))
    }

    /// The link of the newest message to `recipient`, as a path with query.
    static func linkTarget(_ client: FirebaseClient, to recipient: String) throws -> String {
        let body = try F.message(client, to: recipient).body
        let line = try #require(body.split(separator: "\n").first { $0.hasPrefix("http://latch.test/") })
        return String(line.dropFirst("http://latch.test".count))
    }

    static func expectHeaders(_ page: Page, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(page.header["content-type"] == "text/html; charset=utf-8", sourceLocation: sourceLocation)
        #expect(
            page.header["content-security-policy"]
                == "default-src 'none'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
            sourceLocation: sourceLocation)
        #expect(page.header["x-frame-options"] == "DENY", sourceLocation: sourceLocation)
        #expect(page.header["cache-control"] == "no-store", sourceLocation: sourceLocation)
        #expect(page.header["referrer-policy"] == "no-referrer", sourceLocation: sourceLocation)
        #expect(page.header["x-content-type-options"] == "nosniff", sourceLocation: sourceLocation)
        #expect(!page.html.contains("<script"), sourceLocation: sourceLocation)
        #expect(!page.html.contains("style="), sourceLocation: sourceLocation)
    }

    @Test("verifyEmail: GET shows a form and uses nothing up; POST with the token applies the code once")
    func verifyEmail() async throws {
        try await withFirebaseServer { client in
            let server = client.server
            let (idToken, _) = try await F.signUp(client, "ada@example.com")
            let code = try await F.sendCode(client, "VERIFY_EMAIL", to: "ada@example.com", body: ["idToken": idToken])
            let target = try Self.linkTarget(client, to: "ada@example.com")
            #expect(target.hasPrefix("/emulator/action?mode=verifyEmail&lang=en&oobCode="))

            var page = await Self.get(server, target)
            for _ in 0..<2 { page = await Self.get(server, target) }
            #expect(page.status == 200, "\(page.html)")
            Self.expectHeaders(page)
            #expect(page.html.contains("<form method=\"post\" action=\"/emulator/action\">"))
            #expect(page.html.contains("ada@example.com"))
            let setCookie = try #require(page.header["set-cookie"])
            #expect(setCookie.contains("HttpOnly"))
            #expect(setCookie.contains("SameSite=Strict"))
            #expect(setCookie.contains("Path=/"))
            #expect(try F.user(client, "ada@example.com")?.emailVerified == false)
            #expect(try await client.post(F.reset, ["oobCode": code]).status == 200)

            var form = [
                "mode": "verifyEmail", "oobCode": code, "apiKey": client.apiKey ?? "",
                "csrfToken": try #require(page.field("csrfToken")),
            ]
            let done = await Self.post(server, "/emulator/action", form, cookie: page.cookie)
            #expect(done.status == 200, "\(done.html)")
            Self.expectHeaders(done)
            #expect(done.html.contains("Your e-mail address is verified"))
            #expect(try F.user(client, "ada@example.com")?.emailVerified == true)

            let again = await Self.post(server, "/emulator/action", form, cookie: page.cookie)
            #expect(again.status == 400)
            #expect(again.html.contains("This link is not valid"))
            form["mode"] = "signIn"
            #expect(await Self.post(server, "/emulator/action", form, cookie: page.cookie).status == 400)
        }
    }

    @Test("POST without the cookie, with another cookie, or with a wrong or missing token is refused, code kept")
    func antiForgery() async throws {
        try await withFirebaseServer { client in
            let server = client.server
            let (idToken, _) = try await F.signUp(client, "bo@example.com")
            let code = try await F.sendCode(client, "VERIFY_EMAIL", to: "bo@example.com", body: ["idToken": idToken])
            let page = await Self.get(server, try Self.linkTarget(client, to: "bo@example.com"))
            let token = try #require(page.field("csrfToken"))
            let cookie = try #require(page.cookie)
            let form = ["mode": "verifyEmail", "oobCode": code, "apiKey": client.apiKey ?? "", "csrfToken": token]

            let other = await Self.get(server, try Self.linkTarget(client, to: "bo@example.com"))
            let otherCookie = try #require(other.cookie)
            #expect(otherCookie != cookie)
            var tampered = form
            tampered["csrfToken"] = String(token.reversed())
            var missing = form
            missing["csrfToken"] = nil
            let attempts: [([String: String], String?)] = [
                (form, nil), (form, otherCookie), (tampered, cookie), (missing, cookie),
                (form, "latch-action=short"),
            ]
            for (fields, sent) in attempts {
                let refused = await Self.post(server, "/emulator/action", fields, cookie: sent)
                #expect(refused.status == 403, "\(refused.html)")
                Self.expectHeaders(refused)
                #expect(refused.html.contains("This form cannot be used"))
            }
            #expect(try F.user(client, "bo@example.com")?.emailVerified == false)
            #expect(await Self.post(server, "/emulator/action", form, cookie: cookie).status == 200)
        }
    }

    @Test("resetPassword at /__/auth/action: a labelled new-password field, policy errors on the page, then success")
    func resetPassword() async throws {
        try await withFirebaseServer { client in
            let server = client.server
            _ = try await F.signUp(client, "cy@example.com")
            let code = try await F.sendCode(
                client, "PASSWORD_RESET", to: "cy@example.com", body: ["continueUrl": "https://app.example.com/?a=1&b=2"])
            let target = try Self.linkTarget(client, to: "cy@example.com").replacingOccurrences(
                of: "/emulator/action", with: "/__/auth/action")
            let page = await Self.get(server, target)
            #expect(page.status == 200, "\(page.html)")
            Self.expectHeaders(page)
            #expect(page.html.contains("<form method=\"post\" action=\"/__/auth/action\">"))
            #expect(page.html.contains("<label for=\"newPassword\">New password</label>"))
            #expect(page.html.contains("autocomplete=\"new-password\""))
            var form = [
                "mode": "resetPassword", "oobCode": code, "apiKey": client.apiKey ?? "",
                "csrfToken": try #require(page.field("csrfToken")), "newPassword": "abc",
            ]
            let weak = await Self.post(server, "/__/auth/action", form, cookie: page.cookie)
            #expect(weak.status == 400)
            Self.expectHeaders(weak)
            #expect(weak.html.contains("aria-describedby=\"newPassword-error\""))
            #expect(weak.html.contains(escapedForHTML(PasswordViolation.tooShort(minimum: 8).explanation)))

            form["newPassword"] = NativeAuthFixture.otherPassword
            let done = await Self.post(server, "/__/auth/action", form, cookie: page.cookie)
            #expect(done.status == 200, "\(done.html)")
            #expect(done.html.contains("Your password has been changed"))
            #expect(done.html.contains("<a href=\"https://app.example.com/?a=1&amp;b=2\" rel=\"noreferrer\">"))
            let signIn = try await client.post(
                FirebaseClient.v1 + "accounts:signInWithPassword",
                ["email": "cy@example.com", "password": NativeAuthFixture.otherPassword])
            #expect(signIn.status == 200)
        }
    }

    @Test("verifyAndChangeEmail: POST moves the account to the new address")
    func changeEmail() async throws {
        try await withFirebaseServer { client in
            let (idToken, localID) = try await F.signUp(client, "dee@example.com")
            let code = try await F.sendCode(
                client, "VERIFY_AND_CHANGE_EMAIL", to: "dee.new@example.com",
                body: ["idToken": idToken, "newEmail": "dee.new@example.com"])
            let page = await Self.get(client.server, try Self.linkTarget(client, to: "dee.new@example.com"))
            #expect(page.status == 200)
            #expect(page.html.contains("dee.new@example.com"))
            let form = [
                "mode": "verifyAndChangeEmail", "oobCode": code, "apiKey": client.apiKey ?? "",
                "csrfToken": try #require(page.field("csrfToken")),
            ]
            let done = await Self.post(client.server, "/emulator/action", form, cookie: page.cookie)
            #expect(done.status == 200, "\(done.html)")
            #expect(try F.user(client, "dee.new@example.com")?.id == localID)
        }
    }

    @Test("signIn: the page says to finish in the app and the code stays for signInWithEmailLink")
    func signIn() async throws {
        try await withFirebaseServer { client in
            let code = try await F.sendCode(client, "EMAIL_SIGNIN", to: "eve@example.com")
            let page = await Self.get(client.server, try Self.linkTarget(client, to: "eve@example.com"))
            #expect(page.status == 200)
            Self.expectHeaders(page)
            #expect(!page.html.contains("<form"))
            #expect(page.html.contains("in the app"))
            #expect(try await client.post(F.emailLink, ["email": "eve@example.com", "oobCode": code]).status == 200)
        }
    }

    @Test("bad, expired, wrong-mode and unknown-key links are 400 pages; unknown paths and methods are HTML too")
    func badLinks() async throws {
        try await withFirebaseServer { client in
            let server = client.server
            let (idToken, _) = try await F.signUp(client, "fay@example.com")
            _ = try await F.sendCode(client, "VERIFY_EMAIL", to: "fay@example.com", body: ["idToken": idToken])
            let target = try Self.linkTarget(client, to: "fay@example.com")
            let key = client.apiKey ?? ""
            for bad in [
                "/emulator/action", "/emulator/action?mode=verifyEmail&apiKey=\(key)",
                "/emulator/action?mode=verifyEmail&oobCode=nope&apiKey=\(key)",
                target.replacingOccurrences(of: "mode=verifyEmail", with: "mode=resetPassword"),
                target.replacingOccurrences(of: "mode=verifyEmail", with: "mode=%3Cscript%3E"),
                target.replacingOccurrences(of: "apiKey=\(key)", with: "apiKey=unknown"),
            ] {
                let page = await Self.get(server, bad)
                #expect(page.status == 400, "\(bad): \(page.html)")
                Self.expectHeaders(page)
            }
            let other = try F.otherTenant(client)
            let foreign = target.replacingOccurrences(of: "apiKey=\(key)", with: "apiKey=\(other.apiKey ?? "")")
            #expect(await Self.get(server, foreign).status == 400)

            server.clock.advance(by: OobCodeService.lifetime + 1)
            let expired = await Self.get(server, target)
            #expect(expired.status == 400)
            #expect(expired.html.contains("This link has expired"))

            let notFound = await Self.get(server, "/emulator/action/elsewhere")
            #expect(notFound.status == 404)
            Self.expectHeaders(notFound)
            let wrongMethod = Page(response: await server.send(method: "DELETE", target: "/__/auth/action"))
            #expect(wrongMethod.status == 405)
            Self.expectHeaders(wrongMethod)
            let notForm = Page(
                response: await server.send(
                    method: "POST", target: "/emulator/action", headers: [("Content-Type", "application/json")],
                    body: Array("{}".utf8)))
            #expect(notForm.status == 400)
            Self.expectHeaders(notForm)
        }
    }

    @Test("echoed values are HTML-escaped")
    func escaping() async throws {
        try await withFirebaseServer { client in
            let address = "o'<b>&\"x@example.com"
            _ = try await F.signUp(client, address)
            let code = try await F.sendCode(client, "PASSWORD_RESET", to: address.lowercased())
            let page = await Self.get(
                client.server,
                "/emulator/action?mode=resetPassword&oobCode=\(WireClient.encode(code))&apiKey=\(client.apiKey ?? "")")
            #expect(page.status == 200, "\(page.html)")
            #expect(page.html.contains("o&#39;&lt;b&gt;&amp;&quot;x@example.com"))
            #expect(!page.html.contains("<b>"))
        }
    }
}

/// The page's escaping of `text`, as a test expects to find it.
private func escapedForHTML(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
        .replacingOccurrences(of: "'", with: "&#39;")
}
