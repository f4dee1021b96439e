import Foundation
import LatchServer
import LatchTesting
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A webhook that cannot work is refused at start, before anything is created, with an error that
/// names the option; `latchd serve` with a good one posts to it, dead-letters what keeps failing
/// (shown by `latchd outbox --failed`), and never logs the secret.
@Suite("SMS webhook configuration")
struct SMSWebhookConfigurationTests {
    typealias Fixture = OutboxFixture

    @Test(
        "a bad URL, a missing, unreadable or empty secret file, or one half of the pair is refused at start",
        arguments: [
            ("ftp://gateway.example.com/send?token=abc", "secret", "--sms-webhook-url"),
            ("gateway.example.com/send", "secret", "--sms-webhook-url"), ("https://", "secret", "--sms-webhook-url"),
            ("https://gateway.example.com/send", "missing", "cannot read"),
            ("https://gateway.example.com/send", "empty", "is empty"),
            ("https://gateway.example.com/send", "blank", "is empty"),
            ("https://gateway.example.com/send", "none", "needs --sms-webhook-secret-file"),
            ("", "secret", "needs --sms-webhook-url"),
        ])
    func refusedAtStart(url: String, secret: String, expected: String) throws {
        let (_, secretFile, cleanup) = try Fixture.secretFile()
        defer { cleanup() }
        let directory = URL(fileURLWithPath: secretFile).deletingLastPathComponent().path
        let empty = directory + "/empty.secret"
        let blank = directory + "/blank.secret"
        try Data().write(to: URL(fileURLWithPath: empty))
        try Data(" \n\t\n".utf8).write(to: URL(fileURLWithPath: blank))
        let files = ["secret": secretFile, "missing": directory + "/missing.secret", "empty": empty, "blank": blank]
        let dataDirectory = directory + "/data"

        var configuration = LatchServerConfiguration()
        configuration.port = 0
        configuration.dataDirectory = dataDirectory
        configuration.log = .silent
        configuration.smsWebhookURL = url.isEmpty ? nil : url
        configuration.smsWebhookSecretFile = files[secret]
        do {
            let app = try LatchServerApp(configuration: configuration)
            app.shutdown(timeout: 0)
            Issue.record("started with \(url) and \(secret)")
        } catch let error as ConfigurationError {
            #expect(error.description.contains(expected), "\(error)")
            #expect(!error.description.contains("token=abc") && !error.description.contains("/send"), "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: dataDirectory), "a refused start created the data directory")
    }

    @Test("latchd serve refuses the same at start: a usage error for the flag, a failure for the environment and files")
    func serveRefuses() throws {
        let flag = try LatchdRun(["serve", "--dev", "--listen", "127.0.0.1:0", "--sms-webhook-url", "ftp://example.com/x"])
        #expect(flag.status == 2 && flag.stderr.contains("'--sms-webhook-url'"), "\(flag.stderr)")
        let environment = try LatchdRun(
            ["serve", "--dev", "--listen", "127.0.0.1:0"],
            environment: ["LATCH_SMS_WEBHOOK_URL": "ftp://example.com/x", "LATCH_SMS_WEBHOOK_SECRET_FILE": "/nonexistent"])
        #expect(environment.status == 1 && environment.stderr.contains("--sms-webhook-url"), "\(environment.stderr)")
        let missing = try LatchdRun([
            "serve", "--dev", "--listen", "127.0.0.1:0", "--sms-webhook-url", "http://127.0.0.1:9/sms",
            "--sms-webhook-secret-file", "no-such.secret",
        ])
        #expect(missing.status == 1 && missing.stderr.contains("--sms-webhook-secret-file"), "\(missing.stderr)")
        #expect(missing.stderr.contains("no-such.secret"))
        for run in [flag, environment, missing] {
            #expect(run.created.isEmpty, "a refused start created \(run.created)")
            #expect(!run.stderr.contains("listening"))
        }
    }

    @Test("latchd serve posts SMS to the webhook, dead-letters after --outbox-max-attempts, never logs the secret")
    func serveDeliversAndDeadLetters() async throws {
        let receiver = try WebhookReceiver { _, _ in 503 }
        defer { receiver.stop() }
        let (secret, secretFile, cleanup) = try Fixture.secretFile()
        defer { cleanup() }
        let dataDirectory = LatchdProcess.temporaryDataDirectory()
        defer { LatchdProcess.removeData(dataDirectory) }
        let latchd = try await LatchdProcess.start(
            dataDirectory: dataDirectory,
            arguments: [
                "--sms-webhook-url", receiver.url, "--sms-webhook-secret-file", secretFile, "--outbox-max-attempts", "1",
            ])
        defer { latchd.forceStop() }
        #expect(latchd.log.contains("sms:       SMS webhook at http://127.0.0.1:"), "\(latchd.log)")

        // Queued beside the running server, as a flow of its would.
        let directory = try DataDirectory(path: dataDirectory)
        let store = try SQLiteStore(path: directory.databasePath)
        let sealer = try MessageSealer(masterKey: try directory.masterKey())
        let tenant = try #require(try store.read { try $0.tenant(named: "default") })
        let message = try sealer.seal(
            OutboxMessage(
                tenantID: tenant.id, channel: "sms", recipient: Fixture.phone, subject: "",
                body: "Your Latch code is 57721566", code: "57721566", createdAt: Date()))
        try store.write { try $0.insert(message) }
        store.close()

        #expect(try await Fixture.eventually(within: 15) { receiver.received.count == 1 })
        var failed = ""
        #expect(
            try await Fixture.eventually(within: 15) {
                failed = try MessageSealerTests.latchd(["outbox", "--failed", "--data-dir", dataDirectory])
                return failed.contains("abandoned")
            })
        #expect(failed.contains("to=\(Fixture.phone)\tcode=-\tabandoned\t\tchannel=sms\tattempts=1\tlast_error="), "\(failed)")
        #expect(failed.contains("answered HTTP 503"), "\(failed)")
        #expect(receiver.received.first?.headers["idempotency-key"] == message.messageID)

        latchd.send(SIGTERM)
        #expect(await latchd.waitForExit())
        let log = latchd.log
        #expect(log.contains("dead-lettered"), "\(log)")
        #expect(!log.contains(secret), "the webhook secret reached the log")
        #expect(!log.contains("57721566"), "an SMS code reached a log outside the development outbox line")
    }
}
