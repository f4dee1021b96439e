import Foundation
import LatchChildProcess
import LatchLocking
import LatchServer
import LatchTesting
import Testing

/// End-to-end tests of the built `latch` executable against a real server: every run is a child
/// process driven non-interactively through pipes, with a temporary `XDG_DATA_HOME`.
@Suite("latch command line")
struct CLITests {
    static let password = "Correct-Horse-Battery-42"

    // MARK: - Tests

    @Test("signup, signin, token, whoami, accounts, signout; then token exits 5")
    func fullSession() async throws {
        let server = try LatchTestServer.start()
        defer { server.stop() }
        let home = try CLIHome()
        defer { home.remove() }
        let email = "ada-\(UUID().uuidString.prefix(8).lowercased())@example.com"

        // Sign-up: the code is only known after the challenge, so it is written once the outbox has it.
        let signup = try CLIProcess.start(home: home, ["--server", server.baseURL, "signup"])
        signup.write("\(email)\n\(Self.password)\n")
        let code = try await Self.waitForCode(server, to: email)
        signup.write("\(code)\n")
        let signedUp = try await signup.finish()
        #expect(signedUp.status == 0, "\(signedUp.stderr)")
        #expect(signedUp.stdout.contains("Signed in as \(email)"))

        let signin = try await CLIProcess.run(
            home: home, ["--server", server.baseURL, "--json", "signin", "--email", email, "--password-stdin"],
            input: "\(Self.password)\n")
        #expect(signin.status == 0, "\(signin.stderr)")
        let signedIn = try signin.json()
        #expect(signedIn["status"] as? String == "signed_in")
        #expect((signedIn["account"] as? [String: Any])?["username"] as? String == email)
        #expect(signedIn["expires_on"] is Int)

        let token = try await CLIProcess.run(home: home, ["--server", server.baseURL, "token"])
        #expect(token.status == 0, "\(token.stderr)")
        let accessToken = token.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(accessToken.split(separator: ".", omittingEmptySubsequences: false).count == 3)

        let tokenJSON = try await CLIProcess.run(home: home, ["--server", server.baseURL, "--json", "token", "--force-refresh"])
        #expect(tokenJSON.status == 0, "\(tokenJSON.stderr)")
        let refreshed = try tokenJSON.json()
        #expect((refreshed["access_token"] as? String)?.isEmpty == false)
        #expect(refreshed["expires_on"] is Int)

        let whoami = try await CLIProcess.run(home: home, ["--server", server.baseURL, "whoami"])
        #expect(whoami.status == 0, "\(whoami.stderr)")
        #expect(whoami.stdout.contains("email: \(email)"))
        let whoamiJSON = try await CLIProcess.run(home: home, ["--server", server.baseURL, "--json", "whoami"])
        let claims = try #require(try whoamiJSON.json()["claims"] as? [String: Any])
        #expect(claims["email"] as? String == email)

        let accounts = try await CLIProcess.run(home: home, ["--server", server.baseURL, "--json", "accounts"])
        #expect(accounts.status == 0, "\(accounts.stderr)")
        let listed = try #require(try accounts.json()["accounts"] as? [[String: Any]])
        #expect(listed.count == 1)
        #expect(listed.first?["username"] as? String == email)
        #expect(listed.first?["session_state"] as? String == "signed_in")

        let signout = try await CLIProcess.run(home: home, ["--server", server.baseURL, "signout", "--account", email])
        #expect(signout.status == 0, "\(signout.stderr)")

        let after = try await CLIProcess.run(home: home, ["--server", server.baseURL, "token"])
        #expect(after.status == 5, "\(after.stdout) \(after.stderr)")
        #expect(after.stderr.contains("latch signin"))
    }

