import Foundation
import LatchCrypto
import LatchLocking
import LatchServer
import LatchTesting
import Testing

/// Concurrent guesses against one account get at most the tenant's allowance of password checks:
/// the attempt is reserved atomically before Argon2 runs.
@Suite("Sign-in limits under bursts")
struct SignInBurstTests {
    /// Argon2id at test cost that counts its verifications.
    final class CountingHasher: PasswordHasher {
        let inner = Argon2idHasher(parameters: .init(memoryKiB: 1024, iterations: 1, parallelism: 1))
        let verifications = Locked<Int>(0)
        let hashes = Locked<Int>(0)

        func hash(_ password: String, for source: HashingSource) throws -> String {
            hashes.add(1)
            return try inner.hash(password, for: source)
        }
        func verify(_ password: String, against hash: String, for source: HashingSource) throws -> Bool {
            verifications.add(1)
            return try inner.verify(password, against: hash, for: source)
        }
        func needsRehash(_ hash: String) -> Bool { inner.needsRehash(hash) }
        var configurationKey: String { inner.configurationKey }
    }

    @Test("40 concurrent wrong passwords on one account: at most 5 checked, the rest 429 with Retry-After")
    func fortyWayBurst() async throws {
        let hasher = CountingHasher()
        let server = try LatchTestServer.start(mode: .inProcess) { $0.passwordHasher = hasher }
        defer { server.stop() }
        var client = WireClient(server)
        let email = TokenHelpers.uniqueEmail("burst")
        try server.createUser(email: email, password: TokenHelpers.password)
        var tokens: [String] = []
        for index in 0..<40 {
            client.remoteAddress = "10.2.0.\(index)"  // many sources, so no per-source limit interferes
            let initiate = try await client.post(
                "oauth2/v2.0/initiate", ["username": email, "challenge_type": "password redirect"])
            let challenge = try await client.post(
                "oauth2/v2.0/challenge",
                ["continuation_token": try #require(initiate.continuationToken), "challenge_type": "password redirect"])
            tokens.append(try #require(challenge.continuationToken))
        }
        hasher.verifications.store(0)

        let statuses = Locked<[Int]>([])
        let frozen = tokens
        DispatchQueue.concurrentPerform(iterations: frozen.count) { index in
            let body =
                "client_id=latch-dev&grant_type=password&password=wrong-guess-\(index)&continuation_token="
                + frozen[index]
            let answer = server.handle(
                method: "POST", target: "/default/oauth2/v2.0/token",
                headers: [("Content-Type", "application/x-www-form-urlencoded")], body: Array(body.utf8),
                remoteAddress: "10.3.0.\(index)")
            statuses.withLock { $0.append(answer.status) }
            if answer.status == 429 { #expect(answer.headers["retry-after"].flatMap(Int.init).map { $0 >= 1 } == true) }
        }
        let all = statuses.withLock { $0 }
        let checked = hasher.verifications.load()
        #expect(checked == TenantSettings().signInFailuresBeforeDelay, "\(checked) passwords checked")
        #expect(all.filter { $0 == 400 }.count == checked)
        #expect(all.filter { $0 == 429 }.count == all.count - checked)
    }

    @Test("sign-up start runs Argon2 only after every cheap check has passed")
    func cheapChecksFirst() async throws {
        let hasher = CountingHasher()
        var settings = TenantSettings()
        settings.requiredAttributes = [AttributeDefinition(name: "displayName", regex: "[A-Za-z ]+")]
        let server = try LatchTestServer.start(mode: .inProcess) { $0.passwordHasher = hasher }
        defer { server.stop() }
        try server.createTenant("strict", settings: settings)
        let client = WireClient(server, tenant: "strict")
        let existing = TokenHelpers.uniqueEmail("exists")
        try server.createUser(email: existing, password: TokenHelpers.password, tenant: "strict")
        hasher.verifications.store(0)
        let hashesBefore = hasher.hashes.load()
        let refused: [[String: String]] = [
            ["username": existing, "password": TokenHelpers.password, "challenge_type": "oob password redirect"],
            [
                "username": TokenHelpers.uniqueEmail(), "password": TokenHelpers.password,
                "challenge_type": "oob password redirect", "attributes": #"{"displayName":"<script>"}"#,
            ],
            ["username": TokenHelpers.uniqueEmail(), "password": TokenHelpers.password, "challenge_type": "oob password"],
            ["username": "not-an-address", "password": TokenHelpers.password, "challenge_type": "oob password redirect"],
            ["username": TokenHelpers.uniqueEmail(), "password": "short", "challenge_type": "oob password redirect"],
            [
                "client_id": "unknown-app", "username": TokenHelpers.uniqueEmail(), "password": TokenHelpers.password,
                "challenge_type": "oob password redirect",
            ],
        ]
        for form in refused {
            let reply = try await client.post("signup/v1.0/start", form)
            #expect(reply.status == 400, "\(form)")
        }
        #expect(hasher.hashes.load() == hashesBefore, "a refused sign-up start hashed a password")
        let accepted = try await client.post(
            "signup/v1.0/start",
            [
                "username": TokenHelpers.uniqueEmail(), "password": TokenHelpers.password,
                "challenge_type": "oob password redirect", "attributes": #"{"displayName":"Ada"}"#,
            ])
        #expect(accepted.status == 200)
        #expect(hasher.hashes.load() == hashesBefore + 1)
    }
}
