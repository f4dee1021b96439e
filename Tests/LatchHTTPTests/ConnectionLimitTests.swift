import Foundation
import LatchLocking
import Testing

@testable import LatchHTTP

#if canImport(Glibc)
    import Glibc
#endif

/// One client must not be able to hold every connection, or hold connections for long by
/// sending its requests slowly or not at all.
@Suite struct ConnectionLimitTests {
    private static let halfSentPost = "POST /ok HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n"

    /// Raises this process's soft open-file limit to at least `count`, if the hard limit allows.
    private static func allowOpenFiles(_ count: Int) throws {
        var limits = rlimit()
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        guard getrlimit(resource, &limits) == 0, limits.rlim_cur < rlim_t(count) else { return }
        limits.rlim_cur = min(rlim_t(count), limits.rlim_max)
        _ = setrlimit(resource, &limits)
        try #require(limits.rlim_cur >= rlim_t(count), "RLIMIT_NOFILE hard limit \(limits.rlim_max) is below \(count)")
    }

    /// Polls `condition` every 10 ms until it holds or `timeout` passes; whether it held.
    private static func eventually(within timeout: Duration, _ condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !condition() {
            if ContinuousClock.now > deadline { return false }
            usleep(10_000)
        }
        return true
    }

    @Test func anotherAddressIsServedWhileOneAddressHoldsThousandsOfSockets() throws {
        try Self.allowOpenFiles(4096)
        let log = LogCollector()
        // The old defaults' total (1,024 connections) and two workers: without the per-address
        // limit, 2,000 idle sockets from one address would take every connection.
        let server = try TestServer(
            threadCount: 2, connectionLimit: 1024, perAddressConnectionLimit: 64, headerTimeoutSeconds: 10,
            idleTimeoutSeconds: 30, errorLog: log.sink
        ) { router in
            router.add("GET", "/ok") { _ in .text(200, "ok") }
        }
        let started = ContinuousClock.now
        var attackers: [RawHTTPClient] = []
        attackers.reserveCapacity(2000)
        for _ in 0..<2000 {
            let attacker = try RawHTTPClient(port: server.port, from: "127.0.0.2")
            attacker.write(Self.halfSentPost)
            attackers.append(attacker)
        }
        #expect(Self.eventually(within: .seconds(3)) { server.server.abnormalConnectionEndings[.connectionLimit] == 1936 })
        #expect(server.server.openConnections <= 64)

        for address in 3...12 {
            let client = try RawHTTPClient(port: server.port, from: "127.0.0.\(address)")
            client.setReceiveTimeout(milliseconds: 2000)
            let asked = ContinuousClock.now
            client.sendRequest("GET", "/ok", headers: [], body: [], close: true)
            let response = try client.readResponse()
            #expect(response.text == "ok")
            #expect(ContinuousClock.now - asked < .seconds(1), "127.0.0.\(address) waited \(ContinuousClock.now - asked)")
        }
        // One line for the first connection turned away; the rest are counted for the summary.
        #expect(log.all.count <= 2, "\(log.all.prefix(5))")
        #expect(ContinuousClock.now - started < .seconds(8))
        attackers.removeAll()
    }

    @Test func halfSentHeadIsClosedAtTheHeaderTimeoutWhileIdleKeepAliveLastsUntilTheIdleTimeout() throws {
        let server = try TestServer(headerTimeoutSeconds: 1, idleTimeoutSeconds: 3) { router in
            router.add("GET", "/ok") { _ in .text(200, "ok") }
        }
        let halfHead = try RawHTTPClient(port: server.port)
        halfHead.write("GET /ok HTTP/1.1\r\nHost: x\r\n")
        let halfLine = try RawHTTPClient(port: server.port)
        halfLine.write("GET /o")
        let keptAlive = try RawHTTPClient(port: server.port)
        keptAlive.sendRequest("GET", "/ok", headers: [], body: [], close: false)
        #expect(try keptAlive.readResponse().text == "ok")
        let answered = ContinuousClock.now

        let halfHeadClosed = try #require(halfHead.waitForClose(timeout: .seconds(3)), "a half-sent head was kept open")
        #expect(halfHeadClosed > .milliseconds(700) && halfHeadClosed < .seconds(2), "closed after \(halfHeadClosed)")
        #expect(halfLine.waitForClose(timeout: .seconds(1)) != nil, "a half-sent request line was kept open")
        #expect(keptAlive.waitForClose(timeout: .seconds(2) - (ContinuousClock.now - answered)) == nil)
        let keptAliveClosed = try #require(keptAlive.waitForClose(timeout: .seconds(3)), "an idle connection was kept open")
        let idle = ContinuousClock.now - answered
        #expect(idle > .milliseconds(2500) && idle < .milliseconds(4500), "idle connection closed after \(idle)")
        _ = keptAliveClosed
        #expect(server.server.abnormalConnectionEndings[.headerTimeout] == 2)
    }