    @Test("signout --global revokes the session on the server: a copy of the cache can no longer refresh")
    func globalSignOut() async throws {
        let server = try LatchTestServer.start()
        defer { server.stop() }
        let home = try CLIHome()
        defer { home.remove() }
        let email = "ada-\(UUID().uuidString.prefix(8).lowercased())@example.com"
        try server.createUser(email: email, password: Self.password)
        let signin = try await CLIProcess.run(
            home: home, ["--server", server.baseURL, "signin", "--email", email, "--password-stdin"],
            input: "\(Self.password)\n")
        #expect(signin.status == 0, "\(signin.stderr)")
        let cache = home.path + "/data/latch/credentials.json"
        let copy = home.path + "/copy.json"
        try FileManager.default.copyItem(atPath: cache, toPath: copy)

        let signout = try await CLIProcess.run(home: home, ["--server", server.baseURL, "--json", "signout", "--global"])
        #expect(signout.status == 0, "\(signout.stderr)")
        let result = try signout.json()
        #expect(result["status"] as? String == "signed_out")
        #expect(result["revoked_on_server"] as? Bool == true)

        let refused = try await CLIProcess.run(
            home: home, ["--server", server.baseURL, "--cache", copy, "token", "--force-refresh"])
        #expect(refused.status == 5, "\(refused.stdout) \(refused.stderr)")
    }

    @Test("reset-password reads email, code and new password, then signs in")
    func resetPassword() async throws {
        let server = try LatchTestServer.start()
        defer { server.stop() }
        let home = try CLIHome()
        defer { home.remove() }
        let email = "grace@example.com"
        try server.createUser(email: email, password: Self.password)

        let reset = try CLIProcess.start(home: home, ["--server", server.baseURL, "--json", "reset-password"])
        reset.write("\(email)\n")
        let code = try await Self.waitForCode(server, to: email)
        reset.write("\(code)\nAnother-Long-Passphrase-7\n")
        let result = try await reset.finish()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try result.json()["flow"] as? String == "reset_password")

        let old = try await CLIProcess.run(
            home: home, ["--server", server.baseURL, "signin", "--email", email], input: "\(Self.password)\n")
        #expect(old.status == 3, "\(old.stderr)")
    }

    @Test("a wrong password exits 3 with the recovery hint; --json prints the error object")
    func wrongPassword() async throws {
        let server = try LatchTestServer.start()
        defer { server.stop() }
        let home = try CLIHome()
        defer { home.remove() }
        let email = "alan@example.com"
        try server.createUser(email: email, password: Self.password)

        let human = try await CLIProcess.run(
            home: home, ["--server", server.baseURL, "signin"], input: "\(email)\nnot-the-password\n")
        #expect(human.status == 3)
        #expect(human.stderr.contains("wrong username or password (ERROR_WRONG_PASSWORD)"), "\(human.stderr)")
        #expect(human.stderr.contains("Check the password, or run 'latch reset-password'."), "\(human.stderr)")

        let json = try await CLIProcess.run(
            home: home, ["--server", server.baseURL, "--json", "signin", "--email", email], input: "not-the-password\n")
        #expect(json.status == 3)
        let error = try #require(try json.json()["error"] as? [String: Any])
        #expect(error["code"] as? Int == 17009)
        #expect(error["name"] as? String == "ERROR_WRONG_PASSWORD")
        #expect(error["recovery"] as? String == "correct_input")

        let unknown = try await CLIProcess.run(
            home: home, ["--server", server.baseURL, "signin", "--email", "nobody@example.com"], input: "whatever-password\n")
        #expect(unknown.status == 4, "\(unknown.stderr)")
    }

    @Test("an unreachable server exits 6")
    func serverDown() async throws {
        let home = try CLIHome()
        defer { home.remove() }
        let result = try await CLIProcess.run(
            home: home, ["--server", "http://127.0.0.1:1", "--json", "signin", "--email", "ada@example.com"],
            input: "\(Self.password)\n")
        #expect(result.status == 6, "\(result.stderr)")
        let error = try #require(try result.json()["error"] as? [String: Any])
        #expect(error["name"] as? String == "ERROR_NETWORK_REQUEST_FAILED")
        #expect(error["recovery"] as? String == "retry")
    }

    @Test("usage errors exit 2; missing input exits 3")
    func usageAndMissingInput() async throws {
        let home = try CLIHome()
        defer { home.remove() }
        #expect(try await CLIProcess.run(home: home, ["frobnicate"]).status == 2)
        #expect(try await CLIProcess.run(home: home, ["whoami", "--force-refresh"]).status == 2)
        let help = try await CLIProcess.run(home: home, ["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("EXIT STATUS"))
        let empty = try await CLIProcess.run(home: home, ["--server", "http://127.0.0.1:1", "signin"], input: "")
        #expect(empty.status == 3, "\(empty.stderr)")
    }

    // MARK: - Helpers

    /// Polls the outbox until more than `earlier` messages went to `recipient`, and returns the
    /// newest one's code (pass the number of codes already sent to wait for the next one).
    /// The default timeout leaves room for a child process starting on a loaded 2-core machine.
    static func waitForCode(
        _ server: LatchTestServer, to recipient: String, after earlier: Int = 0, timeout: TimeInterval = 60
    ) async throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let messages = try server.outbox(to: recipient)
            if messages.count > earlier, let code = messages.first?.code { return code }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        throw CLITestFailure("no code \(earlier + 1) for \(recipient) within \(timeout) s")
    }
}

