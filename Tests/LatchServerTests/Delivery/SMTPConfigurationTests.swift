import Foundation
import LatchCrypto
import Testing

@testable import LatchServer

/// The `--smtp-*` settings: what is refused at start (and why, without the password), the default
/// sender, where e-mail is routed with and without `--dev`, and the e-mail an outbox message
/// becomes (the tenant's sender and name, the stable Message-ID).
@Suite("SMTP configuration")
struct SMTPConfigurationTests {
    static let password = "s3cret-pa55"

    static func configuration(url: String?, password: String? = nil, starttls: String? = nil) throws
        -> LatchServerConfiguration
    {
        var configuration = LatchServerConfiguration()
        configuration.smtpURL = url
        configuration.smtpPassword = password
        if let starttls { try configuration.setSMTPStartTLS(starttls) }
        return configuration
    }

    @Test(
        "an SMTP setting that cannot work is refused, naming what to change and never the password",
        arguments: [
            ("smtp://user:\(password)@mail.example.com:587", nil, nil, "must not hold a password"),
            ("http://mail.example.com", nil, nil, "smtp://[user@]host[:port]"),
            ("smtp://", nil, nil, "smtp://[user@]host[:port]"),
            ("smtp://user@mail.example.com:587", nil, nil, "no password is set"),
            ("smtp://mail.example.com:587", password, nil, "needs a user"),
            ("smtp://user@mail.example.com:587", password, "opportunistic", "without certain TLS"),
            ("smtp://user@mail.example.com:587", password, "off", "without certain TLS"),
            (nil, password, nil, "--smtp-url (LATCH_SMTP_URL) is not"),
        ] as [(String?, String?, String?, String)])
    func refused(url: String?, password: String?, starttls: String?, expected: String) throws {
        let configuration = try Self.configuration(url: url, password: password, starttls: starttls)
        do {
            _ = try configuration.smtpTransportSettings()
            Issue.record("accepted \(url ?? "-")")
        } catch let error as ConfigurationError {
            #expect(error.description.contains(expected), "\(error)")
            #expect(!error.description.contains(Self.password), "\(error)")
        }
    }

    /// The transport's description for `settings`, which names the server and the TLS mode.
    static func described(_ configuration: LatchServerConfiguration) throws -> String {
        let settings = try #require(try configuration.smtpTransportSettings())
        return "\(SMTPEmailTransport(client: settings.client, defaultSender: settings.sender, tenant: { _ in nil }))"
    }

    @Test("--smtp-starttls takes required, opportunistic or off")
    func starttlsValues() throws {
        var configuration = try Self.configuration(url: "smtp://127.0.0.1:1025")
        #expect(try Self.described(configuration) == "SMTP at smtp://127.0.0.1:1025 (STARTTLS required)")
        try configuration.setSMTPStartTLS("off")
        #expect(try Self.described(configuration) == "SMTP at smtp://127.0.0.1:1025 (STARTTLS off)")
        try configuration.setSMTPStartTLS("opportunistic")
        #expect(try Self.described(configuration) == "SMTP at smtp://127.0.0.1:1025 (STARTTLS opportunistic)")
        #expect(throws: ConfigurationError.self) { try configuration.setSMTPStartTLS("yes") }
    }

    @Test("accepted: STARTTLS required with AUTH, smtps, and a loopback sink in the clear with a password")
    func accepted() throws {
        let required = try Self.described(
            try Self.configuration(url: "smtp://latch@mail.example.com:587", password: Self.password))
        #expect(required == "SMTP at smtp://mail.example.com:587 (STARTTLS required)")
        let implicit = try Self.described(
            try Self.configuration(url: "smtps://latch@mail.example.com", password: Self.password, starttls: "off"))
        #expect(implicit == "SMTP at smtps://mail.example.com (implicit TLS)")
        let sink = try Self.described(try Self.configuration(url: "smtp://dev@127.0.0.1:1025", password: "x", starttls: "off"))
        #expect(sink == "SMTP at smtp://127.0.0.1:1025 (STARTTLS off)")
    }

    @Test("the password file wins, without its trailing newline; an empty file is refused")
    func passwordFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("smtp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("password")
        try Data("from-file\n".utf8).write(to: file)
        var configuration = try Self.configuration(url: "smtps://latch@mail.example.com", password: "from-env")
        configuration.smtpPasswordFile = file.path
        #expect(try configuration.smtpTransportSettings() != nil)
        try Data("\n".utf8).write(to: file)
        #expect(throws: ConfigurationError.self) { try configuration.smtpTransportSettings() }
    }

    @Test("the default sender is --smtp-from, else no-reply@ the public URL's host")
    func defaultSender() throws {
        var configuration = try Self.configuration(url: "smtp://mail.example.com")
        #expect(try configuration.defaultSender().address == "no-reply@localhost")
        configuration.publicURL = "https://auth.acme.example/base"
        #expect(try configuration.defaultSender().address == "no-reply@auth.acme.example")
        configuration.smtpFrom = "Acme <mail@acme.example>"
        #expect(try configuration.defaultSender() == MailAddress(name: "Acme", address: "mail@acme.example"))
        configuration.smtpFrom = "not an address"
        #expect(throws: ConfigurationError.self) { try configuration.defaultSender() }
    }