    @Test func aHeadDrippedByteByByteIsCutOffAtTheDeadline() throws {
        let server = try TestServer(headerTimeoutSeconds: 1, idleTimeoutSeconds: 30) { router in
            router.add("GET", "/ok") { _ in .text(200, "ok") }
        }
        let client = try RawHTTPClient(port: server.port)
        let started = ContinuousClock.now
        client.write("GET /ok HTTP/1.1\r\n")
        var closedAfter: Duration?
        for line in 0..<40 where closedAfter == nil {
            // Never silent for long, so only a deadline (not libmicrohttpd's idle timeout) stops it.
            guard client.write("X-Drip-\(line): 1\r\n") else { break }
            if client.waitForClose(timeout: .milliseconds(100)) != nil { closedAfter = ContinuousClock.now - started }
        }
        let elapsed = try #require(closedAfter, "a dripping client was never cut off")
        #expect(elapsed > .milliseconds(700) && elapsed < .seconds(2), "cut off after \(elapsed)")
    }

    @Test func theNextRequestOnAKeptAliveConnectionHasADeadlineOfItsOwn() throws {
        let server = try TestServer(headerTimeoutSeconds: 1, idleTimeoutSeconds: 30) { router in
            router.add("GET", "/ok") { _ in .text(200, "ok") }
        }
        let client = try RawHTTPClient(port: server.port)
        for _ in 0..<3 {
            usleep(600_000)  // each request arrives well within its own deadline
            client.sendRequest("GET", "/ok", headers: [], body: [], close: false)
            #expect(try client.readResponse().text == "ok")
        }
        client.write("GET /ok HTTP/1.1\r\nHost: x\r\n")
        let closed = try #require(client.waitForClose(timeout: .seconds(3)), "a half-sent second head was kept open")
        #expect(closed > .milliseconds(700) && closed < .seconds(2), "closed after \(closed)")
    }

    @Test func theDeadlineDoesNotCutOffASlowResponder() throws {
        let server = try TestServer(headerTimeoutSeconds: 1, idleTimeoutSeconds: 30) { router in
            router.add("POST", "/slow") { request in
                usleep(1_500_000)
                return .text(200, "got \(request.body.count)")
            }
        }
        let client = try RawHTTPClient(port: server.port)
        client.sendRequest("POST", "/slow", headers: [], body: Array("hello".utf8), close: false)
        #expect(try client.readResponse().text == "got 5")
        #expect(server.server.abnormalConnectionEndings.values.allSatisfy { $0 == 0 })
    }

    @Test func abortedConnectionsAreSummedUpNotLoggedOneByOne() throws {
        let log = LogCollector()
        let server = try TestServer(perAddressConnectionLimit: 0, errorLog: log.sink) {
            router in
            router.add("GET", "/ok") { _ in .text(200, "ok") }
        }
        for _ in 0..<200 {
            let client = try RawHTTPClient(port: server.port)
            client.write("GET /ok HTTP/1.1\r\nHost: x\r\n")
            // Reset once the server has read the request line, so that a request is under way.
            #expect(Self.eventually(within: .seconds(1)) { server.server.inFlightRequests == 1 })
            client.resetOnClose()
            _ = consume client
            #expect(Self.eventually(within: .seconds(1)) { server.server.inFlightRequests == 0 })
        }
        #expect(Self.eventually(within: .seconds(3)) { server.server.abnormalConnectionEndings[.clientAbort] == 200 })
        // The summary is written once a minute, and at shutdown.
        server.server.shutdown()
        let lines = log.all
        #expect(lines.count <= 2, "\(lines.prefix(5))")
        let summary = try #require(lines.first { $0.hasPrefix("connections ended abnormally") })
        #expect(summary.contains(": 200 (client abort 200)"), "\(summary)")
    }

    @Test func summaryLine() {
        let line = AbnormalEndingLog.summary(
            of: [.headerTimeout: 1990, .clientAbort: 10, .timeout: 0], messagesNotShown: 1999, seconds: 60)
        #expect(
            line
                == "connections ended abnormally in the last 60 s: 2000 (header timeout 1990, client abort 10); "
                + "1999 repeated libmicrohttpd messages not shown")
        #expect(AbnormalEndingLog.summary(of: [:], messagesNotShown: 0, seconds: 60) == nil)
    }

    @Test(
        "limits out of range are refused at start",
        arguments: [
            HTTPServerConfiguration(port: 0, connectionLimit: 10, perAddressConnectionLimit: 11),
            HTTPServerConfiguration(port: 0, connectionLimit: 0),
            HTTPServerConfiguration(port: 0, headerTimeoutSeconds: -1),
            HTTPServerConfiguration(port: 0, abnormalEndingLogIntervalSeconds: 0),
        ])
    func invalidLimits(configuration: HTTPServerConfiguration) {
        let server = HTTPServer(configuration: configuration, responder: Router())
        #expect(throws: HTTPServerError.self) { try server.start() }
    }

    @Test func theConnectionLimitIsFittedToTheOpenFileLimit() throws {
        #expect(FileDescriptorLimit.fit(connections: 100).limit == 100)
        var limits = rlimit()
        try #require(getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limits) == 0)
        guard limits.rlim_max < 1 << 30 else { return }  // an unlimited hard limit always fits
        let tooMany = Int(limits.rlim_max) + 1000
        let fitted = FileDescriptorLimit.fit(connections: tooMany)
        #expect(fitted.limit == Int(limits.rlim_max) - FileDescriptorLimit.reserve)
        #expect(fitted.note?.contains("connection limit lowered from \(tooMany)") == true)
    }
}
