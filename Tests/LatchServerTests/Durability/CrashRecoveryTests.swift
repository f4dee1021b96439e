import Foundation
import LatchChildProcess
import LatchLocking
import LatchServer
import LatchTesting
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The real `latchd` binary under SIGKILL and SIGTERM: what the server acknowledged survives a
/// crash, and a graceful stop lets in-flight requests finish.
@Suite("latchd crash recovery and shutdown", .serialized)
struct CrashRecoveryTests {
    /// One code-only sign-up against a live `latchd`, the code read from the store directly.
    /// - Returns: whether the final `continue` answered 200; throws when the server is gone.
    static func signUp(_ client: WireClient, email: String, admin: AdminService) async throws -> Bool {
        let start = try await client.post("signup/v1.0/start", ["username": email, "challenge_type": "oob redirect"])
        guard let token = start.continuationToken else { return false }
        let challenge = try await client.post("signup/v1.0/challenge", ["continuation_token": token])
        guard let next = challenge.continuationToken,
            let code = try admin.outbox(tenant: nil, recipient: email, limit: 1).first?.code
        else { return false }
        let proceed = try await client.post(
            "signup/v1.0/continue", ["continuation_token": next, "grant_type": "oob", "oob": code])
        return proceed.status == 200
    }

    @Test("every sign-up acknowledged before kill -9 exists after a restart")
    func acknowledgedSignUpsSurviveSIGKILL() async throws {
        let directory = LatchdProcess.temporaryDataDirectory()
        defer { LatchdProcess.removeData(directory) }
        let first = try await LatchdProcess.start(dataDirectory: directory)
        defer { first.forceStop() }
        let console = try AdminConsole.open(dataDirectory: directory, location: LatchTestStore.location(dataDirectory: directory))
        // Eight workers on one source address sign up far faster than its rate limits allow.
        try console.admin.updateTenant(named: "default") { $0.rateLimits = .off }
        let client = WireClient(baseURL: first.baseURL)

        let ledger = SignUpLedger()
        let workerCount = 8
        let killAfter = 40
        let workers = Task {
            await withTaskGroup(of: Void.self) { group in
                for worker in 0..<workerCount {
                    group.addTask {
                        var round = 0
                        while !ledger.stopped.withLock({ $0 }) {
                            let email = "crash-\(worker)-\(round)@example.com"
                            round += 1
                            ledger.attempted.withLock { $0 += 1 }
                            do {
                                if try await Self.signUp(client, email: email, admin: console.admin) {
                                    ledger.acknowledged.withLock { $0.append(email) }
                                }
                            } catch {
                                return  // the server is gone
                            }
                        }
                    }
                }
            }
        }

        let deadline = ContinuousClock.now + .seconds(30)
        while ledger.acknowledged.withLock({ $0.count }) < killAfter, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        first.send(SIGKILL)  // while the workers still have requests in flight
        let exited = await first.waitForExit(timeout: .seconds(10))
        ledger.stopped.withLock { $0 = true }
        await workers.value
        console.close()
        try #require(exited)
        #expect(first.process.terminationReason == .uncaughtSignal)
        let survivors = ledger.acknowledged.withLock { $0 }
        try #require(survivors.count >= killAfter, "only \(survivors.count) sign-ups were acknowledged:\n\(first.log)")
        #expect(ledger.attempted.withLock { $0 } > survivors.count, "some sign-ups must have been cut off by the kill")

        let second = try await LatchdProcess.start(dataDirectory: directory)
        defer { second.forceStop() }
        let restarted = WireClient(baseURL: second.baseURL)
        for email in survivors {
            let initiate = try await restarted.post(
                "oauth2/v2.0/initiate", ["username": email, "challenge_type": "oob redirect"])
            #expect(initiate.status == 200, "acknowledged account \(email) is missing after restart: \(initiate.json)")
        }
        let reopened = try AdminConsole.open(
            dataDirectory: directory, location: LatchTestStore.location(dataDirectory: directory))
        defer { reopened.close() }
        let users = Set(try reopened.admin.users(tenant: try reopened.admin.tenant(named: "default")).map(\.email))
        #expect(Set(survivors).isSubset(of: users))

        // A survivor signs in with a code on the restarted server.
        let email = try #require(survivors.first)
        let initiate = try await restarted.post("oauth2/v2.0/initiate", ["username": email, "challenge_type": "oob redirect"])
        let challenge = try await restarted.post(
            "oauth2/v2.0/challenge", ["continuation_token": try #require(initiate.continuationToken)])
        try #require(challenge.string("challenge_type") == "oob")
        let code = try #require(try reopened.admin.outbox(tenant: nil, recipient: email, limit: 1).first?.code)
        let token = try await restarted.post(
            "oauth2/v2.0/token",
            [
                "grant_type": "oob", "continuation_token": try #require(challenge.continuationToken), "oob": code,
                "scope": "openid offline_access",
            ])
        #expect(token.status == 200, "\(token.json)")
        #expect(try DecodedJWT(try #require(token.string("access_token"))).string("email") == email)
    }

    @Test("SIGTERM lets an in-flight request finish, refuses new connections, and exits 0")
    func sigtermDrains() async throws {
        let directory = LatchdProcess.temporaryDataDirectory()
        defer { LatchdProcess.removeData(directory) }
        let server = try await LatchdProcess.start(dataDirectory: directory)
        defer { server.forceStop() }

        let email = "drain@example.com"
        let body = "client_id=latch-dev&username=\(WireClient.encode(email))&challenge_type=oob%20redirect"
        let head =
            "POST /default/signup/v1.0/start HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n"
            + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\n"
            + "client-request-id: d7a1e000-0000-4000-8000-00000000d7a1\r\n\r\n"
        // An idle keep-alive connection, to ask /readyz while draining.
        let idle = try RawConnection(port: server.port)
        defer { idle.close() }
        let readiness = "GET /readyz HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n"
        try idle.send(readiness)
        #expect(try idle.readResponse().hasPrefix("HTTP/1.1 200"))

        let connection = try RawConnection(port: server.port)
        defer { connection.close() }
        let split = body.index(body.startIndex, offsetBy: 12)
        try connection.send(head + body[..<split])
        try await Task.sleep(for: .milliseconds(300))  // the request is now in flight, its body half sent

        server.send(SIGTERM)
        try await Task.sleep(for: .milliseconds(300))
        #expect(server.process.isRunning, "latchd must wait for the in-flight request")
        #expect(throws: (any Error).self, "a draining server refuses new connections") {
            try RawConnection(port: server.port).close()
        }
        try idle.send(readiness)
        let draining = try idle.readResponse()
        #expect(draining.hasPrefix("HTTP/1.1 503"), "/readyz must report draining: \(draining)")
        #expect(draining.contains("draining"))

        try connection.send(String(body[split...]))
        let response = try connection.readResponse()
        #expect(response.hasPrefix("HTTP/1.1 200"), "\(response)")
        #expect(response.contains("continuation_token"))
        #expect(response.lowercased().contains("client-request-id: d7a1e000-0000-4000-8000-00000000d7a1"))

        let exited = await server.waitForExit(timeout: .seconds(15))
        try #require(exited, "latchd did not exit after SIGTERM:\n\(server.log)")
        #expect(server.process.terminationReason == .exit)
        #expect(server.process.terminationStatus == 0)
        #expect(server.log.contains("stopped"))
    }
}

/// What the crash test's workers did, shared across their tasks.
final class SignUpLedger: Sendable {
    /// E-mail addresses whose final `continue` answered 200.
    let acknowledged = Locked<[String]>([])
    /// Sign-ups begun.
    let attempted = Locked<Int>(0)
    /// Set once the workers should stop. A flag rather than task cancellation: cancelling a task
    /// whose URLSession request completes at that moment can deadlock FoundationNetworking on Linux
    /// (the task's status lock against the session's queue).
    let stopped = Locked<Bool>(false)
}

/// A blocking loopback TCP connection for byte-level HTTP.
final class RawConnection {
    private var descriptor: Int32