/// A test failure outside an expectation.
struct CLITestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A temporary home for one test: `HOME`, `XDG_DATA_HOME` and `XDG_CONFIG_HOME` point inside it.
struct CLIHome {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("latch-cli-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// The child environment: the test's, without `LATCH_*` and `XDG_*`, plus the temporary directories.
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("LATCH_") && !$0.key.hasPrefix("XDG_") }
        environment["HOME"] = path
        environment["XDG_DATA_HOME"] = path + "/data"
        environment["XDG_CONFIG_HOME"] = path + "/config"
        return environment
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// One run of the built `latch` binary with piped standard input, output and error.
final class CLIProcess: Sendable {
    /// The outcome of a finished run.
    struct Outcome {
        let status: Int32
        let stdout: String
        let stderr: String

        /// Standard output parsed as one JSON object.
        func json() throws -> [String: Any] {
            let line = stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw CLITestFailure("not a JSON object: \(stdout)")
            }
            return object
        }
    }

    private let process: ChildProcess
    private let input: Pipe
    private let output: Pipe
    private let errors: Pipe
    private let exited: AsyncStream<Int32>
    /// Standard error read by ``readStandardError(until:timeout:)`` before the run finished.
    private let earlyErrors = Locked(Data())
    /// Standard output read by ``readStandardOutput(until:timeout:)`` before the run finished.
    private let earlyOutput = Locked(Data())

    private init(process: ChildProcess, input: Pipe, output: Pipe, errors: Pipe, exited: AsyncStream<Int32>) {
        self.process = process
        self.input = input
        self.output = output
        self.errors = errors
        self.exited = exited
    }

    /// The `latch` executable: next to the test bundle, or in a `debug` directory above it.
    static func executable() throws -> URL {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        while directory.path != "/" {
            for candidate in [directory.appendingPathComponent("latch"), directory.appendingPathComponent("debug/latch")]
            where FileManager.default.isExecutableFile(atPath: candidate.path) {
                return candidate
            }
            directory.deleteLastPathComponent()
        }
        throw CLITestFailure("the latch executable is not built next to \(CommandLine.arguments[0])")
    }

