import Foundation
import LatchTesting
import Testing

@testable import Latch

/// One refresh per account, however many callers ask at once.
@Suite("SDK concurrent silent acquisition")
struct ConcurrencyTests {
    @Test("500 concurrent calls with an expired access token: one refresh reaches the server, all get its token")
    func singleRefresh() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let client = try env.client()
        let signedIn = try await env.signedIn(client, email: SDKTest.email("herd"))
        env.server.clock.advance(by: 3700)  // the access token has expired
        // Slow the refresh down so that every caller arrives while it is in flight.
        env.server.faults.inject(.delay(seconds: 0.2), on: "/oauth2/v2.0/token")
        let serverBefore = env.serverCount("/oauth2/v2.0/token")
        let sentBefore = env.recorder.count
        let account = signedIn.account

        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<500 {
                group.addTask { try await client.acquireTokenSilent(account: account).accessToken }
            }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(tokens.count == 500)
        #expect(Set(tokens).count == 1)
        #expect(tokens.first != signedIn.accessToken)
        #expect(env.serverCount("/oauth2/v2.0/token") == serverBefore + 1)
        #expect(env.recorder.count == sentBefore + 1)

        // Late callers are served from the cache.
        #expect(try await client.acquireTokenSilent(account: account).accessToken == tokens.first)
        #expect(env.serverCount("/oauth2/v2.0/token") == serverBefore + 1)
    }

    @Test("two clients over one store (one process): the second finds the first's refresh and does not repeat it")
    func sharedStore() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let store = InMemoryCredentialStore()
        let first = try env.client(store: store)
        let second = try env.client(store: store)
        let signedIn = try await env.signedIn(first, email: SDKTest.email("shared"))
        _ = try await second.accounts()  // loads the store into the second client's memory
        env.server.clock.advance(by: 3700)
        let serverBefore = env.serverCount("/oauth2/v2.0/token")
        env.server.faults.inject(.delay(seconds: 0.2), on: "/oauth2/v2.0/token")

        async let a = first.acquireTokenSilent(account: signedIn.account)
        async let b = second.acquireTokenSilent(account: signedIn.account)
        let (x, y) = try await (a, b)
        #expect(x.accessToken == y.accessToken)
        #expect(env.serverCount("/oauth2/v2.0/token") == serverBefore + 1)
    }
}