    @Test("e-mail goes to SMTP; under --dev after the dev log line; without either it has no transport")
    func routes() throws {
        let settings = try #require(try Self.configuration(url: "smtp://127.0.0.1:1025", starttls: "off").smtpTransportSettings())
        let email = SMTPEmailTransport(client: settings.client, defaultSender: settings.sender, tenant: { _ in nil })
        var configuration = LatchServerConfiguration()
        let production = try #require(configuration.messageTransport(log: .silent, webhook: nil, email: email) as? ChannelRouter)
        #expect(production.routes["email"] is SMTPEmailTransport)
        #expect(production.routes["sms"] == nil)
        configuration.development = true
        let development = try #require(configuration.messageTransport(log: .silent, webhook: nil, email: email) as? ChannelRouter)
        #expect(development.routes["email"] is DevelopmentCopyTransport)
        #expect(development.routes["sms"] is DevelopmentLogTransport)
        configuration.development = false
        let none = try #require(configuration.messageTransport(log: .silent, webhook: nil) as? ChannelRouter)
        #expect(!none.delivers(channel: "email"))
    }

    @Test("a message's e-mail: the tenant's sender named after its brand, its subject, date and stable id")
    func mailOfMessage() throws {
        let settings = try #require(try Self.configuration(url: "smtp://127.0.0.1:1025", starttls: "off").smtpTransportSettings())
        let transport = SMTPEmailTransport(
            client: settings.client, defaultSender: MailAddress(address: "no-reply@latch.example")!, tenant: { _ in nil })
        var tenantSettings = TenantSettings()
        tenantSettings.branding.displayName = "Bäckerei Müller"
        let created = Date(timeIntervalSince1970: 1_796_168_240)
        var tenant = Tenant(id: "t1", name: "bakery", settings: tenantSettings, createdAt: created)
        let message = OutboxMessage(
            id: 7, messageID: "00112233445566778899aabbccddeeff", tenantID: "t1", recipient: "ada@example.com",
            subject: "Your sign-in code", body: "Your sign-in code is 123456", code: "123456", createdAt: created,
            kind: .signInCode, validMinutes: 10)

        var mail = try transport.mailMessage(for: message, tenant: tenant)
        #expect(mail.from == MailAddress(name: "Bäckerei Müller", address: "no-reply@latch.example"))
        #expect(mail.messageID == "00112233445566778899aabbccddeeff@latch.example")
        #expect(mail.date == created)
        #expect(mail.subject == "Your sign-in code")
        #expect(mail.text.contains("123456") && mail.html.contains("123456") && mail.html.contains("Bäckerei Müller"))

        tenant.settings.emailFrom = "Bakery Desk <desk@bakery.example>"
        mail = try transport.mailMessage(for: message, tenant: tenant)
        #expect(mail.from == MailAddress(name: "Bakery Desk", address: "desk@bakery.example"))
        #expect(mail.messageID.hasSuffix("@bakery.example"))

        var hostile = message
        hostile.recipient = "ada@example.com\r\nBcc: eve@example.com"
        #expect(throws: UndeliverableMessage.self) { try transport.mailMessage(for: hostile, tenant: tenant) }
    }

    @Test("the tenant's sender is stored with the settings; settings stored before it decode without one")
    func tenantSetting() throws {
        var settings = TenantSettings()
        settings.emailFrom = "Acme <a@acme.example>"
        let decoded = try JSONDecoder().decode(TenantSettings.self, from: try JSONEncoder().encode(settings))
        #expect(decoded.emailFrom == "Acme <a@acme.example>")
        let old = try JSONDecoder().decode(TenantSettings.self, from: Data("{\"codeLength\": 8}".utf8))
        #expect(old.emailFrom == nil)
    }

    @Test("kind, link and lifetime travel in the seal; seals made before them still open")
    func sealCarriesKind() throws {
        let masterKey = SecureRandom.bytes(count: 32)
        let sealer = try MessageSealer(masterKey: masterKey)
        let message = OutboxMessage(
            tenantID: "t1", recipient: "ada@example.com", subject: "Your sign-in link", body: "Open https://x/?oobCode=c",
            code: "c", createdAt: Date(), kind: .emailSignInLink, link: "https://x/?oobCode=c", validMinutes: 60)
        let opened = try sealer.open(try sealer.seal(message))
        #expect(opened.kind == .emailSignInLink)
        #expect(opened.link == "https://x/?oobCode=c")
        #expect(opened.validMinutes == 60)

        var old = try sealer.seal(message)
        let key = try HKDF.sha256(inputKey: masterKey, info: MessageSealer.keyInfo, outputLength: SecretBox.keyLength)
        old.sealedBody = try SecretBox.seal(
            Array("{\"body\":\"old body\",\"code\":\"123\"}".utf8), key: key,
            associatedData: MessageSealer.associatedData(of: old))
        let reopened = try sealer.open(old)
        #expect(reopened.body == "old body" && reopened.code == "123")
        #expect(reopened.kind == nil && reopened.link == nil)
    }
}
