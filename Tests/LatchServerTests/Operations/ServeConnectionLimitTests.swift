import Foundation
import LatchChildProcess
import LatchLocking
import LatchServer
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The connection limits and timeouts of `latchd serve`: flags, config keys, and their effect on
/// a running server.
@Suite("latchd serve connection limits")
struct ServeConnectionLimitTests {
    @Test("serve --help shows the connection flags with their defaults")
    func help() throws {
        let run = try Self.latchd(["serve", "--help"])
        #expect(run.status == 0)
        for expected in [
            "--max-connections N", "default 4096", "--max-connections-per-ip N", "default 64",
            "--header-timeout SECONDS", "default 10", "--idle-timeout SECONDS", "default 30",
        ] {
            #expect(run.output.contains(expected), "\(expected) missing from: \(run.output)")
        }
    }

    @Test(
        "a connection flag with a bad value is a usage error naming it",
        arguments: [
            (["--max-connections", "0"], "'--max-connections'"),
            (["--max-connections-per-ip", "many"], "'--max-connections-per-ip'"),
            (["--header-timeout", "0"], "'--header-timeout'"), (["--idle-timeout=-5"], "'--idle-timeout'"),
            (["--header-timeout", "1.5"], "'--header-timeout'"),
            (["--max-connections", "10", "--max-connections-per-ip", "11"], "'--max-connections-per-ip' (11) must not exceed"),
            (["--max-connections-per-ip", "5000"], "'--max-connections-per-ip' (5000) must not exceed"),
        ])
    func usageErrors(arguments: [String], named: String) throws {
        let run = try Self.latchd(["serve", "--listen", "127.0.0.1:0", "--data-dir", "data"] + arguments)
        #expect(run.status == 2, "\(run.output)")
        #expect(run.output.contains(named), "\(run.output)")
        #expect(!run.output.contains("listening"), "\(run.output)")
    }

    @Test("config keys and LATCH_ variables set the limits; the per-address limit stays within the total")
    func configurationKeys() throws {
        var configuration = LatchServerConfiguration()
        #expect(configuration.maxConnections == 4096)
        #expect(configuration.maxConnectionsPerAddress == 64)
        #expect(configuration.headerTimeoutSeconds == 10)
        #expect(configuration.idleTimeoutSeconds == 30)
        try configuration.apply(
            configFile: nil,
            environment: [
                "LATCH_MAX_CONNECTIONS": "500", "LATCH_MAX_CONNECTIONS_PER_IP": "20", "LATCH_HEADER_TIMEOUT": "4",
                "LATCH_IDLE_TIMEOUT": "90",
            ])
        #expect(configuration.maxConnections == 500)
        #expect(configuration.maxConnectionsPerAddress == 20)
        #expect(configuration.headerTimeoutSeconds == 4)
        #expect(configuration.idleTimeoutSeconds == 90)

        var small = LatchServerConfiguration()
        try small.apply(configFile: nil, environment: ["LATCH_MAX_CONNECTIONS": "16"])
        #expect(small.maxConnectionsPerAddress == 16)

        var contradictory = LatchServerConfiguration()
        #expect(throws: ConfigurationError.self) {
            try contradictory.apply(
                configFile: nil, environment: ["LATCH_MAX_CONNECTIONS": "16", "LATCH_MAX_CONNECTIONS_PER_IP": "17"])
        }
        var zero = LatchServerConfiguration()
        #expect(throws: ConfigurationError.self) { try zero.apply(configFile: nil, environment: ["LATCH_HEADER_TIMEOUT": "0"]) }
    }

    @Test("a running latchd closes a half-sent request at --header-timeout and turns away connections over the per-address limit")
    func runningServer() async throws {
        let directory = LatchdProcess.temporaryDataDirectory()
        defer { LatchdProcess.removeData(directory) }
        let server = try await LatchdProcess.start(
            dataDirectory: directory, arguments: ["--header-timeout", "1", "--max-connections-per-ip", "4"])
        defer { server.forceStop() }

        let halfSent = try LoopbackConnection(port: server.port)
        halfSent.write("POST /healthz HTTP/1.1\r\nHost: x\r\n")
        let closed = try #require(halfSent.waitForClose(timeout: .seconds(4)), "a half-sent head was kept open")
        #expect(closed > .milliseconds(700) && closed < .milliseconds(2500), "closed after \(closed)")

        // Ten idle connections from one address: at most four are kept.
        let idle = try (0..<10).map { _ in try LoopbackConnection(port: server.port) }
        for connection in idle { connection.write("GET /healthz HTTP/1.1\r\n") }
        let turnedAway = idle.filter { $0.waitForClose(timeout: .milliseconds(300)) != nil }.count
        #expect(turnedAway >= 6, "only \(turnedAway) of 10 connections were turned away")
    }

    // MARK: - Helpers

    /// Runs the built `latchd` in an empty temporary directory; its exit status and output (both streams).
    private static func latchd(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("latchd-limits-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: base) }
        let pipe = Pipe()
        let process = try ChildProcess(
            executable: try LatchdProcess.executable().path, arguments: arguments,
            environment: ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("LATCH_") },
            workingDirectory: base.path, standardInput: .null,
            standardOutput: .descriptor(pipe.fileHandleForWriting.fileDescriptor),
            standardError: .descriptor(pipe.fileHandleForWriting.fileDescriptor))
        try pipe.fileHandleForWriting.close()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}

/// A client connection to `127.0.0.1:port` that writes raw bytes and watches for the server closing it.
private final class LoopbackConnection {
    private let descriptor: Int32

    init(port: Int) throws {
        descriptor = try LoopbackSocket.connect(port: port)
    }

    deinit { close(descriptor) }

    func write(_ text: String) {
        _ = Array(text.utf8).withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// How long until the server closed the connection, discarding what it sent; `nil` if still open after `timeout`.
    func waitForClose(timeout: Duration) -> Duration? {
        let start = ContinuousClock.now
        var buffer = [UInt8](repeating: 0, count: 4096)
        while ContinuousClock.now - start < timeout {
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 20) > 0 else { continue }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count == 0 || (count < 0 && errno != EAGAIN && errno != EINTR) { return ContinuousClock.now - start }
        }
        return nil
    }
}
