import Foundation
import LatchLocking
import LatchServer
import LatchTesting
import LatchWire
import Testing

@testable import Latch

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Helpers of the SDK tests (Tests/LatchTests/SDK), namespaced so they cannot clash with the
/// helpers of other suites in this module.
enum SDKTest {
    /// A password every policy rule accepts.
    static let password = "Quartz-Lantern-58!"
    /// Another acceptable password.
    static let otherPassword = "Velvet-Harbor-73?"

    /// A fresh address, so tests never share an account.
    static func email(_ prefix: String) -> String {
        "\(prefix)-\(UUID().uuidString.prefix(8).lowercased())@example.com"
    }

    /// Retries quickly so failure paths do not slow the suite; `Retry-After` honoured up to 10 s.
    static let fastRetries = RetryPolicy(maxAttempts: 3, baseDelay: 0.01, maxDelay: 0.05, maxRetryAfter: 10)

    // MARK: - Transport that records what the SDK sent

    /// One request the SDK handed to its transport.
    struct SentRequest: Sendable {
        /// The URL path, e.g. `/default/oauth2/v2.0/token`.
        let path: String
        /// The `client-request-id` header.
        let correlationID: String?
    }

    /// An ``HTTPTransport`` that records every request, then sends it with `URLSession`.
    final class RecordingTransport: Sendable {
        private let sent = Locked<[SentRequest]>([])

        var transport: HTTPTransport {
            HTTPTransport { [self] request in
                let entry = SentRequest(
                    path: request.url?.path ?? "", correlationID: request.value(forHTTPHeaderField: "client-request-id"))
                sent.withLock { $0.append(entry) }
                return try await HTTPTransport.urlSession.send(request)
            }
        }

        /// Every request so far.
        var requests: [SentRequest] { sent.withLock { $0 } }
        /// How many requests were sent.
        var count: Int { sent.withLock { $0.count } }
        /// How many requests went to a path ending in `suffix`.
        func count(_ suffix: String) -> Int { sent.withLock { $0.count { $0.path.hasSuffix(suffix) } } }
        /// The `client-request-id` of the latest request.
        var lastCorrelationID: String? { sent.withLock { $0.last?.correlationID } }
    }

    // MARK: - Server plus client factory

    /// A real in-process server, a recording transport and clients sharing the server's clock.
    struct Environment: Sendable {
        let server: LatchTestServer
        let recorder = RecordingTransport()

        init(configure: (inout LatchServerConfiguration) -> Void = { _ in }) throws {
            server = try LatchTestServer.start(configure: configure)
        }

        func stop() { server.stop() }

        /// A client of this server whose clock is the server's test clock.
        func client(
            tenant: String = "default", clientID: String = "latch-dev",
            challengeTypes: [LatchConfiguration.ChallengeType] = [.oob, .password], store: (any CredentialStore)? = nil,
            retryPolicy: RetryPolicy = SDKTest.fastRetries
        ) throws -> LatchClient {
            try LatchClient(
                configuration: configuration(
                    tenant: tenant, clientID: clientID, challengeTypes: challengeTypes, store: store, retryPolicy: retryPolicy))
        }

        func configuration(
            tenant: String = "default", clientID: String = "latch-dev",
            challengeTypes: [LatchConfiguration.ChallengeType] = [.oob, .password], store: (any CredentialStore)? = nil,
            retryPolicy: RetryPolicy = SDKTest.fastRetries
        ) -> LatchConfiguration {
            server.makeConfiguration(
                tenant: tenant, clientID: clientID, challengeTypes: challengeTypes, credentialStore: store,
                retryPolicy: retryPolicy, transport: recorder.transport)
        }

        /// The newest code sent to `email`.
        func code(to email: String, tenant: String = "default") throws -> String {
            try #require(try server.latestCode(to: email, tenant: tenant), "no code was sent to \(email)")
        }

        /// Creates a verified account with `password` and signs it in with `client`.
        func signedIn(_ client: LatchClient, email: String, password: String? = SDKTest.password) async throws
            -> LatchTokenResult
        {
            try server.createUser(email: email, password: password)
            return try SDKTest.completed(try await client.signIn(username: email, password: password))
        }

        /// Server-side count of requests to a path ending in `suffix`.
        func serverCount(_ suffix: String) -> Int { server.faults.requestCount(path: suffix) }

        /// Waits until the server has received `count` requests to a path ending in `suffix` (at
        /// most `timeout` seconds), so a test can act while a delayed request is being answered.
        func waitForServer(_ suffix: String, count: Int, timeout: Double = 10) async throws {
            let deadline = Date().addingTimeInterval(timeout)
            while serverCount(suffix) < count {
                guard Date() < deadline else {
                    Issue.record("the server saw \(serverCount(suffix)) requests to \(suffix), not \(count)")
                    return
                }
                try await Task.sleep(nanoseconds: 5_000_000)
            }
        }
    }

    // MARK: - Unwrapping flow results

