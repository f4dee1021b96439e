import Dispatch
import LatchLocking
import Testing

@testable import LatchHTTP

#if canImport(Glibc)
    import Glibc
#endif

/// Requests a route marks as blocking are answered off the worker threads, with their connection
/// suspended meanwhile, so that the worker keeps serving its other connections.
@Suite struct BlockingAnswerTests {
    /// A server with one worker thread (libmicrohttpd's polling thread, without a pool): `/slow`
    /// (marked blocking; it waits until `release` is signalled) and `/fast`.
    static func server(blockingThreads: Int = 256, started: DispatchSemaphore, release: DispatchSemaphore) throws
        -> HTTPServer
    {
        var router = Router()
        router.add("GET", "/slow", mayBlock: { _ in true }) { _ in
            started.signal()
            release.wait()
            return .text(200, "slow")
        }
        router.add("GET", "/fast") { _ in .text(200, "fast") }
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(
                port: 0, threadCount: 1, blockingThreads: blockingThreads, errorLog: { _ in }),
            responder: router)
        try server.start()
        return server
    }

    @Test func aBlockingAnswerLeavesTheOnlyWorkerFree() throws {
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let server = try Self.server(started: started, release: release)
        defer { server.shutdown(timeout: 2) }
        let port = server.port
        let slow = Locked<RawHTTPResponse?>(nil)
        let slowDone = Background.run {
            let response = try? RawHTTPClient.exchange(
                port: port, method: "GET", target: "/slow", headers: [("client-request-id", Self.correlationID)])
            slow.withLock { $0 = response }
        }
        started.wait()
        #expect(server.inFlightRequests == 1)
        // The one worker answers other connections while /slow blocks.
        for _ in 0..<3 { #expect(try RawHTTPClient.exchange(port: port, method: "GET", target: "/fast").text == "fast") }
        release.signal()
        slowDone.wait()
        let response = try #require(slow.withLock { $0 })
        #expect(response.status == 200 && response.text == "slow")
        #expect(response.headers["client-request-id"] == Self.correlationID)
        #expect(response.headers["x-request-id"]?.isEmpty == false)
    }

    @Test func aKeptAliveConnectionGoesOnAfterABlockingAnswer() throws {
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let server = try Self.server(started: started, release: release)
        defer { server.shutdown(timeout: 2) }
        let client = try RawHTTPClient(port: server.port)
        release.signal()
        client.sendRequest("GET", "/slow", headers: [], body: [], close: false)
        #expect(try client.readResponse().text == "slow")
        client.sendRequest("GET", "/fast", headers: [], body: [], close: false)
        #expect(try client.readResponse().text == "fast")
        started.wait()
    }

    @Test func withoutThreadsToSpareTheWorkerMakesTheAnswer() throws {
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let server = try Self.server(blockingThreads: 0, started: started, release: release)
        defer { server.shutdown(timeout: 2) }
        release.signal()
        #expect(try RawHTTPClient.exchange(port: server.port, method: "GET", target: "/slow").text == "slow")
        started.wait()
    }

    @Test func shutdownWaitsForABlockingAnswerUnderWay() throws {
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let server = try Self.server(started: started, release: release)
        let port = server.port
        let slow = Locked<RawHTTPResponse?>(nil)
        let slowDone = Background.run {
            let response = try? RawHTTPClient.exchange(port: port, method: "GET", target: "/slow")
            slow.withLock { $0 = response }
        }
        started.wait()
        let stopped = Background.run { server.shutdown(timeout: 5) }
        usleep(100_000)
        release.signal()
        stopped.wait()
        slowDone.wait()
        let response = try #require(slow.withLock { $0 })
        #expect(response.status == 200 && response.headers["connection"]?.lowercased() == "close")
        #expect(server.inFlightRequests == 0)
    }

    @Test func aStoppingServerWithoutGraceStillResumesTheConnection() throws {
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let server = try Self.server(started: started, release: release)
        let port = server.port
        let slowDone = Background.run { _ = try? RawHTTPClient.exchange(port: port, method: "GET", target: "/slow") }
        started.wait()
        let stopped = Background.run { server.shutdown(timeout: 0) }
        usleep(100_000)
        release.signal()  // libmicrohttpd may stop only once the suspended connection is resumed
        stopped.wait()
        slowDone.wait()
    }

    @Test func anAddressOverItsLimitWaitsItsTurnWhileAnotherStartsAtOnce() throws {
        let started = Locked<[String]>([])
        let startedOne = DispatchSemaphore(value: 0)
        let releases = ["a", "b", "c"].reduce(into: [String: DispatchSemaphore]()) { $0[$1] = DispatchSemaphore(value: 0) }
        var router = Router()
        router.add("GET", "/hold/{name}", mayBlock: { _ in true }) { request in
            let name = request.pathParameters["name"] ?? ""
            started.withLock { $0.append(name) }
            startedOne.signal()
            releases[name]?.wait()
            return .text(200, name)
        }
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(
                port: 0, threadCount: 1, blockingAnswersPerAddress: 1, errorLog: { _ in }),
            responder: router)
        try server.start()
        defer { server.shutdown(timeout: 2) }
        let port = server.port
        func hold(_ name: String, from source: String) -> DispatchSemaphore {
            Background.run {
                guard let client = try? RawHTTPClient(port: port, from: source) else { return }
                client.sendRequest("GET", "/hold/\(name)", headers: [], body: [], close: true)
                _ = try? client.readResponse()
            }
        }
        let a = hold("a", from: "127.0.0.2")
        startedOne.wait()
        let b = hold("b", from: "127.0.0.2")
        usleep(100_000)  // "b" has arrived, and waits for "a"
        let c = hold("c", from: "127.0.0.3")
        startedOne.wait()
        #expect(started.withLock { $0 } == ["a", "c"])
        releases["a"]?.signal()
        startedOne.wait()
        #expect(started.withLock { $0 } == ["a", "c", "b"])
        releases["b"]?.signal()
        releases["c"]?.signal()
        for done in [a, b, c] { done.wait() }
    }

    @Test func theRouterHandsBlockingWorkOverAndObservesItOnce() throws {
        let observed = Locked<[String]>([])
        var router = Router()
        router.add("POST", "/hash", mayBlock: { request in request.body == Array("password".utf8) }) { request in
            .text(200, String(decoding: request.body, as: UTF8.self))
        }
        router.observer = { observation in observed.withLock { $0.append(observation.route ?? "?") } }
        let blocking = HTTPRequest(method: "POST", target: "/hash", body: Array("password".utf8))
        guard case .blocking(let work) = router.answer(to: blocking) else {
            Issue.record("a request the route's test holds for is not handed over")
            return
        }
        #expect(observed.withLock { $0 }.isEmpty)
        #expect(work().status == 200)
        #expect(observed.withLock { $0 } == ["/hash"])
        guard case .response(let response) = router.answer(to: HTTPRequest(method: "POST", target: "/hash", body: [1]))
        else {
            Issue.record("a request the route's test does not hold for is handed over")
            return
        }
        #expect(response.status == 200)
        #expect(router.respond(to: blocking).body == Array("password".utf8))
        #expect(observed.withLock { $0 }.count == 3)
    }

    static let correlationID = "5f0c3a62-3b4e-4e0b-9d1a-7d1c2f6b8e90"
}
