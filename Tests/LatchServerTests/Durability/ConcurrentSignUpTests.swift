import Foundation
import LatchServer
import LatchTesting
import Testing

/// Racing sign-ups: the store's uniqueness, not timing, decides who gets an address.
@Suite("Concurrent sign-ups")
struct ConcurrentSignUpTests {
    static let flowCount = 50

    @Test("50 concurrent sign-ups of one e-mail address end with exactly one account")
    func oneAddressManyFlows() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        // One address gets a code per flow, beyond the default per-address send limit.
        var settings = TenantSettings()
        settings.codeSendsPerWindow = Self.flowCount
        settings.rateLimits = .off  // one source drives every flow
        let tenantName = try server.createTenant("race", settings: settings)
        let client = WireClient(server, tenant: tenantName)
        let email = TokenHelpers.uniqueEmail("race")

        // Every flow gets to the code step before any account exists; challenges run in order, so
        // the outbox (newest first) holds flow i's code at index count - 1 - i.
        var tokens: [String] = []
        for _ in 0..<Self.flowCount {
            let start = try await client.post("signup/v1.0/start", ["username": email, "challenge_type": "oob redirect"])
            try #require(start.status == 200, "signup/start: \(start.json)")
            let challenge = try await client.post(
                "signup/v1.0/challenge", ["continuation_token": try #require(start.continuationToken)])
            try #require(challenge.string("challenge_type") == "oob", "signup/challenge: \(challenge.json)")
            tokens.append(try #require(challenge.continuationToken))
        }
        let messages = try server.outbox(to: email, tenant: tenantName)
        try #require(messages.count == Self.flowCount)
        let codes = messages.reversed().map(\.code)

        let results = try await withThrowingTaskGroup(of: WireResponse.self) { group in
            for (token, code) in zip(tokens, codes) {
                group.addTask {
                    try await client.post(
                        "signup/v1.0/continue", ["continuation_token": token, "grant_type": "oob", "oob": code ?? ""])
                }
            }
            var all: [WireResponse] = []
            for try await response in group { all.append(response) }
            return all
        }

        let winners = results.filter { $0.status == 200 }
        let losers = results.filter { $0.status != 200 }
        #expect(winners.count == 1)
        #expect(losers.count == Self.flowCount - 1)
        for loser in losers {
            #expect(loser.status == 400)
            #expect(loser.error == "user_already_exists", "\(loser.json)")
            #expect(loser.errorCodes == [1_003_037])
        }
        let tenant = try server.app.services.admin.tenant(named: tenantName)
        let accounts = try server.app.services.admin.users(tenant: tenant).filter { $0.email == email }
        #expect(accounts.count == 1)

        // The winner's continuation token signs in as that one account.
        let winner = try #require(winners.first?.continuationToken)
        let signedIn = try TokenGrant(
            try await client.post("oauth2/v2.0/token", ["grant_type": "continuation_token", "continuation_token": winner]))
        #expect(try DecodedJWT(signedIn.accessToken).string("sub") == accounts.first?.id)
        // A new sign-up of the address is refused at once.
        let again = try await client.post("signup/v1.0/start", ["username": email, "challenge_type": "oob redirect"])
        #expect(again.error == "user_already_exists")
    }

    @Test("50 concurrent sign-ups of different e-mail addresses all succeed")
    func manyAddresses() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        try server.updateTenant { $0.rateLimits = .off }  // one source drives every flow
        let emails = (0..<Self.flowCount).map { TokenHelpers.uniqueEmail("crowd\($0)") }

        let subjects = try await withThrowingTaskGroup(of: String?.self) { group in
            for email in emails {
                group.addTask {
                    let tokens = try await TokenHelpers.signUp(server, email: email, password: nil)
                    return try DecodedJWT(tokens.accessToken).string("email")
                }
            }
            var all: [String?] = []
            for try await subject in group { all.append(subject) }
            return all
        }
        #expect(Set(subjects.compactMap { $0 }) == Set(emails))
        let tenant = try server.app.services.admin.tenant(named: "default")
        let users = try server.app.services.admin.users(tenant: tenant)
        #expect(Set(users.map(\.email)) == Set(emails))
        #expect(users.count == Self.flowCount)
    }
}
