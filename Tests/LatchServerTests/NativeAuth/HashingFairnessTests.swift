import Dispatch
import Foundation
import LatchLocking
import LatchServer
import LatchTesting
import Testing

@testable import LatchCrypto

/// Argon2 is shared fairly between source addresses: a flood of password sign-ups from one address
/// cannot starve a sign-in from another, over real sockets and the server's real worker threads.
@Suite("Argon2 shared fairly between sources")
struct HashingFairnessTests {
    /// The address the flood comes from.
    static let flooder = "127.0.0.2"
    /// The address the timed sign-in comes from.
    static let signer = "127.0.0.3"
    /// The tenant both use.
    static let tenant = "flood"
    static let email = "fair-signer@example.com"

    /// The flood tenant's settings. The flood must reach Argon2, so any limit that would stop
    /// repeated sign-up starts from one address before the hash (a per-address limit on flow
    /// starts, say) is turned off here.
    static func floodTenantSettings() -> TenantSettings {
        var settings = TenantSettings()
        settings.rateLimits = .off
        return settings
    }

    /// Extra time a loaded sign-in may take beyond twice its unloaded time. Its hash goes first,
    /// but waits for one of the flood's running hashes to finish, and then shares the memory
    /// bandwidth and the two cores with the other one, with the flood's 32 client threads in this
    /// process and with whatever else the machine runs.
    static let slack = Duration.milliseconds(100)

    @Test("under a 32-connection sign-up flood from one address, a sign-in from another takes at most twice its unloaded time")
    func floodDoesNotStarveAnotherSource() async throws {
        // The measurement blocks on sockets for seconds, so it runs on a thread of its own rather
        // than on the few threads that other tests' tasks share.
        let run = try await Self.onThreadOfItsOwn { try Self.measureUnderFlood() }
        #expect(
            Self.median(run.loaded) <= run.bound,
            "loaded sign-ins \(run.loaded), unloaded \(run.unloaded), bound \(run.bound); flood answers \(run.flood)")
        #expect(run.refusedAlone == 0, "the flood was refused while it was the only source")
        #expect(run.flood.keys.allSatisfy { $0 == 200 || $0 == 429 }, "flood answers \(run.flood)")
    }

    /// What ``measureUnderFlood()`` saw.
    struct Measurement: Sendable {
        /// The median unloaded sign-in, before and after the flood.
        var unloaded: Duration
        /// The loaded sign-ins, in order.
        var loaded: [Duration]
        /// Twice ``unloaded`` plus ``HashingFairnessTests/slack``.
        var bound: Duration
        /// Flood answers refused before the first loaded sign-in, while the flood was alone.
        var refusedAlone: Int
        /// Every flood answer by status (0: none).
        var flood: [Int: Int]
    }

    /// Times password sign-ins from ``signer`` unloaded, under a flood from ``flooder``, and
    /// unloaded again, on a live server at production Argon2 cost and worker count, so that the
    /// flood holds every core. The unloaded time is the median of the samples before and after, so
    /// that the bound follows the shared machine if it gets busier meanwhile.
    static func measureUnderFlood() throws -> Measurement {
        let server = try LatchTestServer.start(mode: .live) { configuration in
            configuration.passwordHashing = Argon2idHasher.Parameters()
            configuration.httpThreads = nil
        }
        defer { server.stop() }
        try server.createTenant(tenant, settings: floodTenantSettings())
        try server.createUser(email: email, password: TokenHelpers.password, tenant: tenant)
        let port = server.app.port

        _ = try signIn(port: port)  // warms the caches and the connection path
        var unloaded = try (0..<5).map { _ in try signIn(port: port) }

        let flood = Flood(port: port, connections: 32)
        flood.start()
        defer { flood.stop() }
        try flood.waitUntilUnderWay(within: .seconds(10))
        let refusedAlone = flood.count(429)
        // Seven loaded sign-ins, so that a moment when the shared machine stalls the whole process
        // does not decide the median alone; a request unanswered for 3 s ends the sampling, and it
        // and the sign-ins not taken count as 3 s.
        var loaded: [Duration] = []
        while loaded.count < 7, let sample = try? signIn(port: port, timeoutSeconds: 3) { loaded.append(sample) }
        loaded += Array(repeating: .seconds(3), count: 7 - loaded.count)
        flood.stop()  // every flood request has been answered: the server is idle again
        unloaded += try (0..<5).map { _ in try signIn(port: port) }
        let bound = median(unloaded) * 2 + slack
        return Measurement(
            unloaded: median(unloaded), loaded: loaded, bound: bound, refusedAlone: refusedAlone,
            flood: flood.statuses())
    }

    /// Runs `work` on a new thread and returns what it returns.
    static func onThreadOfItsOwn<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
        }
    }

    @Test("a hash the gate refuses is answered 429 with Retry-After: 1")
    func refusalIsTooManyAttempts() async throws {
        // One slot and one waiting place, both taken by other sources.
        let gate = Argon2Gate(slots: 1, maximumWaiters: 1)
        let hasher = Argon2idHasher(parameters: .init(memoryKiB: 1024, iterations: 1, parallelism: 1), gate: gate)
        let server = try LatchTestServer.start(mode: .inProcess) { $0.passwordHasher = hasher }
        defer { server.stop() }
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        done.enter()
        Thread.detachNewThread {
            _ = try? gate.run(source: "holder") {
                holding.signal()
                release.wait()
            }
            done.leave()
        }
        holding.wait()
        done.enter()
        Thread.detachNewThread {
            _ = try? gate.run(source: "waiter") {}
            done.leave()
        }
        while gate.waiting < 1 { try await Task.sleep(for: .milliseconds(1)) }

        var client = WireClient(server)
        client.remoteAddress = "203.0.113.9"
        let reply = try await client.post(
            "signup/v1.0/start",
            [
                "username": TokenHelpers.uniqueEmail(), "password": TokenHelpers.password,
                "challenge_type": "oob password redirect",
            ])
        release.signal()
        await withCheckedContinuation { continuation in done.notify(queue: .global()) { continuation.resume() } }
        #expect(reply.status == 429)
        #expect(reply.headers["retry-after"] == "1")
        #expect(reply.error == "too_many_requests")
    }

    /// A sign-in step that did not answer as it should.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// One password sign-in from ``signer`` on a fresh connection: initiate → challenge → token.
    static func signIn(port: Int, timeoutSeconds: Int = 10) throws -> Duration {
        let client = SourceBoundClient(port: port, source: signer, timeoutSeconds: timeoutSeconds)
        let path = "/\(tenant)/oauth2/v2.0/"
        let began = ContinuousClock.now
        let initiate = try client.post(
            path + "initiate", form: ["client_id": "latch-dev", "username": email, "challenge_type": "password redirect"])
        guard let started = initiate.string("continuation_token") else {
            throw Failure(description: "initiate answered \(initiate.status)")
        }
        let challenge = try client.post(
            path + "challenge",
            form: ["client_id": "latch-dev", "continuation_token": started, "challenge_type": "password redirect"])
        guard let challenged = challenge.string("continuation_token") else {
            throw Failure(description: "challenge answered \(challenge.status)")
        }
        let token = try client.post(
            path + "token",
            form: [
                "client_id": "latch-dev", "grant_type": "password", "password": TokenHelpers.password,
                "continuation_token": challenged,
            ])
        let elapsed = ContinuousClock.now - began
        guard token.status == 200, token.string("access_token") != nil else {
            throw Failure(description: "token answered \(token.status)")
        }
        return elapsed
    }

    static func median(_ samples: [Duration]) -> Duration {
        let sorted = samples.sorted()
        return sorted[sorted.count / 2]
    }
}

