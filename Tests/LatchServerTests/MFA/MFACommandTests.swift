import Foundation
import LatchServer
import LatchTesting
import Testing

/// `latchd tenant create|update --mfa…` of the built binary: the settings land in the store and
/// the command prints them; bad values are usage errors.
@Suite("latchd tenant --mfa options")
struct MFACommandTests {
    @Test("create and update set the policy, rules, channels and blocked contacts; '-' clears a list")
    func settingsRoundTrip() throws {
        let directory = LatchdProcess.temporaryDataDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let data = ["--data-dir", directory]
        let create = try LatchdRun(["tenant", "create", "acme", "--mfa", "required", "--mfa-block", "+999"] + data)
        #expect(create.status == 0, "\(create.stderr)")
        #expect(create.stdout.contains("mfa: required"), "\(create.stdout)")
        let update = try LatchdRun(
            [
                "tenant", "update", "acme", "--mfa", "conditional", "--mfa-rule", "scope=files.write,max-age=1h",
                "--mfa-rule", "client=admin-app", "--mfa-channels", "email", "--mfa-sign-in-email", "on",
                "--mfa-block", "-",
            ] + data)
        #expect(update.status == 0, "\(update.stderr)")
        #expect(update.stdout.contains("mfa: conditional"), "\(update.stdout)")
        #expect(update.stdout.contains("mfa rule: scope=files.write,max-age=3600"), "\(update.stdout)")
        #expect(update.stdout.contains("mfa rule: client=admin-app,max-age=0"), "\(update.stdout)")

        let server = try LatchTestServer.start(mode: .inProcess) { $0.dataDirectory = directory }
        defer { server.stop() }
        let mfa = try server.app.services.directory.tenant(named: "acme").settings.mfa
        #expect(mfa.policy == .conditional)
        #expect(
            mfa.rules == [
                ConditionalAccessRule(scopes: ["files.write"], maxAgeSeconds: 3600),
                ConditionalAccessRule(clients: ["admin-app"]),
            ])
        #expect(mfa.channels == [.email])
        #expect(mfa.signInEmailIsMethod)
        #expect(mfa.blockedContacts.isEmpty)
    }

    @Test(
        "bad --mfa values are usage errors",
        arguments: [
            ["--mfa", "sometimes"], ["--mfa-sign-in-email", "yes"], ["--mfa-channels", "email,pigeon"],
            ["--mfa-rule", "max-age=1h"], ["--mfa-rule", "scope=x,max-age=forever"], ["--mfa-rule", "colour=blue"],
        ])
    func usageErrors(option: [String]) throws {
        let run = try LatchdRun(["tenant", "update", "t"] + option)
        #expect(run.status == 2, "\(run.stdout) \(run.stderr)")
        #expect(run.stderr.contains("'--\(option[0].dropFirst(2))'"), "\(run.stderr)")
    }
}
