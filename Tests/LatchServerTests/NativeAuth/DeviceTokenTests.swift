import Foundation
import LatchServer
import LatchTesting
import Testing

/// Device tokens ("device cookies", OWASP "Slow Down Online Guessing Attacks with Device
/// Cookies"): a stranger's wrong passwords delay the account for every source but the devices the
/// real user signed in on before; such a device has its own failure count and delay.
@Suite("Native auth: device tokens")
struct DeviceTokenTests {
    static let password = TokenHelpers.password
    static let wrong = "Wrong-Guess-123"

    /// Runs `body` against a fresh in-process server with one account, whose address it passes,
    /// with ``password``.
    static func withAccount(_ body: (LatchTestServer, String, User) async throws -> Void) async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let email = TokenHelpers.uniqueEmail("owner")
        let user = try server.createUser(email: email, password: password)
        try await body(server, email, user)
    }

    /// A password sign-in (`initiate` → `challenge` → `password` grant) from the peer `address`,
    /// presenting `deviceToken` when given; returns the `/token` answer.
    static func signIn(
        _ server: LatchTestServer, _ email: String, password: String, from address: String, deviceToken: String? = nil,
        tenant: String = "default", sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> WireResponse {
        var client = WireClient(server, tenant: tenant)
        client.remoteAddress = address
        let initiate = try await client.post(
            "oauth2/v2.0/initiate", ["username": email, "challenge_type": "password redirect"])
        let challenge = try await client.post(
            "oauth2/v2.0/challenge",
            [
                "continuation_token": try #require(initiate.continuationToken, sourceLocation: sourceLocation),
                "challenge_type": "password redirect",
            ])
        try #require(challenge.string("challenge_type") == "password", sourceLocation: sourceLocation)
        var form = [
            "grant_type": "password", "continuation_token": try #require(challenge.continuationToken),
            "password": password, "scope": "openid offline_access",
        ]
        if let deviceToken { form["device_token"] = deviceToken }
        return try await client.post("oauth2/v2.0/token", form)
    }

    /// The device token of a successful sign-in from `address`.
    static func deviceToken(
        _ server: LatchTestServer, _ email: String, from address: String, presenting: String? = nil,
        tenant: String = "default", sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String {
        let reply = try await signIn(
            server, email, password: password, from: address, deviceToken: presenting, tenant: tenant,
            sourceLocation: sourceLocation)
        try #require(reply.status == 200, "sign-in failed: \(reply.status) \(reply.json)", sourceLocation: sourceLocation)
        return try #require(reply.string("device_token"), "no device_token", sourceLocation: sourceLocation)
    }

    /// Status, error, codes and `Retry-After` of an answer, for comparing answers.
    static func summary(_ reply: WireResponse) -> String {
        "\(reply.status) \(reply.error ?? "-") \(reply.errorCodes) \(reply.headers["retry-after"] ?? "-")"
    }

    /// Six wrong passwords for `email`, each from its own stranger's address; returns the answers.
    static func strangerGuesses(
        _ server: LatchTestServer, _ email: String, count: Int = 6, prefix: String = "198.51.100.",
        tenant: String = "default"
    ) async throws -> [String] {
        var answers: [String] = []
        for index in 0..<count {
            let reply = try await signIn(server, email, password: wrong, from: "\(prefix)\(index)", tenant: tenant)
            answers.append(summary(reply))
        }
        return answers
    }

    static let guessedOut = [
        "400 invalid_grant [50126] -", "400 invalid_grant [50126] -", "400 invalid_grant [50126] -",
        "400 invalid_grant [50126] -", "400 invalid_grant [50126] -", "429 too_many_requests [9000005] 60",
    ]

    @Test("a stranger's six wrong passwords delay the account, but not the real user on a device that signed in before")
    func strangerDoesNotDelayTrustedDevice() async throws {
        try await Self.withAccount { server, email, user in
            let laptop = try await Self.deviceToken(server, email, from: "203.0.113.7")
            #expect(laptop.hasPrefix("ldc1."))
            #expect(laptop.split(separator: ".", omittingEmptySubsequences: false).count == 3)

            #expect(try await Self.strangerGuesses(server, email) == Self.guessedOut)

            server.clock.advance(by: 5)
            let trusted = try await Self.signIn(server, email, password: Self.password, from: "203.0.113.7", deviceToken: laptop)
            #expect(trusted.status == 200, "\(trusted.json)")
            let renewed = try #require(trusted.string("device_token"))
            #expect(renewed != laptop, "renewed with a new issue time")
            // Without the token the same source meets the account's delay.
            let untrusted = try await Self.signIn(server, email, password: Self.password, from: "203.0.113.7")
            #expect(Self.summary(untrusted) == "429 too_many_requests [9000005] 55")
            // Both the renewed token and the one it renewed still work.
            for token in [renewed, laptop] {
                let again = try await Self.signIn(server, email, password: Self.password, from: "203.0.113.7", deviceToken: token)
                #expect(again.status == 200)
            }
            // The trusted sign-ins left the strangers' count and delay on the account.
            let tenant = try server.app.services.admin.tenant(named: "default")
            let account = try #require(try server.app.services.admin.users(tenant: tenant).first { $0.id == user.id })
            #expect(account.failedSignIns == 5)
            let details = try server.app.services.admin.auditEvents(tenant: tenant, limit: 100).filter {
                $0.kind == .signInSucceeded
            }.map { $0.detail ?? "-" }
            #expect(
                details.sorted() == ["amr=pwd", "amr=pwd device=trusted", "amr=pwd device=trusted", "amr=pwd device=trusted"])
        }
    }

    @Test("forged, tampered, malformed, other users' and other tenants' device tokens count as no token")
    func badTokensAreAbsent() async throws {
        try await Self.withAccount { server, email, _ in
            let other = TokenHelpers.uniqueEmail("other")
            try server.createUser(email: other, password: Self.password)
            try server.createTenant("elsewhere", settings: TenantSettings())
            try server.createUser(email: email, password: Self.password, tenant: "elsewhere")

            let own = try await Self.deviceToken(server, email, from: "203.0.113.1")
            let otherUsers = try await Self.deviceToken(server, other, from: "203.0.113.2")
            let otherTenants = try await Self.deviceToken(server, email, from: "203.0.113.3", tenant: "elsewhere")
            #expect(try await Self.strangerGuesses(server, email) == Self.guessedOut)

            let parts = own.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            func flipped(_ text: String, at index: Int) -> String {
                var characters = Array(text)
                characters[index] = characters[index] == "A" ? "B" : "A"
                return String(characters)
            }
            let bad: [String: String] = [
                "other user's": otherUsers,
                "other tenant's": otherTenants,
                "payload tampered": [parts[0], flipped(parts[1], at: 3), parts[2]].joined(separator: "."),
                "MAC tampered": [parts[0], parts[1], flipped(parts[2], at: 5)].joined(separator: "."),
                "MAC of another token": [parts[0], parts[1], String(otherUsers.split(separator: ".")[2])].joined(separator: "."),
                "no MAC": parts[0] + "." + parts[1] + ".",
                "other version": ["ldc2", parts[1], parts[2]].joined(separator: "."),
                "not base64url": "ldc1.!!!!.????",
                "oversized": own + String(repeating: "A", count: 600),
                "empty": "",
            ]
            let absent = Self.summary(try await Self.signIn(server, email, password: Self.password, from: "203.0.113.9"))
            #expect(absent == "429 too_many_requests [9000005] 60")
            for (index, (name, token)) in bad.sorted(by: { $0.key < $1.key }).enumerated() {
                let reply = try await Self.signIn(
                    server, email, password: Self.password, from: "203.0.113.\(20 + index)", deviceToken: token)
                #expect(Self.summary(reply) == absent, "\(name)")
            }
            let valid = try await Self.signIn(server, email, password: Self.password, from: "203.0.113.1", deviceToken: own)
            #expect(valid.status == 200)
        }
    }

    @Test("a device token is honoured until its expiry (90 days) and not a second after")
    func expiredTokensAreAbsent() async throws {
        try await Self.withAccount { server, email, _ in
            let first = try await Self.deviceToken(server, email, from: "203.0.113.1")

            server.clock.advance(by: 90 * 86_400 - 10)
            #expect(try await Self.strangerGuesses(server, email) == Self.guessedOut)
            let renewed = try await Self.deviceToken(server, email, from: "203.0.113.1", presenting: first)

            server.clock.advance(by: 10)
            let expired = try await Self.signIn(server, email, password: Self.password, from: "203.0.113.1", deviceToken: first)
            #expect(Self.summary(expired) == "429 too_many_requests [9000005] 50")
            let current = try await Self.signIn(server, email, password: Self.password, from: "203.0.113.1", deviceToken: renewed)
            #expect(current.status == 200)
        }
    }

    @Test("five wrong passwords from a trusted device delay that device only, without counting against the account")
    func deviceHasItsOwnLimit() async throws {
        try await Self.withAccount { server, email, _ in
            let laptop = try await Self.deviceToken(server, email, from: "203.0.113.1")
            let phone = try await Self.deviceToken(server, email, from: "203.0.113.2")

            var answers: [String] = []
            for _ in 0..<6 {
                let reply = try await Self.signIn(server, email, password: Self.wrong, from: "203.0.113.1", deviceToken: laptop)
                answers.append(Self.summary(reply))
            }
            #expect(answers == Self.guessedOut)
            let right = try await Self.signIn(server, email, password: Self.password, from: "203.0.113.1", deviceToken: laptop)
            #expect(
                Self.summary(right) == "429 too_many_requests [9000005] 60",
                "the delayed device waits even with the right password")

            let tenant = try server.app.services.admin.tenant(named: "default")
            let account = try #require(try server.app.services.admin.users(tenant: tenant).first { $0.email == email })
            #expect(account.failedSignIns == 0, "a trusted device's failures do not count against the account")
            #expect(account.signInBlockedUntil == nil)
            let blocked = try server.app.services.admin.auditEvents(tenant: tenant, limit: 100).filter {
                $0.kind == .signInBlocked
            }.map { $0.detail ?? "-" }
            #expect(blocked == ["device failures=5 delay=60s"])

            // The phone and any other source are not delayed.
            #expect(
                try await Self.signIn(server, email, password: Self.password, from: "203.0.113.2", deviceToken: phone).status
                    == 200)
            #expect(try await Self.signIn(server, email, password: Self.password, from: "203.0.113.3").status == 200)

            // Once the delay has passed, a sign-in clears the device's count: four more failures do not delay it.
            server.clock.advance(by: 60)
            #expect(
                try await Self.signIn(server, email, password: Self.password, from: "203.0.113.1", deviceToken: laptop).status
                    == 200)
            for _ in 0..<4 {
                let reply = try await Self.signIn(server, email, password: Self.wrong, from: "203.0.113.1", deviceToken: laptop)
                #expect(reply.status == 400)
            }
            #expect(
                try await Self.signIn(server, email, password: Self.password, from: "203.0.113.1", deviceToken: laptop).status
                    == 200)
        }
    }

    @Test("under enumeration protection an unknown address is delayed as before, with or without a device token")
    func enumerationProtectionUnchanged() async throws {
        let server = try LockoutResistanceTests.protectedServer()
        defer { server.stop() }
        let real = "real@example.com"
        let token = try await Self.deviceToken(server, real, from: "203.0.113.1", tenant: "quiet")
        var ghost: [String] = []
        for index in 0..<6 {
            let reply = try await Self.signIn(
                server, "ghost@example.com", password: Self.wrong, from: "198.51.100.\(index)", deviceToken: token,
                tenant: "quiet")
            ghost.append(Self.summary(reply))
        }
        let stranger = try await Self.strangerGuesses(server, real, prefix: "192.0.2.", tenant: "quiet")
        #expect(ghost == stranger)
        #expect(stranger.last?.hasPrefix("429") == true)
        let trusted = try await Self.signIn(
            server, real, password: Self.password, from: "203.0.113.1", deviceToken: token, tenant: "quiet")
        #expect(trusted.status == 200)
    }

    @Test("code and continuation-token sign-ins get a device token too, a refresh does not, and a tenant can turn them off")
    func issuedOnEverySignIn() async throws {
        try await withNativeAuthServer { auth in
            let email = "coded@example.com"
            try auth.server.createUser(email: email, password: nil)
            let coded = try await auth.signInWithCode(email)
            let token = try #require(coded.reply.string("device_token"))
            #expect(token.hasPrefix("ldc1."))
            let refreshed = try await auth.refresh(try #require(coded.refreshToken))
            try auth.expectOK(refreshed)
            #expect(refreshed.string("device_token") == nil)

            let reset = try await auth.resetPassword(email, to: NativeAuthFixture.password)
            #expect(reset.reply.string("device_token")?.hasPrefix("ldc1.") == true)

            try auth.server.updateTenant { $0.deviceTokenLifetime = 0 }
            let off = try await auth.signIn(email, password: NativeAuthFixture.password)
            #expect(off.reply.string("device_token") == nil)
        }
    }
}