    init(port: Int) throws {
        #if canImport(Glibc)
            descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw LatchdProcessError("socket failed: \(errno)") }
        var timeout = timeval(tv_sec: 15, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            closeSocket(descriptor)
            descriptor = -1
            throw LatchdProcessError("connect failed: errno \(code)")
        }
    }

    func send(_ text: some StringProtocol) throws {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { buffer in
                sendBytes(descriptor, buffer)
            }
            guard sent > 0 else { throw LatchdProcessError("send failed: errno \(errno)") }
            offset += sent
        }
    }

    /// Reads one response: the head, then `Content-Length` bytes of body (or until the peer closes).
    func readResponse() throws -> String {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            received += buffer[0..<count]
            let text = String(decoding: received, as: UTF8.self)
            if let headEnd = text.range(of: "\r\n\r\n") {
                let head = text[..<headEnd.lowerBound].lowercased()
                if let line = head.split(separator: "\r\n").first(where: { $0.hasPrefix("content-length:") }),
                    let length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)),
                    received.count >= text[..<headEnd.upperBound].utf8.count + length
                {
                    break
                }
            }
        }
        return String(decoding: received, as: UTF8.self)
    }

    func close() {
        if descriptor >= 0 {
            closeSocket(descriptor)
            descriptor = -1
        }
    }

    deinit { close() }
}

private func closeSocket(_ descriptor: Int32) {
    _ = close(descriptor)
}

private func sendBytes(_ descriptor: Int32, _ buffer: UnsafeRawBufferPointer) -> Int {
    #if canImport(Glibc)
        send(descriptor, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL))
    #else
        send(descriptor, buffer.baseAddress, buffer.count, 0)
    #endif
}
