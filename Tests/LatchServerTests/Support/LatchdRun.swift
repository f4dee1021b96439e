import Foundation
import LatchChildProcess
import LatchLocking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One finished run of the built `latchd` in a fresh, empty working directory (removed afterwards),
/// with standard input empty and the output kept outside that directory. The caller's `LATCH_*`
/// variables are dropped; `environment` adds its own.
struct LatchdRun {
    let status: Int32
    let stdout: String
    let stderr: String
    /// What the run left in its working directory.
    let created: [String]

    init(_ arguments: [String], environment: [String: String] = [:], timeout: Duration = .seconds(15)) throws {
        let fileManager = FileManager.default
        let base = fileManager.temporaryDirectory.appendingPathComponent("latchd-cli-\(UUID().uuidString)")
        let directory = base.appendingPathComponent("cwd")
        try fileManager.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? fileManager.removeItem(at: base) }
        let outputURL = base.appendingPathComponent("stdout")
        let errorURL = base.appendingPathComponent("stderr")
        guard fileManager.createFile(atPath: outputURL.path, contents: nil),
            fileManager.createFile(atPath: errorURL.path, contents: nil)
        else { throw LatchdProcessError("cannot create the output files in \(base.path)") }
        let output = try FileHandle(forWritingTo: outputURL)
        let errors = try FileHandle(forWritingTo: errorURL)

        let process = try ChildProcess(
            executable: try LatchdProcess.executable().path, arguments: arguments,
            environment: ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("LATCH_") }
                .merging(environment) { _, given in given },
            workingDirectory: directory.path, standardInput: .null, standardOutput: .descriptor(output.fileDescriptor),
            standardError: .descriptor(errors.fileDescriptor))
        try? output.close()
        try? errors.close()
        let deadline = ContinuousClock.now + timeout
        while process.isRunning, ContinuousClock.now < deadline { usleep(5_000) }
        process.kill(SIGKILL)
        process.waitUntilExit()

        status = process.terminationStatus
        stdout = (try? String(contentsOf: outputURL, encoding: .utf8)) ?? ""
        stderr = (try? String(contentsOf: errorURL, encoding: .utf8)) ?? ""
        created = (try? fileManager.contentsOfDirectory(atPath: directory.path)) ?? []
    }
}
