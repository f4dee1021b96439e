import Foundation
import LatchChildProcess
import LatchLocking
import Testing

/// ``ChildProcess``: children started with `posix_spawn` get exactly the arguments, environment,
/// working directory and standard streams given, and no other descriptor of the test process.
@Suite("ChildProcess")
struct ChildProcessTests {
    /// Runs `executable arguments` with standard output (and error) on a pipe; what it printed and how it ended.
    private static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:],
        workingDirectory: String? = nil, input: String? = nil
    ) throws -> (output: String, child: ChildProcess) {
        let output = Pipe()
        let stdin = Pipe()
        let child = try ChildProcess(
            executable: executable, arguments: arguments, environment: environment, workingDirectory: workingDirectory,
            standardInput: input == nil ? .null : .descriptor(stdin.fileHandleForReading.fileDescriptor),
            standardOutput: .descriptor(output.fileHandleForWriting.fileDescriptor),
            standardError: .descriptor(output.fileHandleForWriting.fileDescriptor))
        try output.fileHandleForWriting.close()
        try stdin.fileHandleForReading.close()
        if let input { try stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8)) }
        try stdin.fileHandleForWriting.close()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        return (printed, child)
    }

    @Test("an exit status is reported as Foundation's Process reports it")
    func exitStatus() throws {
        let (_, child) = try Self.run("/bin/sh", ["-c", "exit 7"])
        #expect(!child.isRunning)
        #expect(child.terminationReason == .exit)
        #expect(child.terminationStatus == 7)
        let (_, success) = try Self.run("/bin/sh", ["-c", "true"])
        #expect(success.terminationReason == .exit && success.terminationStatus == 0)
    }

    @Test("a child ended by a signal reports the signal's number; terminate() sends SIGTERM")
    func signalled() throws {
        let (_, killed) = try Self.run("/bin/sh", ["-c", "kill -KILL $$"])
        #expect(killed.terminationReason == .uncaughtSignal)
        #expect(killed.terminationStatus == SIGKILL)

        let sleeper = try ChildProcess(executable: "/bin/sleep", arguments: ["30"], environment: [:])
        #expect(sleeper.isRunning)
        #expect(sleeper.terminationReason == nil)
        sleeper.terminate()
        sleeper.waitUntilExit()
        #expect(sleeper.terminationReason == .uncaughtSignal)
        #expect(sleeper.terminationStatus == SIGTERM)
        sleeper.kill(SIGKILL)  // reaped already: nothing is sent
    }

    @Test("standard output on a pipe reaches end-of-file when the child exits; standard input comes from a pipe")
    func pipes() throws {
        let (hello, _) = try Self.run("/bin/echo", ["hello", "world"])
        #expect(hello == "hello world\n")
        let (echoed, cat) = try Self.run("/bin/cat", [], input: "line one\nline two\n")
        #expect(echoed == "line one\nline two\n")
        #expect(cat.terminationStatus == 0)
        let (empty, _) = try Self.run("/bin/cat", [])
        #expect(empty == "", "standard input defaults to /dev/null")
    }

    @Test("the child starts in the working directory given")
    func workingDirectory() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("child-cwd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (printed, _) = try Self.run("/bin/pwd", ["-P"], workingDirectory: directory.path)
        #expect(printed == directory.resolvingSymlinksInPath().path + "\n")
    }

    @Test("the environment is exactly the one given")
    func environment() throws {
        let (printed, _) = try Self.run("/usr/bin/env", [], environment: ["A": "1", "SPACED": "two words", "EMPTY": ""])
        #expect(printed.split(separator: "\n").sorted() == ["A=1", "EMPTY=", "SPACED=two words"])
        let (nothing, _) = try Self.run("/usr/bin/env", [])
        #expect(nothing == "")
    }

    @Test(
        "no descriptor of the parent other than the standard streams reaches the child",
        .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/fd")))
    func descriptorsNotInherited() throws {
        // Open descriptors without close-on-exec in the parent: a child must not see them.
        let held = [Pipe(), Pipe()]
        for pipe in held {
            #expect(fcntl(pipe.fileHandleForReading.fileDescriptor, F_GETFD) & FD_CLOEXEC == 0)
        }
        let (listed, child) = try withExtendedLifetime(held) { try Self.run("/bin/ls", ["/proc/self/fd"]) }
        #expect(child.terminationStatus == 0)
        // 0, 1 and 2, and the directory `ls` opened to list itself.
        let descriptors = listed.split(separator: "\n").compactMap { Int32($0) }
        #expect(descriptors.count == 4, "\(listed)")
        #expect(Array(descriptors.prefix(3)) == [0, 1, 2], "\(listed)")
    }

    @Test("200 children started from 8 threads at once all run and report")
    func concurrentSpawns() throws {
        let failures = Locked<[String]>([])
        Background.concurrentPerform(iterations: 200, threads: 8) { index in
            do {
                let (printed, child) = try Self.run("/bin/echo", ["child \(index)"])
                if printed != "child \(index)\n" || child.terminationStatus != 0 {
                    failures.withLock { $0.append("\(index): \(printed) \(child.terminationStatus)") }
                }
            } catch {
                failures.withLock { $0.append("\(index): \(error)") }
            }
        }
        #expect(failures.load() == [])
    }

    @Test("the termination handler is called once, after the outcome is set")
    func terminationHandler() async throws {
        let calls = Locked(0)
        let (exited, continuation) = AsyncStream.makeStream(of: Int32.self)
        let child = try ChildProcess(executable: "/bin/sh", arguments: ["-c", "exit 3"], environment: [:]) { child in
            calls.add(1)
            continuation.yield(child.terminationStatus)
            continuation.finish()
        }
        var statuses: [Int32] = []
        for await status in exited { statuses.append(status) }
        child.waitUntilExit()
        #expect(statuses == [3])
        #expect(calls.load() == 1)
    }

    @Test("a missing executable or working directory throws an error naming the executable and errno")
    func spawnFailures() throws {
        #expect {
            try ChildProcess(executable: "/nonexistent/program", arguments: [], environment: [:])
        } throws: { error in
            guard let failure = error as? ChildProcess.SpawnError else { return false }
            return failure.code == ENOENT && failure.executable == "/nonexistent/program"
                && "\(failure)".contains("/nonexistent/program") && "\(failure)".contains("errno \(ENOENT)")
        }
        #expect {
            try ChildProcess(executable: "/bin/true", arguments: [], environment: [:], workingDirectory: "/nonexistent/dir")
        } throws: { ($0 as? ChildProcess.SpawnError)?.code == ENOENT }
    }
}