extension HashingFairnessTests {
    /// Sign-up starts with a password from ``flooder`` on `connections` kept-alive connections,
    /// each sent as soon as the previous one is answered, until stopped.
    final class Flood: Sendable {
        let port: Int
        let connections: Int
        private let stopping = Locked<Bool>(false)
        private let answers = Locked<[Int: Int]>([:])
        private let requests = Locked<Int>(0)
        private let finished = DispatchGroup()

        init(port: Int, connections: Int) {
            self.port = port
            self.connections = connections
        }

        func start() {
            for connection in 0..<connections {
                finished.enter()
                let thread = Thread { [self] in
                    defer { finished.leave() }
                    let client = SourceBoundClient(port: port, source: HashingFairnessTests.flooder)
                    var sent = 0
                    while !stopping.load() {
                        sent += 1
                        requests.add(1)
                        let form = [
                            "client_id": "latch-dev", "username": "flood-\(connection)-\(sent)@example.com",
                            "password": "Flood-Passw0rd-2026!", "challenge_type": "oob password redirect",
                        ]
                        let status = (try? client.post("/\(HashingFairnessTests.tenant)/signup/v1.0/start", form: form))?.status
                        answers.withLock { $0[status ?? 0, default: 0] += 1 }
                    }
                }
                thread.start()
            }
        }

        /// Waits until every connection has sent a request and two have been answered: the
        /// server is hashing for the flood, with the rest of its requests queued.
        func waitUntilUnderWay(within limit: Duration) throws {
            let deadline = ContinuousClock.now + limit
            while requests.load() < connections || answers.withLock({ $0.values.reduce(0, +) }) < 2 {
                guard ContinuousClock.now < deadline else {
                    throw Failure(description: "the flood got \(statuses()) within \(limit)")
                }
                Thread.sleep(forTimeInterval: 0.01)
            }
        }

        /// Answers so far by status (0: no answer).
        func statuses() -> [Int: Int] { answers.withLock { $0 } }

        func count(_ status: Int) -> Int { answers.withLock { $0[status] ?? 0 } }

        /// Stops the flood and waits for its threads (each finishes the request it has in flight).
        func stop() {
            stopping.store(true)
            finished.wait()
        }
    }
}
