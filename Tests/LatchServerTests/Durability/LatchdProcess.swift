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

/// The real `latchd serve --dev` binary as a child process, for crash and shutdown tests.
final class LatchdProcess: Sendable {
    let process: ChildProcess
    let dataDirectory: String
    let logPath: String
    let baseURL: String
    let port: Int

    private init(process: ChildProcess, dataDirectory: String, logPath: String, baseURL: String, port: Int) {
        self.process = process
        self.dataDirectory = dataDirectory
        self.logPath = logPath
        self.baseURL = baseURL
        self.port = port
    }

    var pid: pid_t { process.processIdentifier }

    /// A fresh directory path (not created) for a data directory.
    static func temporaryDataDirectory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("latchd-test-\(UUID().uuidString)").path
    }

    /// The `latchd` built next to the test bundle, or under `.build/debug` of the package.
    static func executable() throws -> URL {
        let fileManager = FileManager.default
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        var candidates: [URL] = []
        for _ in 0..<8 {
            candidates.append(directory.appendingPathComponent("latchd"))
            candidates.append(directory.appendingPathComponent(".build/debug/latchd"))
            directory.deleteLastPathComponent()
        }
        candidates.append(URL(fileURLWithPath: fileManager.currentDirectoryPath).appendingPathComponent(".build/debug/latchd"))
        guard let found = candidates.first(where: { fileManager.isExecutableFile(atPath: $0.path) }) else {
            throw LatchdProcessError(
                "latchd not found next to \(CommandLine.arguments[0]); build it with `swift build --build-tests`")
        }
        return found
    }

    /// Starts `latchd serve --dev` on an ephemeral port over `dataDirectory` and waits for `/healthz`.
    /// When the run stores in PostgreSQL (``LatchTestStore``), the directory's database is made on
    /// first start and handed over in `LATCH_DATABASE_URL`.
    /// - Parameters:
    ///   - listen: the address to listen on, `HOST:PORT`.
    ///   - reachAt: the origin to talk to, when the banner's (the public URL) is not where it listens.
    static func start(
        dataDirectory: String, arguments: [String] = [], listen: String = "127.0.0.1:0", reachAt: String? = nil,
        timeout: Duration = .seconds(20)
    ) async throws -> LatchdProcess {
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("LATCH_") }
        if LatchTestStore.usesPostgres, LatchTestStore.location(dataDirectory: dataDirectory) == .sqlite {
            _ = try LatchTestStore.prepare(dataDirectory: dataDirectory)
        }
        if case .postgres(url: let url) = LatchTestStore.location(dataDirectory: dataDirectory) {
            environment["LATCH_DATABASE_URL"] = url
        }
        let logDirectory = dataDirectory + ".logs"
        try FileManager.default.createDirectory(atPath: logDirectory, withIntermediateDirectories: true)
        let logPath = logDirectory + "/latchd-\(UUID().uuidString).log"
        guard FileManager.default.createFile(atPath: logPath, contents: nil) else {
            throw LatchdProcessError("cannot create \(logPath)")
        }
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        let process = try ChildProcess(
            executable: try executable().path,
            arguments: ["serve", "--dev", "--listen", listen, "--data-dir", dataDirectory, "--http-threads", "8"]
                + arguments,
            environment: environment, standardInput: .null,
            standardOutput: .descriptor(log.fileDescriptor), standardError: .descriptor(log.fileDescriptor))
        try? log.close()

        let deadline = ContinuousClock.now + timeout
        var baseURL: String?
        while baseURL == nil {
            let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            let lines = text.split(separator: "\n").map { line -> Substring in
                // Under --log-format json the banner's lines are the `msg` of JSON objects.
                guard line.hasPrefix("{"), let data = String(line).data(using: .utf8),
                    let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                    let message = object["msg"] as? String
                else { return line }
                return Substring(message)
            }
            if let line = lines.first(where: { $0.hasPrefix("latchd listening on ") }) {
                baseURL = String(line.dropFirst("latchd listening on ".count))
                break
            }
            if !process.isRunning {
                throw LatchdProcessError("latchd exited with \(process.terminationStatus) before listening:\n\(text)")
            }
            if ContinuousClock.now > deadline {
                process.kill(SIGKILL)
                throw LatchdProcessError("latchd did not print its banner in time:\n\(text)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        let url = try #require(reachAt ?? baseURL)
        let port = try #require(url.split(separator: ":").last.flatMap { Int($0) })
        let server = LatchdProcess(process: process, dataDirectory: dataDirectory, logPath: logPath, baseURL: url, port: port)
        // URLSession on Linux cannot trust a development CA; the banner follows the bind, so an
        // https server is listening already.
        while !url.hasPrefix("https:") {
            if let health = try? await WireClient(baseURL: url).raw("GET", "/healthz"), health.status == 200 { break }
            if ContinuousClock.now > deadline {
                server.forceStop()
                throw LatchdProcessError("latchd did not become healthy in time")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return server
    }

    /// Sends `signal` to the process.
    func send(_ signal: Int32) {
        process.kill(signal)
    }

    /// Waits for the process to exit; `false` if it still runs after `timeout`.
    func waitForExit(timeout: Duration = .seconds(15)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            if ContinuousClock.now > deadline { return false }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return true
    }

    /// SIGKILL if still running; for cleanup.
    func forceStop() {
        process.kill(SIGKILL)
        process.waitUntilExit()
    }

    /// The process's output so far.
    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Removes the data directory and log, and the directory's PostgreSQL database if it has one.
    static func removeData(_ dataDirectory: String) {
        LatchTestStore.discard(dataDirectory: dataDirectory)
        try? FileManager.default.removeItem(atPath: dataDirectory)
        try? FileManager.default.removeItem(atPath: dataDirectory + ".logs")
    }
}

/// A failure to run `latchd`.
struct LatchdProcessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
