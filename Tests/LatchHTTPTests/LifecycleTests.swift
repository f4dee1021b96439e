import Dispatch
import LatchLocking
import Testing

@testable import LatchHTTP

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct LifecycleTests {
    @Test func gracefulShutdownFinishesInFlightAndRefusesNewConnections() throws {
        let handlerStarted = DispatchSemaphore(value: 0)
        var router = Router()
        router.add("GET", "/slow") { _ in
            handlerStarted.signal()
            usleep(600_000)
            return .text(200, "finished")
        }
        let server = HTTPServer(configuration: HTTPServerConfiguration(port: 0, threadCount: 2), responder: router)
        try server.start()
        let port = server.port
        #expect(port > 0)

        let slowResult = Locked<RawHTTPResponse?>(nil)
        let slowDone = Background.run {
            let response = try? RawHTTPClient.exchange(port: port, method: "GET", target: "/slow")
            slowResult.withLock { $0 = response }
        }
        handlerStarted.wait()
        #expect(server.inFlightRequests == 1)

        let start = ContinuousClock.now
        let shutdownDone = Background.run { server.shutdown(timeout: 5) }
        usleep(100_000)
        // Shutdown has begun: new connections are refused while the slow request is still running.
        #expect(throws: RawHTTPError.connectFailed(ECONNREFUSED)) { try RawHTTPClient(port: port) }

        slowDone.wait()
        let response = try #require(slowResult.withLock { $0 })
        #expect(response.status == 200)
        #expect(response.text == "finished")
        shutdownDone.wait()
        #expect(ContinuousClock.now - start < .seconds(3))
        #expect(server.inFlightRequests == 0)
        server.shutdown()  // a second call is harmless
    }

    @Test func shutdownGivesUpAfterTheTimeoutForIdleHeads() throws {
        let server = HTTPServer(configuration: HTTPServerConfiguration(port: 0, threadCount: 2), responder: Router())
        try server.start()
        // A client that sent half a request head keeps one request in flight.
        let client = try RawHTTPClient(port: server.port)
        client.write("GET /never HTTP/1.1\r\nHost: x\r\n")
        usleep(50_000)
        let start = ContinuousClock.now
        server.shutdown(timeout: 0.2)
        #expect(ContinuousClock.now - start < .seconds(2))
        #expect(client.isClosedByPeer())
    }

    @Test func takenPortIsAClearError() throws {
        let first = HTTPServer(configuration: HTTPServerConfiguration(port: 0), responder: Router())
        try first.start()
        defer { first.shutdown() }
        let second = HTTPServer(configuration: HTTPServerConfiguration(port: first.port), responder: Router())
        #expect {
            try second.start()
        } throws: { error in
            (error as? HTTPServerError)?.kind == .addressInUse && "\(error)".contains("address already in use")
        }
    }

    @Test func badHostAndDoubleStartAreErrors() throws {
        let bad = HTTPServer(configuration: HTTPServerConfiguration(host: "not an ip", port: 0), responder: Router())
        #expect { try bad.start() } throws: { ($0 as? HTTPServerError)?.kind == .invalidAddress }
        let server = HTTPServer(configuration: HTTPServerConfiguration(port: 0), responder: Router())
        try server.start()
        #expect { try server.start() } throws: { ($0 as? HTTPServerError)?.kind == .alreadyStarted }
        server.shutdown()
        #expect { try server.start() } throws: { ($0 as? HTTPServerError)?.kind == .alreadyStarted }
    }

    @Test func ipv6LoopbackWorks() throws {
        var router = Router()
        router.add("GET", "/") { request in .text(200, request.remoteAddress) }
        let server = HTTPServer(configuration: HTTPServerConfiguration(host: "::1", port: 0), responder: router)
        do {
            try server.start()
        } catch let error as HTTPServerError where error.kind == .socketFailed {
            return  // no IPv6 on this host
        }
        defer { server.shutdown() }
        #expect(server.port > 0)
    }
}
