import Foundation
import LatchChildProcess
import LatchLocking

/// Runs a program nobody here wrote (python3, curl, openssl) against a test server, the way real
/// clients talk to it.
enum ExternalTool {
    /// How a run ended.
    struct Outcome: Sendable {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Whether `name` is an executable on `PATH`.
    static func isAvailable(_ name: String) -> Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") }
    }

    /// Runs `name arguments` (looked up on `PATH`) with `input` on standard input, killing it after
    /// `timeout` seconds, and collects its output.
    static func run(
        _ name: String, _ arguments: [String], input: String = "", environment: [String: String] = [:],
        timeout: Double = 60
    ) async throws -> Outcome {
        let (standardInput, standardOutput, standardError) = (Pipe(), Pipe(), Pipe())
        let (exited, continuation) = AsyncStream.makeStream(of: Int32.self)
        let collected = Locked<(Data, Data)>((Data(), Data()))
        let process = try ChildProcess(
            executable: "/usr/bin/env", arguments: [name] + arguments,
            environment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
            standardInput: .descriptor(standardInput.fileHandleForReading.fileDescriptor),
            standardOutput: .descriptor(standardOutput.fileHandleForWriting.fileDescriptor),
            standardError: .descriptor(standardError.fileHandleForWriting.fileDescriptor)
        ) { finished in
            continuation.yield(finished.terminationStatus)
            continuation.finish()
        }
        try standardInput.fileHandleForReading.close()
        try standardOutput.fileHandleForWriting.close()
        try standardError.fileHandleForWriting.close()
        let readers = [
            Background.run {
                let data = standardOutput.fileHandleForReading.readDataToEndOfFile()
                collected.withLock { $0.0 = data }
            },
            Background.run {
                let data = standardError.fileHandleForReading.readDataToEndOfFile()
                collected.withLock { $0.1 = data }
            },
        ]
        signal(SIGPIPE, SIG_IGN)  // a child that exits early must not take the test process with it
        if !input.isEmpty { try? standardInput.fileHandleForWriting.write(contentsOf: Data(input.utf8)) }
        try standardInput.fileHandleForWriting.close()
        let watchdog = Task {
            try await Task.sleep(for: .milliseconds(Int(timeout * 1000)))
            if process.isRunning { process.terminate() }
        }
        defer { watchdog.cancel() }
        var status: Int32 = -1
        for await value in exited { status = value }
        for reader in readers { reader.wait() }
        let (stdout, stderr) = collected.withLock { $0 }
        return Outcome(
            status: status, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
    }
}
