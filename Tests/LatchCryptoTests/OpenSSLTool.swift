import Foundation
import LatchChildProcess
import LatchLocking

/// Runs the `openssl` command in a scratch directory, to check certificates with a tool nobody
/// here wrote.
final class OpenSSLTool {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("latch-x509-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl")
    }

    /// Writes `text` to `name` in the scratch directory.
    func write(_ text: String, to name: String) throws {
        try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    /// Runs `openssl arguments` in the scratch directory; returns its exit status and its
    /// standard output and error, merged.
    func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let log = directory.appendingPathComponent("openssl-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        defer { try? handle.close() }
        let child = try ChildProcess(
            executable: "/usr/bin/openssl", arguments: arguments, environment: ProcessInfo.processInfo.environment,
            workingDirectory: directory.path, standardInput: .null, standardOutput: .descriptor(handle.fileDescriptor),
            standardError: .descriptor(handle.fileDescriptor))
        child.waitUntilExit()
        return (child.terminationStatus, try String(contentsOf: log, encoding: .utf8))
    }
}
