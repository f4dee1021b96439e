import Foundation
import LatchLocking
import LatchServer
import LatchTesting
import Testing

@testable import Latch

/// One correlation id per flow: sent as `client-request-id` with every request of the flow, seen
/// by the server, kept in each state and carried by each error.
@Suite("SDK correlation ids")
struct CorrelationTests {
    /// Records the `client-request-id` of every request the server receives, then lets the
    /// fault injector (and the server) handle it.
    final class ServerSideIDs: RequestInterceptor {
        private let seen = Locked<[(path: String, id: String?)]>([])
        private let next: (any RequestInterceptor)?

        init(next: (any RequestInterceptor)?) { self.next = next }

        func intercept(method: String, path: String, headers: [String: String]) -> InterceptedResponse? {
            seen.withLock { $0.append((path, headers["client-request-id"])) }
            return next?.intercept(method: method, path: path, headers: headers)
        }

        /// Every request seen, in arrival order.
        var requests: [(path: String, id: String?)] { seen.withLock { $0 } }
    }

    /// A test server whose interceptor records correlation ids, in front of its fault injector.
    static func environment() throws -> (SDKTest.Environment, ServerSideIDs) {
        let box = Locked<ServerSideIDs?>(nil)
        let env = try SDKTest.Environment { configuration in
            let recorder = ServerSideIDs(next: configuration.interceptor)
            configuration.interceptor = recorder
            box.withLock { $0 = recorder }
        }
        return (env, try #require(box.withLock { $0 }))
    }

    @Test("a three-step sign-in sends one correlation id on every request, the server sees it, states and errors keep it")
    func threeStepSignIn() async throws {
        let (env, serverSide) = try Self.environment()
        defer { env.stop() }
        let client = try env.client()
        let email = SDKTest.email("corr")
        try env.server.createUser(email: email, password: nil)
        let id = UUID()
        let wire = id.uuidString.lowercased()

        let state = try SDKTest.codeRequired(try await client.signIn(username: email, correlationID: id))
        #expect(state.correlationID == id)
        let code = try env.code(to: email)
        let wrong = try await #require(throws: LatchError.self) {
            try await state.submitCode(code == "00000000" ? "11111111" : "00000000")
        }
        #expect(wrong.code == .invalidCode)
        #expect(wrong.correlationID == wire, "the server's error envelope names the flow's id")
        let result = try SDKTest.completed(try await state.submitCode(code))
        #expect(result.account.username == email)

        let paths = ["/default/oauth2/v2.0/initiate", "/default/oauth2/v2.0/challenge", "/default/oauth2/v2.0/token"]
        #expect(env.recorder.requests.map(\.path) == paths + ["/default/oauth2/v2.0/token"])
        #expect(env.recorder.requests.allSatisfy { $0.correlationID == wire })
        #expect(serverSide.requests.map(\.path) == paths + ["/default/oauth2/v2.0/token"])
        #expect(serverSide.requests.allSatisfy { $0.id == wire }, "\(serverSide.requests)")
    }

    @Test("without an id the SDK makes one per flow; a sign-up and the sign-in that ends it share theirs")
    func oneGeneratedIDPerFlow() async throws {
        let (env, serverSide) = try Self.environment()
        defer { env.stop() }
        let client = try env.client()
        let email = SDKTest.email("gen")

        let codeState = try SDKTest.codeRequired(try await client.signUp(username: email, password: SDKTest.password))
        let created = try SDKTest.accountCreated(try await codeState.submitCode(try env.code(to: email)))
        #expect(created.correlationID == codeState.correlationID)
        _ = try SDKTest.completed(try await created.signIn())
        let signUpID = codeState.correlationID.uuidString.lowercased()
        #expect(
            env.recorder.requests.map(\.path) == [
                "/default/signup/v1.0/start", "/default/signup/v1.0/challenge", "/default/signup/v1.0/continue",
                "/default/oauth2/v2.0/token",
            ])
        #expect(env.recorder.requests.allSatisfy { $0.correlationID == signUpID })
        #expect(serverSide.requests.allSatisfy { $0.id == signUpID })

        let before = env.recorder.count
        let state = try SDKTest.passwordRequired(try await client.signIn(username: email))
        _ = try SDKTest.completed(try await state.submitPassword(SDKTest.password))
        let signIn = env.recorder.requests.dropFirst(before)
        #expect(signIn.count == 3)
        #expect(Set(signIn.map(\.correlationID)) == [state.correlationID.uuidString.lowercased()])
        #expect(state.correlationID != codeState.correlationID)
    }

    @Test("a password reset keeps its id through every state and the sign-in that ends it")
    func resetPassword() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let client = try env.client()
        let email = SDKTest.email("corr-reset")
        try env.server.createUser(email: email, password: SDKTest.password)
        let id = UUID()

        let codeState = try SDKTest.codeRequired(try await client.resetPassword(username: email, correlationID: id))
        let passwordState = try SDKTest.passwordRequired(try await codeState.submitCode(try env.code(to: email)))
        let weak = try await #require(throws: LatchError.self) { try await passwordState.submitPassword("12345678") }
        #expect(weak.correlationID == id.uuidString.lowercased())
        let reset = try SDKTest.passwordReset(try await passwordState.submitPassword(SDKTest.otherPassword))
        #expect([codeState.correlationID, passwordState.correlationID, reset.correlationID] == [id, id, id])
        _ = try SDKTest.completed(try await reset.signIn())
        #expect(env.recorder.requests.allSatisfy { $0.correlationID == id.uuidString.lowercased() })
        #expect(env.recorder.count >= 6)
    }

    @Test("acquireTokenSilent sends its id with the refresh, and its errors carry it")
    func silentAcquisition() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let client = try env.client()
        let signedIn = try await env.signedIn(client, email: SDKTest.email("corr-token"))
        let id = UUID()

        _ = try await client.acquireTokenSilent(account: signedIn.account, forceRefresh: true, correlationID: id)
        #expect(env.recorder.requests.last?.path == "/default/oauth2/v2.0/token")
        #expect(env.recorder.lastCorrelationID == id.uuidString.lowercased())

        env.server.faults.inject(.tooManyRequests(retryAfter: "30"), on: "/oauth2/v2.0/token")
        let throttled = UUID()
        let error = try await #require(throws: LatchError.self) {
            try await client.acquireTokenSilent(account: signedIn.account, forceRefresh: true, correlationID: throttled)
        }
        #expect(error.code == .tooManyRequests)
        #expect(error.correlationID == throttled.uuidString.lowercased())
        let local = UUID()
        let again = try await #require(throws: LatchError.self) {
            try await client.acquireTokenSilent(account: signedIn.account, forceRefresh: true, correlationID: local)
        }
        #expect(again.code == .tooManyRequests)
        #expect(again.correlationID == local.uuidString.lowercased(), "a locally throttled call carries its own id")
    }
}
