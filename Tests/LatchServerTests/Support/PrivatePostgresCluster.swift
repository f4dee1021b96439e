import Foundation
import LatchChildProcess

#if canImport(Glibc)
    import Glibc
#endif

/// A PostgreSQL server of one test's own, which the test may stop and start again (the suite's
/// shared cluster must keep serving the others): `initdb` in a temporary directory, loopback only,
/// a free port, trust authentication. Its binaries are the shared cluster's
/// (`LATCH_TEST_POSTGRES_BIN`, set by `scripts/with-postgres.sh`).
final class PrivatePostgresCluster: Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let directory: String
    let port: Int
    private let bin: String

    /// The URL of its `postgres` database.
    var url: String { "postgres://latch@127.0.0.1:\(port)/postgres" }

    /// Whether a private cluster can be made in this run.
    static var available: Bool { ProcessInfo.processInfo.environment["LATCH_TEST_POSTGRES_BIN"] != nil }

    /// Makes and starts a cluster.
    init() throws {
        guard let bin = ProcessInfo.processInfo.environment["LATCH_TEST_POSTGRES_BIN"] else {
            throw Failure(description: "LATCH_TEST_POSTGRES_BIN is not set: run the suite through scripts/with-postgres.sh")
        }
        self.bin = bin
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("latch-pg-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        port = try Self.freePort()
        if getuid() == 0 { try Self.command("/bin/chown", ["postgres", directory]) }
        try run("initdb", ["-D", directory + "/data", "-U", "latch", "-A", "trust", "--encoding=UTF8", "--locale=C.UTF-8"])
        try start()
    }

    deinit {
        _ = try? run("pg_ctl", ["-D", directory + "/data", "-m", "immediate", "stop"])
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Starts the server (again) on its port.
    func start() throws {
        try run(
            "pg_ctl",
            [
                "-D", directory + "/data", "-l", directory + "/server.log", "-w", "-t", "60", "-o",
                "-c listen_addresses=127.0.0.1 -p \(port) -k \(directory) -c fsync=off", "start",
            ])
    }

    /// Stops the server: `fast` ends every session at once (what a restart or failover does to
    /// clients); `immediate` is a crash.
    func stop(mode: String = "fast") throws {
        try run("pg_ctl", ["-D", directory + "/data", "-m", mode, "-w", "stop"])
    }

    private func run(_ tool: String, _ arguments: [String]) throws {
        if getuid() == 0 {
            try Self.command("/usr/sbin/runuser", ["-u", "postgres", "--", bin + "/" + tool] + arguments)
        } else {
            try Self.command(bin + "/" + tool, arguments)
        }
    }

    private static func command(_ executable: String, _ arguments: [String]) throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("latch-pg-cmd-\(UUID().uuidString)").path
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: output) }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        let process = try ChildProcess(
            executable: executable, arguments: arguments, environment: ["PATH": "/usr/bin:/bin"],
            workingDirectory: "/tmp", standardOutput: .descriptor(handle.fileDescriptor),
            standardError: .descriptor(handle.fileDescriptor))
        process.waitUntilExit()
        try? handle.close()
        guard process.terminationStatus == 0 else {
            let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            throw Failure(description: "\(executable) \(arguments.joined(separator: " ")) failed: \(text)")
        }
    }

    /// A loopback TCP port nobody listens on now.
    static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(descriptor, socketAddress, length) == 0 && getsockname(descriptor, socketAddress, &length) == 0
            }
        }
        guard bound else { throw Failure(description: "no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
