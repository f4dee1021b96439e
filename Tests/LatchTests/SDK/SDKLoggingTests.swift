import Foundation
import LatchLocking
import LatchServer
import LatchTesting
import Testing

@testable import Latch

/// The SDK's debug log: one line per request, flow step and silent-acquisition decision, each
/// naming its correlation id, none holding a secret.
@Suite("SDK debug log")
struct SDKLoggingTests {
    /// Collects every line a logger is given.
    final class Lines: Sendable {
        private let lines = Locked<[(LatchLogger.Level, String)]>([])

        func logger(level: LatchLogger.Level = .debug) -> LatchLogger {
            LatchLogger(level: level) { [self] level, line in lines.withLock { $0.append((level, line)) } }
        }

        var all: [String] { lines.withLock { $0.map(\.1) } }
        func matching(_ prefix: String) -> [String] { all.filter { $0.hasPrefix(prefix) } }
    }

    static func client(
        _ env: SDKTest.Environment, _ lines: Lines, level: LatchLogger.Level = .debug,
        store: any CredentialStore = InMemoryCredentialStore()
    ) throws -> LatchClient {
        var configuration = env.configuration(store: store)
        configuration.logger = lines.logger(level: level)
        return try LatchClient(configuration: configuration)
    }

    /// The value of `key=` in a line.
    static func field(_ key: String, in line: String) -> String? {
        line.split(separator: " ").first { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) }
    }

    @Test("each request: path, status, duration, attempt and the flow's correlation id")
    func requests() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let lines = Lines()
        let client = try Self.client(env, lines)
        let email = SDKTest.email("log")
        try env.server.createUser(email: email, password: SDKTest.password)
        env.server.faults.inject(.serverError(status: 503, times: 1), on: "/oauth2/v2.0/initiate")
        let id = UUID()

        _ = try SDKTest.completed(try await client.signIn(username: email, password: SDKTest.password, correlationID: id))

        let requests = lines.matching("request ")
        #expect(requests.count == env.recorder.count)
        #expect(requests.count == 4)
        #expect(requests[0].hasPrefix("request POST /default/oauth2/v2.0/initiate status=503 error=ERROR_SERVER_ERROR "))
        #expect(requests[1].hasPrefix("request POST /default/oauth2/v2.0/initiate status=200 "))
        #expect(requests[2].hasPrefix("request POST /default/oauth2/v2.0/challenge status=200 "))
        #expect(requests[3].hasPrefix("request POST /default/oauth2/v2.0/token status=200 "))
        #expect(requests.map { Self.field("attempt", in: $0) } == ["1", "2", "1", "1"])
        for line in requests {
            #expect(Self.field("duration_ms", in: line).flatMap(Int.init).map { $0 >= 0 } == true, "\(line)")
            #expect(Self.field("correlation_id", in: line) == id.uuidString.lowercased(), "\(line)")
        }
        let retries = lines.matching("retry ")
        #expect(retries.count == 1)
        #expect(retries.first.map { Self.field("reason", in: $0) } == "ERROR_SERVER_ERROR")
    }

    @Test("each flow step and its outcome, failures included")
    func flowSteps() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let lines = Lines()
        let client = try Self.client(env, lines)
        let email = SDKTest.email("steps")

        let codeState = try SDKTest.codeRequired(try await client.signUp(username: email, password: SDKTest.password))
        let code = try env.code(to: email)
        _ = try? await codeState.submitCode(code == "00000000" ? "11111111" : "00000000")
        let created = try SDKTest.accountCreated(try await codeState.submitCode(code))
        _ = try SDKTest.completed(try await created.signIn())

        let id = codeState.correlationID.uuidString.lowercased()
        #expect(
            lines.matching("flow=") == [
                "flow=sign_up step=start outcome=code_required correlation_id=\(id)",
                "flow=sign_up step=submit_code outcome=error error=ERROR_INVALID_VERIFICATION_CODE correlation_id=\(id)",
                "flow=sign_up step=submit_code outcome=account_created correlation_id=\(id)",
                "flow=sign_in step=after_sign_up outcome=completed correlation_id=\(id)",
            ])
    }

    @Test("silent acquisition: cache hits, refreshes and why, throttling, each with its correlation id")
    func tokenDecisions() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let lines = Lines()
        let client = try Self.client(env, lines)
        let signedIn = try await env.signedIn(client, email: SDKTest.email("decisions"))
        let account = signedIn.account.id
        let ids = (0..<5).map { _ in UUID() }
        func wire(_ index: Int) -> String { ids[index].uuidString.lowercased() }

        _ = try await client.acquireTokenSilent(account: signedIn.account, correlationID: ids[0])
        _ = try await client.acquireTokenSilent(account: signedIn.account, forceRefresh: true, correlationID: ids[1])
        env.server.clock.advance(by: 3600 - 60)
        _ = try await client.acquireTokenSilent(account: signedIn.account, correlationID: ids[2])
        env.server.faults.inject(.tooManyRequests(retryAfter: "30"), on: "/oauth2/v2.0/token")
        _ = try? await client.acquireTokenSilent(account: signedIn.account, forceRefresh: true, correlationID: ids[3])
        _ = try? await client.acquireTokenSilent(account: signedIn.account, forceRefresh: true, correlationID: ids[4])

        let decisions = lines.matching("token ")
        #expect(decisions.first?.hasPrefix("token decision=cache_hit account=\(account) expires_in=3600s") == true)
        #expect(decisions.contains("token decision=refresh account=\(account) reason=forced correlation_id=\(wire(1))"))
        #expect(decisions.contains("token decision=refresh account=\(account) reason=expiring correlation_id=\(wire(2))"))
        #expect(
            decisions.contains(
                "token decision=throttle account=\(account) for=30s error=ERROR_TOO_MANY_REQUESTS correlation_id=\(wire(3))"))
        #expect(decisions.contains("token decision=throttled account=\(account) retry_after=30s correlation_id=\(wire(4))"))
        #expect(Self.field("correlation_id", in: decisions.first ?? "") == wire(0))
    }

    @Test("no line holds a password, code, token or username; below debug, the happy path is silent")
    func noSecrets() async throws {
        let env = try SDKTest.Environment()
        defer { env.stop() }
        let lines = Lines()
        let store = InMemoryCredentialStore()
        let client = try Self.client(env, lines, store: store)
        let email = SDKTest.email("secrets")

        let codeState = try SDKTest.codeRequired(try await client.signUp(username: email, password: SDKTest.password))
        let code = try env.code(to: email)
        let signedIn = try SDKTest.completed(
            try await SDKTest.accountCreated(try await codeState.submitCode(code)).signIn())
        let refreshed = try await client.acquireTokenSilent(account: signedIn.account, forceRefresh: true)
        let refreshToken = try #require(try await store.read().accounts.values.first?.refreshToken)

        let secrets = [
            SDKTest.password, code, email, signedIn.accessToken, refreshed.accessToken, signedIn.idToken ?? "-", refreshToken,
        ]
        #expect(!lines.all.isEmpty)
        for line in lines.all {
            for secret in secrets { #expect(!line.contains(secret), "\(line)") }
        }

        let quiet = Lines()
        let infoClient = try Self.client(env, quiet, level: .info)
        _ = try SDKTest.completed(try await infoClient.signIn(username: email, password: SDKTest.password))
        #expect(quiet.all.isEmpty)
    }
}
