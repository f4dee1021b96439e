import Foundation
import LatchServer
import Testing

/// `latchd client create` with redirect URIs, grant types and party, and `latchd tenant update`
/// with the hosted pages' branding.
@Suite("latchd browser-flow registration")
struct BrowserClientCommandTests {
    @Test("redirect URIs, grant types, third party and post-logout URIs are registered and listed")
    func register() throws {
        let directory = LatchdProcess.temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let data = ["--data-dir", directory]
        #expect(try LatchdRun(["tenant", "create", "acme"] + data).status == 0)
        let created = try LatchdRun(
            [
                "client", "create", "--tenant", "acme", "--id", "partner", "--third-party", "--redirect-uri",
                "https://partner.example/cb", "--redirect-uri", "com.partner.app:/cb", "--grant-type", "authorization_code",
                "--grant-type", "refresh_token", "--post-logout-redirect-uri", "https://partner.example/",
            ] + data)
        #expect(created.status == 0, "\(created.stderr)")
        let listed = try LatchdRun(["client", "list", "--tenant", "acme"] + data)
        #expect(listed.stdout.contains("partner\tpublic\tthird-party"), "\(listed.stdout)")
        #expect(listed.stdout.contains("grants=authorization_code,refresh_token"))
        #expect(listed.stdout.contains("redirect_uris=https://partner.example/cb,com.partner.app:/cb"))
        for bad in [
            ["--redirect-uri", "http://partner.example/cb"], ["--redirect-uri", "https://x.example/#f"],
            ["--grant-type", "implicit"], ["--grant-type", "client_credentials"],
            ["--third-party", "--grant-type", "password"],
        ] {
            let refused = try LatchdRun(["client", "create", "--tenant", "acme", "--id", "bad"] + bad + data)
            #expect(refused.status != 0, "\(bad)")
            #expect(!refused.stderr.isEmpty)
        }
    }

    @Test("tenant update sets the hosted pages' branding and session lifetime, and refuses bad values")
    func branding() throws {
        let directory = LatchdProcess.temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let data = ["--data-dir", directory]
        #expect(try LatchdRun(["tenant", "create", "acme"] + data).status == 0)
        let updated = try LatchdRun(
            [
                "tenant", "update", "acme", "--brand-name", "Acme Corp", "--brand-color", "#336699", "--logo-url",
                "https://acme.example/logo.png", "--browser-session-seconds", "3600",
            ] + data)
        #expect(updated.status == 0, "\(updated.stderr)")
        for bad in [
            ["--brand-color", "red"], ["--logo-url", "http://acme.example/l.png"], ["--browser-session-seconds", "5"],
        ] {
            #expect(try LatchdRun(["tenant", "update", "acme"] + bad + data).status == 2, "\(bad)")
        }
    }
}