    static func codeRequired(_ step: SignUpStep, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> SignUpCodeRequiredState
    {
        guard case .codeRequired(let state) = step else { throw unexpected(step, sourceLocation) }
        return state
    }

    static func accountCreated(_ step: SignUpStep, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> SignInAfterSignUpState
    {
        guard case .accountCreated(let state) = step else { throw unexpected(step, sourceLocation) }
        return state
    }

    static func passwordRequired(_ step: SignUpStep, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> SignUpPasswordRequiredState
    {
        guard case .passwordRequired(let state) = step else { throw unexpected(step, sourceLocation) }
        return state
    }

    static func attributesRequired(_ step: SignUpStep, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> (SignUpAttributesRequiredState, [LatchRequiredAttribute])
    {
        guard case .attributesRequired(let state, let required) = step else { throw unexpected(step, sourceLocation) }
        return (state, required)
    }

    static func codeRequired(_ step: ResetPasswordStep, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> ResetPasswordCodeRequiredState
    {
        guard case .codeRequired(let state) = step else { throw unexpected(step, sourceLocation) }
        return state
    }

    static func passwordRequired(_ step: ResetPasswordStep, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> ResetPasswordRequiredState
    {
        guard case .passwordRequired(let state) = step else { throw unexpected(step, sourceLocation) }
        return state
    }

    static func passwordReset(_ step: ResetPasswordStep, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> SignInAfterResetPasswordState
    {
        guard case .passwordReset(let state) = step else { throw unexpected(step, sourceLocation) }
        return state
    }

    static func completed(_ step: SignInStep, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> LatchTokenResult
    {
        guard case .completed(let tokens) = step else { throw unexpected(step, sourceLocation) }
        return tokens
    }

    static func codeRequired(_ step: SignInStep, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> SignInCodeRequiredState
    {
        guard case .codeRequired(let state) = step else { throw unexpected(step, sourceLocation) }
        return state
    }

    static func passwordRequired(_ step: SignInStep, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> SignInPasswordRequiredState
    {
        guard case .passwordRequired(let state) = step else { throw unexpected(step, sourceLocation) }
        return state
    }

    struct UnexpectedStep: Error, CustomStringConvertible {
        let description: String
    }

    private static func unexpected(_ value: Any, _ sourceLocation: SourceLocation) -> UnexpectedStep {
        let description = "unexpected step: \(value)"
        Issue.record(Comment(rawValue: description), sourceLocation: sourceLocation)
        return UnexpectedStep(description: description)
    }

    // MARK: - Error assertions

    /// Where the error's correlation id must come from.
    enum Correlation {
        /// The `client-request-id` of the latest request the recorder saw.
        case lastRequest(RecordingTransport)
        /// No request was made: the error carries the correlation id of its flow, and only that.
        case flow(UUID)
    }

    /// Checks every public field of a ``LatchError`` against what the case demands.
    static func expect(
        _ error: LatchError, _ code: LatchError.Code, status: Int?, oauthError: String?, suberror: String? = nil,
        serverErrorCodes: [Int] = [], recovery: LatchError.Recovery, retryable: Bool = false, correlation: Correlation,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        #expect(error.name == code.name, sourceLocation: sourceLocation)
        #expect(!error.message.isEmpty, sourceLocation: sourceLocation)
        #expect(error.httpStatus == status, "httpStatus", sourceLocation: sourceLocation)
        #expect(error.oauthError == oauthError, "oauthError", sourceLocation: sourceLocation)
        #expect(error.suberror == suberror, "suberror", sourceLocation: sourceLocation)
        #expect(error.serverErrorCodes == serverErrorCodes, "serverErrorCodes", sourceLocation: sourceLocation)
        #expect(error.recovery == recovery, "recovery", sourceLocation: sourceLocation)
        #expect(error.isRetryable == retryable, "isRetryable", sourceLocation: sourceLocation)
        switch correlation {
        case .lastRequest(let recorder):
            let sent = recorder.lastCorrelationID
            #expect(sent != nil, "no request was recorded", sourceLocation: sourceLocation)
            #expect(error.correlationID == sent, "correlationID", sourceLocation: sourceLocation)
        case .flow(let id):
            #expect(error.correlationID == id.uuidString.lowercased(), "correlationID", sourceLocation: sourceLocation)
        }
        let bridged = error as NSError
        #expect(bridged.domain == "LatchErrorDomain", sourceLocation: sourceLocation)
        #expect(bridged.code == code.rawValue, sourceLocation: sourceLocation)
    }

    // MARK: - A port nobody listens on

    /// A loopback TCP port bound but not listening: connections to it are refused, and no other
    /// process can take it while this value is alive.
    final class ClosedPort: @unchecked Sendable {  // `descriptor` is written once, in init.
        let port: Int
        private let descriptor: Int32

        init() throws {
            #if canImport(Glibc)
                let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            #else
                let fd = socket(AF_INET, SOCK_STREAM, 0)
            #endif
            guard fd >= 0 else { throw SDKTest.UnexpectedStep(description: "socket failed: \(errno)") }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = 0
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                    bind(fd, generic, length) == 0 && getsockname(fd, generic, &length) == 0
                }
            }
            guard bound else {
                close(fd)
                throw SDKTest.UnexpectedStep(description: "bind failed: \(errno)")
            }
            descriptor = fd
            port = Int(UInt16(bigEndian: address.sin_port))
        }

        deinit { close(descriptor) }
    }
}

extension SDKTest {
    /// A thread-safe counter for transports and callbacks.
    final class Counter: Sendable {
        private let count = Locked(0)

        func increment() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }
}

extension SDKTest.Environment {
    /// A client of this server that checks its store for changes made elsewhere every 0.1 s.
    func watchingClient(store: (any CredentialStore)? = nil, retryPolicy: RetryPolicy = SDKTest.fastRetries)
        throws -> LatchClient
    {
        var configuration = configuration(store: store, retryPolicy: retryPolicy)
        configuration.credentialStoreWatchInterval = 0.1
        return try LatchClient(configuration: configuration)
    }
}

extension SDKTest {
    /// A thread-safe on/off switch, e.g. for a transport that fails only while it is on.
    final class Switch: Sendable {
        private let state = Locked(false)

        func turnOn() { state.withLock { $0 = true } }
        func turnOff() { state.withLock { $0 = false } }
        var isOn: Bool { state.withLock { $0 } }
    }
}
