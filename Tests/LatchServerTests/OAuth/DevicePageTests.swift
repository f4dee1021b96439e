import Foundation
import LatchServer
import LatchTesting
import Testing

/// The device verification page (RFC 8628 § 3.3) on the hosted pages: the user code, the sign-in
/// when the browser has no session, the confirmation that names the application, and the
/// decision the device's polls then see.
@Suite("Device verification page")
struct DevicePageTests {
    static let password = "correct horse battery 9"

    @Test("verification_uri_complete fills the code; sign-in, confirm, and the device's poll gets tokens")
    func approve() async throws {
        let server = try LatchTestServer.start(mode: .live)
        defer { server.stop() }
        _ = try server.createUser(email: "tv@example.com", password: Self.password)
        let device = DeviceGrantFixture(server)
        let start = try await device.start(["scope": "openid offline_access"])
        let complete = try #require(start.string("verification_uri_complete"))
        let browser = PageBrowser(server)
        let page = try await browser.get(String(complete.dropFirst(server.baseURL.count)))
        #expect(page.formID == "device")
        #expect(page.html.contains("value=\"\(start.string("user_code")!)\""))
        #expect(page.headers["x-frame-options"] == "DENY")
        let signIn = try await browser.submit(page, ["user_code": start.string("user_code")!, "action": "continue"])
        #expect(signIn.formID == "signin", "\(signIn.html)")
        let confirm = try await browser.submit(
            signIn, ["username": "tv@example.com", "password": Self.password, "action": "password"])
        #expect(confirm.formID == "device-confirm", "\(confirm.html)")
        #expect(confirm.html.contains("Latch development client") && confirm.html.contains("tv@example.com"))
        #expect(try await device.poll(start.string("device_code")).error == "authorization_pending")
        let done = try await browser.submit(confirm, ["decision": "allow"])
        #expect(done.html.contains("<h1 id=\"done\">"))
        server.clock.advance(by: 6)
        let tokens = try await device.poll(start.string("device_code"))
        #expect(tokens.status == 200, "\(String(decoding: tokens.body, as: UTF8.self))")
        #expect(try DecodedJWT(tokens.string("id_token")!).string("email") == "tv@example.com")
        // The browser is signed in now: the next code goes straight to the confirmation.
        let second = try await device.start()
        let typed = try await browser.submit(
            try await browser.get("/default/oauth2/v2.0/devicelogin"),
            [
                "user_code": second.string("user_code")!.lowercased().replacingOccurrences(of: "-", with: " "),
                "action": "continue",
            ])
        #expect(typed.formID == "device-confirm", "\(typed.html)")
        _ = try await browser.submit(typed, ["decision": "deny"])
        server.clock.advance(by: 6)
        #expect(try await device.poll(second.string("device_code")).error == "access_denied")
    }

    @Test("a wrong user code is tied to its field; guessing on gets 429 with Retry-After")
    func wrongCode() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let browser = PageBrowser(server)
        var page = try await browser.get("/default/oauth2/v2.0/devicelogin")
        var statuses: [Int] = []
        for _ in 0..<12 {
            page = try await browser.submit(page, ["user_code": "BCDF-GHJK", "action": "continue"])
            statuses.append(page.status)
            if page.status == 429 { break }
            #expect(page.formID == "device")
            #expect(page.error("user_code") != nil)
        }
        #expect(statuses.first == 400)
        #expect(statuses.last == 429)
        #expect(page.headers["retry-after"] != nil)
    }
}
