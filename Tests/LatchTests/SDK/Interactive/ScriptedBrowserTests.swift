import Foundation
import Testing

@testable import LatchSDKTesting

/// The scripted browser's reading of pages and cookies, which the end-to-end tests rely on.
@Suite("Scripted browser: forms and cookies")
struct ScriptedBrowserTests {
    @Test("forms give their action, hidden inputs, field names and named buttons")
    func forms() throws {
        let html = """
            <html><body>
            <form id="signin" method="post" action="/default/login?x=1&amp;y=2">
              <input type="hidden" name="csrf_token" value="c&quot;1">
              <input type='hidden' name='interaction' value='i-2'>
              <label for="username">E-mail</label><input id="username" name="username" type="email" value="ada@example.com">
              <input id="password" name="password" type="password">
              <button name="action" value="password">Sign in</button>
              <button name="action" value="send_code" type="submit">E-mail me a code</button>
            </form>
            <form id="other"><input name="q"></form>
            </body></html>
            """
        let page = ScriptedPage(
            url: URL(string: "http://latch.test/default/oauth2/v2.0/authorize?client_id=a")!, status: 200, headers: [:],
            html: html)
        let form = try #require(page.form("signin"))
        #expect(form.action.absoluteString == "http://latch.test/default/login?x=1&y=2")
        #expect(form.method == "POST")
        #expect(form.hiddenFields == ["csrf_token": "c\"1", "interaction": "i-2"])
        #expect(form.fieldNames == ["csrf_token", "interaction", "username", "password"])
        #expect(form.defaultValues == ["csrf_token": "c\"1", "interaction": "i-2", "username": "ada@example.com"])
        #expect(
            form.buttons == [
                ScriptedPage.Button(name: "action", value: "password"), ScriptedPage.Button(name: "action", value: "send_code"),
            ])
        #expect(page.form(nil)?.id == "signin")
        #expect(page.form("other")?.method == "GET")
        #expect(page.form("missing") == nil)
        #expect(page.hasElement(id: "username"))
        #expect(!page.hasElement(id: "done"))
    }

    @Test("a folded Set-Cookie splits at cookie boundaries, not inside an Expires date")
    func cookies() {
        let folded =
            "latch_browser=abc; Path=/default/; HttpOnly; SameSite=Lax, latch_page=x1; Expires=Wed, 21 Oct 2026 07:28:00 GMT; "
            + "Path=/default/, gone=; Max-Age=0"
        let split = ScriptedBrowser.splitCookies(folded)
        #expect(split.count == 3)
        #expect(split[0].hasPrefix("latch_browser=abc"))
        #expect(split[1].hasPrefix("latch_page=x1") && split[1].contains("21 Oct 2026"))
        #expect(split[2].hasPrefix("gone="))
    }
}
