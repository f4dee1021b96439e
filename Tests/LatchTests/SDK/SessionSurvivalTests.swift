import Foundation
import LatchServer
import LatchTesting
import Testing

@testable import Latch

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sessions survive the network: only an authoritative answer from the server ends one.
@Suite("SDK sessions that survive the network", .timeLimit(.minutes(1)))
struct SessionSurvivalTests {
    static let token = "/oauth2/v2.0/token"

    @Test("offline with an expired access token: networkError, still signed in, offline once; back online it refreshes")
    func serverGoneAndBack() async throws {
        let env = try SDKTest.Environment()
        let store = InMemoryCredentialStore()
        let client = try env.watchingClient(store: store)
        let email = SDKTest.email("offline")
        let signedIn = try await env.signedIn(client, email: email)
        let events = StreamRecorder(client.authEvents)
        let states = StreamRecorder(client.authStateChanges)
        _ = await states.wait(for: 1)
        let storedBefore = try #require(try await store.read().accounts.values.first)
        env.server.clock.advance(by: 3700)  // the access token has expired
        env.server.stop(keepingData: true)

        for _ in 0..<2 {
            let error = try await #require(throws: LatchError.self) {
                try await client.acquireTokenSilent(account: signedIn.account)
            }
            #expect(error.code == .networkError, "\(error)")
            #expect(error.recovery == .retry(after: nil))
            #expect(error.isRetryable)
            #expect((error.underlyingError as? URLError)?.code == .cannotConnectToHost)
        }
        #expect(try await client.currentAccount?.id == signedIn.account.id)
        #expect(try await client.isSignedIn)
        #expect(try await client.accounts().first?.sessionState == .signedIn)
        #expect(try await store.read().accounts.values.first == storedBefore, "nothing stored changed")
        #expect(AuthStateText.events(await events.settle()) == ["offline \(email)"])

        let back = try env.server.startAgain()
        defer { back.stop() }
        let before = back.faults.requestCount(path: Self.token)
        let refreshed = try await client.acquireTokenSilent(account: signedIn.account)
        #expect(refreshed.accessToken != signedIn.accessToken)
        #expect(back.faults.requestCount(path: Self.token) == before + 1)
        _ = await events.wait(for: 2)
        #expect(AuthStateText.events(await events.settle()) == ["offline \(email)", "tokenRefreshed \(email)"])
        #expect(AuthStateText.states(states.values) == ["\(email):signedIn"], "the session never changed")
    }

    /// How a refresh fails without the server having answered that the session is over.
    enum Outage: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case timeout, connectionLost, notConnected, status500, status502, status503, status504

        var testDescription: String { rawValue }

        var urlError: URLError.Code? {
            switch self {
            case .timeout: .timedOut
            case .connectionLost: .networkConnectionLost
            case .notConnected: .notConnectedToInternet
            default: nil
            }
        }

        var status: Int? { Int(rawValue.dropFirst("status".count)) }
    }

    @Test(
        "a transport error, a timeout or a 5xx on refresh never ends the session or deletes credentials",
        arguments: Outage.allCases)
    func outagesKeepTheSession(_ outage: Outage) async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let broken = SDKTest.Switch()
        let recorder = env.recorder
        var configuration = env.configuration(store: InMemoryCredentialStore())
        configuration.credentialStoreWatchInterval = 0.1
        if let code = outage.urlError {
            configuration.transport = HTTPTransport { request in
                if broken.isOn, request.url?.path.hasSuffix(Self.token) == true { throw URLError(code) }
                return try await recorder.transport.send(request)
            }
        }
        let client = try LatchClient(configuration: configuration)
        let store = configuration.credentialStore
        let email = SDKTest.email("outage")
        let signedIn = try await env.signedIn(client, email: email)
        let events = StreamRecorder(client.authEvents)
        let states = StreamRecorder(client.authStateChanges)
        _ = await states.wait(for: 1)
        let storedBefore = try #require(try await store.read().accounts.values.first)
        broken.turnOn()
        if let status = outage.status { env.server.faults.inject(.serverError(status: status), on: Self.token) }
        env.server.clock.advance(by: 3700)

        for _ in 0..<2 {
            let error = try await #require(throws: LatchError.self) {
                try await client.acquireTokenSilent(account: signedIn.account)
            }
            #expect(error.isRetryable, "\(error)")
            #expect(error.code == (outage.status == nil ? .networkError : .serverError))
        }
        #expect(try await store.read().accounts.values.first == storedBefore)
        #expect(try await client.isSignedIn)
        let seen = AuthStateText.events(await events.settle())
        #expect(seen == (outage.status == nil ? ["offline \(email)"] : []))
        #expect(AuthStateText.states(states.values) == ["\(email):signedIn"])

        // Once the outage is over, the next call refreshes.
        broken.turnOff()
        env.server.faults.clear()
        _ = try await client.acquireTokenSilent(account: signedIn.account)
    }
}