    /// Starts `latch arguments` in `home`, with `environment` added to the home's.
    /// With `terminal`, `latch` runs under `script(1)` on a pseudo-terminal (standard input is then
    /// a terminal), and its standard output and error both arrive on the run's standard output.
    static func start(
        home: CLIHome, _ arguments: [String], environment: [String: String] = [:], terminal: Bool = false
    ) throws -> CLIProcess {
        let (input, output, errors) = (Pipe(), Pipe(), Pipe())
        let (exited, continuation) = AsyncStream.makeStream(of: Int32.self)
        var program = try executable().path
        var arguments = arguments
        if terminal {
            let quoted = ([program] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
            arguments = ["-qefc", quoted.joined(separator: " "), "/dev/null"]
            program = "/usr/bin/script"
        }
        let process = try ChildProcess(
            executable: program, arguments: arguments, environment: home.environment.merging(environment) { $1 },
            standardInput: .descriptor(input.fileHandleForReading.fileDescriptor),
            standardOutput: .descriptor(output.fileHandleForWriting.fileDescriptor),
            standardError: .descriptor(errors.fileHandleForWriting.fileDescriptor)
        ) { finished in
            continuation.yield(finished.terminationStatus)
            continuation.finish()
        }
        try input.fileHandleForReading.close()
        try output.fileHandleForWriting.close()
        try errors.fileHandleForWriting.close()
        return CLIProcess(process: process, input: input, output: output, errors: errors, exited: exited)
    }

    /// Runs `latch arguments` with `input` on standard input (and `environment` added to the
    /// home's) and waits for it.
    static func run(
        home: CLIHome, _ arguments: [String], input: String = "", environment: [String: String] = [:]
    ) async throws -> Outcome {
        let running = try start(home: home, arguments, environment: environment)
        running.write(input)
        return try await running.finish()
    }

    /// Writes `text` to the child's standard input.
    func write(_ text: String) {
        guard !text.isEmpty else { return }
        // A child that already exited (e.g. after --help) closed its end: that is not a test failure,
        // and must not raise SIGPIPE in the test process.
        signal(SIGPIPE, SIG_IGN)
        try? input.fileHandleForWriting.write(contentsOf: Data(text.utf8))
    }

    /// Reads standard error while the child runs, until what was read contains `marker` (e.g. the
    /// device code line), and returns it; ``finish(timeout:)`` still reports all of it.
    func readStandardError(until marker: String, timeout: TimeInterval = 60) async throws -> String {
        try await read(errors.fileHandleForReading, into: earlyErrors, until: marker, timeout: timeout)
    }

    /// ``readStandardError(until:timeout:)`` for standard output (a run on a terminal).
    func readStandardOutput(until marker: String, timeout: TimeInterval = 60) async throws -> String {
        try await read(output.fileHandleForReading, into: earlyOutput, until: marker, timeout: timeout)
    }

    private func read(_ handle: FileHandle, into early: Locked<Data>, until marker: String, timeout: TimeInterval)
        async throws -> String
    {
        return try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                let deadline = Date().addingTimeInterval(timeout)
                while Date() < deadline {
                    let chunk = handle.availableData
                    let text = early.withLock { data -> String in
                        data.append(chunk)
                        return String(decoding: data, as: UTF8.self)
                    }
                    if text.contains(marker) { return continuation.resume(returning: text) }
                    if chunk.isEmpty {
                        return continuation.resume(throwing: CLITestFailure("the output ended without '\(marker)': \(text)"))
                    }
                }
                continuation.resume(throwing: CLITestFailure("no '\(marker)' in the output within \(timeout) s"))
            }
        }
    }

    /// Closes standard input, waits for the exit (killing the child after `timeout`), and collects the output.
    func finish(timeout: TimeInterval = 60) async throws -> Outcome {
        try input.fileHandleForWriting.close()
        let process = self.process
        let watchdog = Task {
            try await Task.sleep(nanoseconds: UInt64(timeout * 1_000_000_000))
            if process.isRunning { process.terminate() }
        }
        defer { watchdog.cancel() }
        var status: Int32 = -1
        for await value in exited { status = value }
        let stdout = String(
            decoding: earlyOutput.withLock { $0 } + output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(
            decoding: earlyErrors.withLock { $0 } + errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return Outcome(status: status, stdout: stdout, stderr: stderr)
    }
}
