import Foundation
import Latch
import LatchTesting
import Testing

/// What app tests get: `server.makeClient()` in both server modes, and a protocol a view model can
/// hold so a stub stands in for the client.
@Suite struct AppTestSupportTests {
    @Test(arguments: [LatchTestServer.Mode.inProcess, .live])
    func makeClientSignsInWithNoGlue(mode: LatchTestServer.Mode) async throws {
        let server = try LatchTestServer.start(mode: mode)
        defer { server.stop() }
        let email = SDKTest.email("make-client")
        _ = try server.createUser(email: email, password: SDKTest.password)
        let client = try server.makeClient()
        let tokens = try SDKTest.completed(try await client.signIn(username: email, password: SDKTest.password))
        #expect(tokens.account.username == email)
        #expect(try await client.accounts().map(\.username) == [email])
        #expect(server.faults.requestCount(path: "/oauth2/v2.0/token") == 1)
    }

    @Test func makeClientUsesTheServerClock() async throws {
        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let email = SDKTest.email("clock")
        _ = try server.createUser(email: email, password: SDKTest.password)
        let client = try server.makeClient()
        let tokens = try SDKTest.completed(try await client.signIn(username: email, password: SDKTest.password))
        server.clock.advance(by: tokens.expiresOn.timeIntervalSince(server.clock.now()) + 1)
        let refreshed = try await client.acquireTokenSilent(account: tokens.account)
        #expect(refreshed.expiresOn > tokens.expiresOn)
        #expect(server.faults.requestCount(path: "/oauth2/v2.0/token") == 2)
    }

    /// A stub an app test would write.
    private struct StubClient: LatchClientProtocol {
        let stored: [LatchAccount]
        func signUp(username: String, password: String?, attributes: [String: String], correlationID: UUID?) async throws
            -> SignUpStep
        { throw LatchError(code: .browserRequired, message: "stub") }
        func signIn(username: String, password: String?, scopes: [String]?, correlationID: UUID?) async throws
            -> SignInStep
        { throw LatchError(code: .userNotFound, message: "stub") }
        func resetPassword(username: String, correlationID: UUID?) async throws -> ResetPasswordStep {
            throw LatchError(code: .userNotFound, message: "stub")
        }
        func acquireTokenSilent(scopes: [String]?, account: LatchAccount, forceRefresh: Bool, correlationID: UUID?)
            async throws -> LatchTokenResult
        { throw LatchError(code: .interactionRequired, message: "stub") }
        func accounts() async throws -> [LatchAccount] { stored }
        func account(username: String) async throws -> LatchAccount? { stored.first { $0.username == username } }
        func signOut(account: LatchAccount) async throws {}
        func signOut(account: LatchAccount, scope: SignOutScope) async throws -> SignOutResult {
            SignOutResult(account: account, scope: scope, isRevokedOnServer: false, revocationError: nil)
        }
        var currentAccount: LatchAccount? { stored.first }
        var isSignedIn: Bool { !stored.isEmpty }
        var authStateChanges: AsyncStream<LatchAccount?> {
            AsyncStream {
                $0.yield(stored.first); $0.finish()
            }
        }
        var authEvents: AsyncStream<LatchAuthEvent> { AsyncStream { $0.finish() } }
    }

    /// A view model written against the protocol.
    private struct WelcomeModel {
        let client: any LatchClientProtocol
        func greeting() async -> String {
            guard let account = try? await client.accounts().first else { return "Sign in" }
            return "Hello, \(account.username)"
        }
        func signIn(_ email: String) async -> LatchError.Code? {
            do {
                _ = try await client.signIn(username: email, password: nil, scopes: nil, correlationID: nil)
                return nil
            } catch let error as LatchError {
                return error.code
            } catch {
                return nil
            }
        }
    }

    @Test func viewModelRunsAgainstAStubOrTheClient() async throws {
        let stubbed = WelcomeModel(client: StubClient(stored: []))
        #expect(await stubbed.greeting() == "Sign in")
        #expect(await stubbed.signIn("ada@example.com") == .userNotFound)

        let server = try LatchTestServer.start(mode: .inProcess)
        defer { server.stop() }
        let email = SDKTest.email("protocol")
        _ = try server.createUser(email: email, password: SDKTest.password)
        let client = try server.makeClient()
        _ = try SDKTest.completed(try await client.signIn(username: email, password: SDKTest.password))
        #expect(await WelcomeModel(client: client).greeting() == "Hello, \(email)")
    }
}
