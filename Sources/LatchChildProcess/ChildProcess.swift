internal import LatchLocking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A child process started with `posix_spawn`, for the package's tests and tools, in place of
/// Foundation's `Process`, whose `run()` on Linux reads past the end of a directory entry's name
/// while listing `/proc/self/fd` and so crashes now and then.
///
/// The child gets exactly the arguments, environment and standard streams the caller gives, and no
/// other descriptor of the parent: every descriptor above 2 is closed in the child, so a pipe a
/// test reads reaches end-of-file when that test's child exits, whatever other children run. Its
/// signal mask is empty and every signal has its default action (a parent ignoring SIGPIPE does
/// not pass that on). A dedicated thread waits for the child (a blocking `waitpid`), records how
/// it ended, then calls the termination handler once.
///
/// ```swift
/// let output = Pipe()
/// let child = try ChildProcess(
///     executable: "/bin/echo", arguments: ["hello"], environment: [:],
///     standardOutput: .descriptor(output.fileHandleForWriting.fileDescriptor))
/// try output.fileHandleForWriting.close()  // the child holds its own copy
/// let printed = output.fileHandleForReading.readDataToEndOfFile()
/// child.waitUntilExit()
/// ```
///
/// Starting children is supported on Linux and macOS; elsewhere the initializer throws.
package final class ChildProcess: Sendable {
    /// Where one of the child's standard streams goes.
    package enum Stream: Sendable, Equatable {
        /// `/dev/null`, opened in the child.
        case null
        /// A descriptor of the parent, duplicated onto the stream in the child (`dup2`). The parent
        /// keeps its own copy and closes it when it no longer needs it (for a pipe's end the child
        /// writes, right after the spawn, so that the pipe reaches end-of-file when the child exits).
        case descriptor(Int32)
    }

    /// How the child ended, as Foundation's `Process.TerminationReason` tells it.
    package enum TerminationReason: Sendable, Equatable {
        /// It exited; ``ChildProcess/terminationStatus`` is its exit status.
        case exit
        /// A signal ended it; ``ChildProcess/terminationStatus`` is the signal's number.
        case uncaughtSignal
    }

    /// A child that could not be started.
    package struct SpawnError: Error, CustomStringConvertible {
        /// The executable's path.
        package let executable: String
        /// The `errno` value of the failed call.
        package let code: Int32
        /// The call that failed.
        package let operation: String

        /// "cannot start EXECUTABLE: OPERATION failed: REASON (errno N)".
        package var description: String {
            "cannot start \(executable): \(operation) failed: \(String(cString: strerror(code))) (errno \(code))"
        }
    }

    /// The child's process ID.
    package let processIdentifier: Int32
    private let state: Locked<State>
    private let exited = ExitGate()

    private struct State {
        var reason: TerminationReason?
        var status: Int32 = -1
        var terminationHandler: (@Sendable (ChildProcess) -> Void)?
    }

    /// Starts `executable` (a path; no `PATH` lookup) with `arguments` (not including the program
    /// name: the child's `argv[0]` is `executable`) and exactly `environment`.
    /// - Parameters:
    ///   - workingDirectory: the child's working directory; the parent's when `nil`.
    ///   - standardInput: the child's standard input; `/dev/null` unless given.
    ///   - standardOutput: the child's standard output; `/dev/null` unless given.
    ///   - standardError: the child's standard error; `/dev/null` unless given.
    ///   - terminationHandler: called once, on the thread that reaped the child, after
    ///     ``terminationStatus`` and ``terminationReason`` are set.
    /// - Throws: ``SpawnError`` naming the executable and the `errno` when the child cannot start
    ///   (a missing or non-executable file, a missing working directory, no resources).
    package init(
        executable: String, arguments: [String], environment: [String: String], workingDirectory: String? = nil,
        standardInput: Stream = .null, standardOutput: Stream = .null, standardError: Stream = .null,
        terminationHandler: (@Sendable (ChildProcess) -> Void)? = nil
    ) throws {
        processIdentifier = try Self.spawn(
            executable: executable, arguments: arguments, environment: environment, workingDirectory: workingDirectory,
            streams: [standardInput, standardOutput, standardError])
        state = Locked(State(terminationHandler: terminationHandler))
        let code = Self.startReaper(for: self)
        if code != 0 {
            // Without a reaper nobody would ever collect the child: stop it and collect it here.
            state.withLock { $0.terminationHandler = nil }
            _ = sendSignal(SIGKILL, to: processIdentifier)
            reap()
            throw SpawnError(executable: executable, code: code, operation: "pthread_create")
        }
    }

    /// Whether the child has not been reaped yet.
    package var isRunning: Bool { state.withLock { $0.reason == nil } }

    /// How the child ended; `nil` while it runs.
    package var terminationReason: TerminationReason? { state.withLock { $0.reason } }

    /// The exit status, or the number of the signal that ended the child (see
    /// ``terminationReason``); -1 while it runs.
    package var terminationStatus: Int32 { state.withLock { $0.status } }

    /// Blocks the calling thread until the child has exited and been reaped.
    package func waitUntilExit() { exited.wait() }

    /// Sends SIGTERM, unless the child has been reaped already.
    package func terminate() { kill(SIGTERM) }

    /// Sends `signal`, unless the child has been reaped already. The child stays a zombie until the
    /// reaper holds this process's lock, so the signal never reaches a process that reused the ID.
    package func kill(_ signal: Int32) {
        state.withLock { state in
            if state.reason == nil { _ = sendSignal(signal, to: processIdentifier) }
        }
    }

    // MARK: - Reaping

    /// Waits (without reaping) until the child exits, then reaps it and records the outcome under
    /// the lock, opens the gate and calls the handler.
    private func reap() {
        var info = siginfo_t()
        while waitid(P_PID, id_t(processIdentifier), &info, WEXITED | WNOWAIT) != 0, errno == EINTR {}
        let handler = state.withLock { state in
            var raw: Int32 = 0
            var result: pid_t
            repeat { result = waitpid(processIdentifier, &raw, 0) } while result < 0 && errno == EINTR
            let signal = raw & 0x7f
            if result != processIdentifier {
                (state.reason, state.status) = (.exit, -1)  // not ours to reap (SIGCHLD ignored?)
            } else if signal == 0 {
                (state.reason, state.status) = (.exit, (raw >> 8) & 0xff)
            } else {
                (state.reason, state.status) = (.uncaughtSignal, signal)
            }
            defer { state.terminationHandler = nil }
            return state.terminationHandler
        }
        exited.open()
        handler?(self)
    }

    /// Starts a detached thread that reaps `child`, holding a reference to it until then.
    /// - Returns: 0, or the error number of `pthread_create`.
    private static func startReaper(for child: ChildProcess) -> Int32 {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let context = Unmanaged.passRetained(child).toOpaque()
        #if canImport(Darwin)
            var thread: pthread_t?
        #else
            var thread = pthread_t()
        #endif
        let code = pthread_create(
            &thread, &attributes,
            { context in
                ChildProcess.reaperMain(context)
                return nil
            }, context)
        if code != 0 { Unmanaged<ChildProcess>.fromOpaque(context).release() }
        return code
    }

    private static func reaperMain(_ context: UnsafeMutableRawPointer?) {
        guard let context else { return }
        Unmanaged<ChildProcess>.fromOpaque(context).takeRetainedValue().reap()
    }

    // MARK: - Spawning

    private static func spawn(
        executable: String, arguments: [String], environment: [String: String], workingDirectory: String?,
        streams: [Stream]
    ) throws(SpawnError) -> pid_t {
        #if os(Linux) || os(macOS)
            func check(_ code: Int32, _ operation: String) throws(SpawnError) {
                if code != 0 { throw SpawnError(executable: executable, code: code, operation: operation) }
            }
            #if canImport(Darwin)
                var actions: posix_spawn_file_actions_t?
                var attributes: posix_spawnattr_t?
            #else
                var actions = posix_spawn_file_actions_t()
                var attributes = posix_spawnattr_t()
            #endif
            try check(posix_spawn_file_actions_init(&actions), "posix_spawn_file_actions_init")
            defer { posix_spawn_file_actions_destroy(&actions) }
            try check(posix_spawnattr_init(&attributes), "posix_spawnattr_init")
            defer { posix_spawnattr_destroy(&attributes) }

            for (target, stream) in zip(Int32(0)..., streams) {
                switch stream {
                case .null:
                    let flags = target == STDIN_FILENO ? O_RDONLY : O_WRONLY
                    try check(posix_spawn_file_actions_addopen(&actions, target, "/dev/null", flags, 0), "open /dev/null")
                case .descriptor(let descriptor):
                    #if canImport(Darwin)
                        if descriptor == target {
                            try check(posix_spawn_file_actions_addinherit_np(&actions, target), "inherit \(target)")
                            continue
                        }
                    #endif
                    try check(posix_spawn_file_actions_adddup2(&actions, descriptor, target), "dup2 \(descriptor)")
                }
            }
            if let workingDirectory {
                #if canImport(Darwin)
                    let changeDirectory = posix_spawn_file_actions_addchdir_np
                #else
                    guard let changeDirectory = GlibcSpawnExtensions.addChangeDirectory else {
                        throw SpawnError(executable: executable, code: ENOSYS, operation: "posix_spawn_file_actions_addchdir_np")
                    }
                #endif
                try check(changeDirectory(&actions, workingDirectory), "chdir \(workingDirectory)")
            }
            var flags = POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK
            #if canImport(Darwin)
                flags |= POSIX_SPAWN_CLOEXEC_DEFAULT  // only the descriptors the file actions name survive
            #else
                guard let closeFrom = GlibcSpawnExtensions.addCloseFrom else {
                    throw SpawnError(executable: executable, code: ENOSYS, operation: "posix_spawn_file_actions_addclosefrom_np")
                }
                try check(closeFrom(&actions, 3), "closefrom 3")
            #endif
            try check(posix_spawnattr_setflags(&attributes, Int16(flags)), "posix_spawnattr_setflags")
            var everySignal = sigset_t()
            sigfillset(&everySignal)
            try check(posix_spawnattr_setsigdefault(&attributes, &everySignal), "posix_spawnattr_setsigdefault")
            var noSignal = sigset_t()
            sigemptyset(&noSignal)
            try check(posix_spawnattr_setsigmask(&attributes, &noSignal), "posix_spawnattr_setsigmask")

            let argv = ([executable] + arguments).map { strdup($0) } + [nil]
            defer { for pointer in argv { free(pointer) } }
            let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer { for pointer in envp { free(pointer) } }
            var pid: pid_t = 0
            try check(posix_spawn(&pid, executable, &actions, &attributes, argv, envp), "posix_spawn")
            return pid
        #else
            throw SpawnError(executable: executable, code: ENOSYS, operation: "posix_spawn")
        #endif
    }
}

/// `kill(2)`, outside ``ChildProcess`` whose `kill(_:)` method would shadow it.
private func sendSignal(_ signal: Int32, to process: pid_t) -> Int32 {
    kill(process, signal)
}

#if canImport(Glibc)
    /// glibc's non-portable file actions (glibc 2.29 and 2.34), which the `Glibc` module does not
    /// declare: looked up once in the C library by name, `nil` on an older glibc.
    private enum GlibcSpawnExtensions {
        typealias AddChangeDirectory =
            @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
        typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

        /// `posix_spawn_file_actions_addchdir_np`: change directory in the child.
        static let addChangeDirectory: AddChangeDirectory? = symbol("posix_spawn_file_actions_addchdir_np")
        /// `posix_spawn_file_actions_addclosefrom_np`: close every descriptor from a number up in the child.
        static let addCloseFrom: AddCloseFrom? = symbol("posix_spawn_file_actions_addclosefrom_np")

        private static func symbol<Function>(_ name: String) -> Function? {
            guard let address = dlsym(nil, name) else { return nil }  // nil is RTLD_DEFAULT in glibc
            return unsafeBitCast(address, to: Function.self)
        }
    }
#endif
